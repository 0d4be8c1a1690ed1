"""Retiring a table (``DELETE /v1/tables/{table}``): out of the lobby, Good Roads and the event
feed; everything under its path a 404 naming the archive, where its rounds are read; a later
round starts it again."""

import json

import pytest

from tests.api_helpers import feed, post_round
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def app(backend, redis_client):
    """The archive is the record's to read: public here (its key checks are in
    tests/system/test_security_record_reads.py)."""
    return make_app(backend.url, cluster=backend.cluster, public_record=True)


# Banker every round: the Big Road's one long column matches the "dragon" Good Road.
DRAGON = "BBBBBBBB"


def listed(client) -> set[str]:
    return {tile["table"] for tile in client.get("/v1/tables").json["tables"]}


def good_tables(client) -> set[str]:
    return {item["table"] for item in client.get("/v1/good-roads").json["good_roads"]}


# Every read of a table and its shoes, as a client of the table would make them.
READS = [
    "/v1/tables/old",
    "/v1/tables/old/roads",
    "/v1/tables/old/stats",
    "/v1/tables/old/probe",
    "/v1/tables/old/odds",
    "/v1/tables/old/roads/big_road.png",
    "/v1/tables/old/shoes/s1/roads?ask=B",
    "/v1/tables/old/shoes/s1/stats",
    "/v1/tables/old/shoes/s1/roads/scorecard.png",
    "/v1/tables/old/shoes/s1/rounds",
]


def test_a_retired_table_leaves_the_lobby_and_good_roads_and_its_rounds_go_to_the_archive(client):
    client.put("/v1/tables/old", json={"name": "Salon Privé"}, headers=AUTH)
    feed(client, DRAGON, table="old")
    feed(client, "BP", table="other")
    assert "old" in listed(client) and "old" in good_tables(client)
    before = {path: client.get(path) for path in READS}  # also kept in this process's memos
    assert all(answer.status_code == 200 for answer in before.values())
    history = before["/v1/tables/old/shoes/s1/rounds"].json["rounds"]

    answer = client.delete("/v1/tables/old", headers=AUTH)
    assert answer.status_code == 200, answer.json
    assert answer.json["retired"] is True and answer.json["shoes"] == ["s1"]
    assert answer.json["archive"] == "/v1/archive/tables/old"

    assert listed(client) == {"other"} and "old" not in good_tables(client)
    for path in READS:
        gone = client.get(path)
        assert gone.status_code == 404, path
        assert gone.json["archive"] == "/v1/archive/tables/old", path
        assert "retired" in gone.json["message"], path
        # A client that held the answer is told too, not answered 304.
        etag = before[path].headers.get("ETag")
        if etag:
            again = client.get(path, headers={"If-None-Match": etag})
            assert again.status_code == 404, path

    table = client.get("/v1/archive/tables/old").json
    assert table == {
        "table": "old",
        "name": "Salon Privé",
        "variant": "standard",
        "retired": True,
        "shoes": ["s1"],
    }
    rounds = client.get("/v1/archive/tables/old/shoes/s1/rounds")
    assert rounds.status_code == 200 and rounds.json["rounds"] == history
    # Again: nothing changes.
    assert client.delete("/v1/tables/old", headers=AUTH).status_code == 200
    assert listed(client) == {"other"}
    assert client.get("/v1/archive/tables/old/shoes/s1/rounds").json == rounds.json


def test_the_archive_holds_retired_tables_only(client):
    feed(client, "BP", table="live")
    for path in ("/v1/archive/tables/live", "/v1/archive/tables/live/shoes/s1/rounds"):
        answer = client.get(path)
        assert answer.status_code == 404 and "not retired" in answer.json["message"]
    assert client.get("/v1/archive/tables/never").status_code == 404
    client.delete("/v1/tables/live", headers=AUTH)
    assert client.get("/v1/archive/tables/live/shoes/s9/rounds").status_code == 404


def test_naming_a_retired_table_brings_it_back(client):
    feed(client, "BPB", table="back")
    client.delete("/v1/tables/back", headers=AUTH)
    assert client.put("/v1/tables/back", json={"name": "Back"}, headers=AUTH).status_code == 200
    assert client.get("/v1/tables/back").json["name"] == "Back"
    assert len(client.get("/v1/tables/back/shoes/s1/rounds").json["rounds"]) == 3
    assert client.get("/v1/archive/tables/back").status_code == 404


def test_a_later_round_starts_a_retired_table_again_under_its_name(client):
    client.put("/v1/tables/back", json={"name": "Salon Privé"}, headers=AUTH)
    feed(client, "BP", table="back")
    client.delete("/v1/tables/back", headers=AUTH)
    assert "back" not in listed(client)
    post_round(client, 1, table="back", shoe="s2", result="P")
    tile = {t["table"]: t for t in client.get("/v1/tables").json["tables"]}["back"]
    assert tile["name"] == "Salon Privé" and tile["shoe"] == "s2"
    # Its old shoes are read where they were, and the archive no longer holds it.
    assert len(client.get("/v1/tables/back/shoes/s1/rounds").json["rounds"]) == 2
    assert client.get("/v1/tables/back/shoes/s1/roads").json["rounds"] == 2
    assert client.get("/v1/archive/tables/back").status_code == 404


def test_retiring_sends_a_retired_event_and_then_nothing_of_the_table(client):
    feed(client, "B", table="gone")
    last = client.get("/v1/tables/gone").json  # the table exists
    assert last["rounds"] == 1
    client.delete("/v1/tables/gone", headers=AUTH)
    stream = client.get("/v1/events?frames=0", headers={"Last-Event-ID": "0"}, buffered=False)
    text = b""
    for chunk in stream.response:
        text += chunk
        if b"event: retired" in text:
            break
    stream.close()
    block = text.split(b"event: retired\ndata: ")[1].split(b"\n")[0]
    assert json.loads(block) == {"table": "gone"}


def test_retiring_needs_the_ingest_key_and_an_existing_table(client):
    feed(client, "B", table="kept")
    assert client.delete("/v1/tables/kept").status_code == 401
    assert "kept" in listed(client)
    answer = client.delete("/v1/tables/never", headers=AUTH)
    assert answer.status_code == 404 and "never" in answer.json["message"]
