"""The pages and what a browser may do with every answer: the JavaScript client's modules at
/client/; ``nosniff`` and ``Referrer-Policy`` on every answer (JSON, PNG, SSE, errors, the pages,
and the answers api/http/hotreads.py replays); the lobby's strict Content-Security-Policy, framed
by ``ROADS_FRAME_ANCESTORS``; the reference's own (api/http/securityheaders.py)."""

from __future__ import annotations

import pytest
import redis

from api.config import ConfigError, Settings
from api.http.securityheaders import ANSWER, REFERENCE_POLICY
from api.jobs import stop_jobs
from tests.api_helpers import AUTH, feed, post_round
from tests.conftest import make_app


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


def policy(answer) -> dict[str, str]:
    """A Content-Security-Policy as {directive: its sources}."""
    found = {}
    for part in answer.headers["Content-Security-Policy"].split(";"):
        name, _, sources = part.strip().partition(" ")
        assert name not in found, f"{name} twice"
        found[name] = sources
    return found


@pytest.fixture(scope="module")
def site(redis_server):
    """An app whose lobby may be framed by one operator's site, with a table of four rounds."""
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(
        redis_server.url, frame_ancestors="'self' https://casino.example", stop_with_test=False
    )
    client = app.test_client()
    feed(client, "BPPB")
    yield client
    stop_jobs(app.extensions["roads"])


def every_kind(client) -> dict[str, object]:
    """One answer of every kind the service gives."""
    stream = client.get("/v1/events?tables=t1", buffered=False)
    stream.close()
    return {
        "json": client.get("/v1/tables/t1/roads"),
        "png": client.get("/v1/tables/t1/roads/big_road.png"),
        "png again (hot reads)": client.get("/v1/tables/t1/roads/big_road.png"),
        "json again, held (hot reads)": client.get(
            "/v1/tables/t1/roads",
            headers={"If-None-Match": client.get("/v1/tables/t1/roads").headers["ETag"]},
        ),
        "sse": stream,
        "404": client.get("/v1/tables/nowhere/roads"),
        "404 no route": client.get("/nothing/here"),
        "405": client.delete("/v1/tables/t1/roads"),
        "401": post_round(client, 5, result="B", headers={}),
        "409": post_round(client, 4, result="T", headers=AUTH),
        "/": client.get("/"),
        "/docs": client.get("/docs"),
        "/openapi.json": client.get("/openapi.json"),
        "/client/": client.get("/client/svg.js"),
        "/static/": client.get("/static/lobby.css"),
        "/metrics": client.get("/metrics"),
        "/livez": client.get("/livez"),
    }


def test_every_answer_says_nosniff_and_no_referrer(site):
    answers = every_kind(site)
    statuses = {kind: answer.status_code for kind, answer in answers.items()}
    assert statuses["sse"] == 200 and statuses["png"] == 200 and statuses["/"] == 200
    assert statuses["404"] == 404 and statuses["405"] == 405 and statuses["409"] == 409
    assert statuses["json again, held (hot reads)"] == 304
    assert answers["sse"].mimetype == "text/event-stream"
    assert answers["png"].mimetype == "image/png"
    for kind, answer in answers.items():
        assert answer.headers.get("X-Content-Type-Options") == "nosniff", kind
        assert answer.headers.get("Referrer-Policy") == "no-referrer", kind
        assert "frame-ancestors" in policy(answer), kind


def test_an_answer_that_is_no_page_may_run_load_or_be_framed_by_nothing(site):
    for kind, answer in every_kind(site).items():
        if kind not in ("/", "/docs"):
            assert answer.headers["Content-Security-Policy"] == ANSWER, kind
    assert policy(site.get("/v1/tables/t1/roads"))["default-src"] == "'none'"


def test_the_lobby_page_runs_its_own_files_only_framed_by_the_setting(site):
    answer = site.get("/")
    found = policy(answer)
    assert found == {
        "default-src": "'none'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "connect-src": "'self'",
        "font-src": "'self'",
        "base-uri": "'none'",
        "form-action": "'none'",
        "require-trusted-types-for": "'script'",
        "trusted-types": "'none'",
        "frame-ancestors": "'self' https://casino.example",
    }
    assert "unsafe" not in answer.headers["Content-Security-Policy"]
    # What the page asks again (If-None-Match) keeps the policy too.
    again = site.get("/", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304
    assert policy(again) == found


def test_no_page_holds_an_inline_script_or_style(site):
    for path in ("/", "/docs"):
        text = site.get(path).get_data(as_text=True)
        assert "<style" not in text and " style=" not in text, path
        for script in text.split("<script")[1:]:
            assert script.split(">")[0].strip().startswith('type="module" src="/static/'), path


def test_the_lobby_is_framed_by_nothing_by_default(client):
    assert policy(client.get("/"))["frame-ancestors"] == "'none'"


def test_the_reference_alone_may_style_inline_for_redoc(site):
    answer = site.get("/docs")
    assert answer.headers["Content-Security-Policy"] == REFERENCE_POLICY
    found = policy(answer)
    assert found["style-src"] == "'self' 'unsafe-inline'"
    assert found["script-src"] == "'self'"
    assert "unsafe-eval" not in REFERENCE_POLICY


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("", "'none'"),
        ("none", "'none'"),
        ("self", "'self'"),
        ("'self' https://casino.example https://*.studio.example:8443", None),
    ],
)
def test_frame_ancestors_are_origins_or_keywords(value, said):
    settings = Settings.from_env(
        {"REDIS_URL": "redis://127.0.0.1:1/0", "ROADS_FRAME_ANCESTORS": value}
    )
    assert settings.frame_ancestors == (said or value)


@pytest.mark.parametrize(
    "value",
    [
        "*",
        "https:",
        "'none' 'self'",
        "https://a.example/path",
        "'unsafe-inline'",
        "x; script-src *",
    ],
)
def test_a_frame_ancestor_that_is_not_one_is_refused(value):
    with pytest.raises(ConfigError, match="ROADS_FRAME_ANCESTORS"):
        Settings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0", "ROADS_FRAME_ANCESTORS": value})
