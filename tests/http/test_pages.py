"""The JavaScript client's modules, served at /client/ for the lobby page and operators' pages."""


def test_the_client_is_served_as_modules_any_origin_may_import(client):
    answer = client.get("/client/index.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Access-Control-Allow-Origin"] == "*"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert b"export" in answer.data
    again = client.get("/client/index.js", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_nothing_outside_the_client_is_served(client):
    assert client.get("/client/../../api/config.py").status_code == 404
    assert client.get("/client/nothing.js").status_code == 404
