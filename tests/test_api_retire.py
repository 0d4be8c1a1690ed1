"""Retiring a table (``DELETE /v1/tables/{table}``): out of the lobby, Good Roads and the event
feed; its rounds still readable; a later round starts it again."""

import json

import pytest

from .api_helpers import feed, post_round
from .conftest import AUTH

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

# Banker every round: the Big Road's one long column matches the "dragon" Good Road.
DRAGON = "BBBBBBBB"


def listed(client) -> set[str]:
    return {tile["table"] for tile in client.get("/v1/tables").json["tables"]}


def good_tables(client) -> set[str]:
    return {item["table"] for item in client.get("/v1/good-roads").json["good_roads"]}


def test_a_retired_table_leaves_the_lobby_and_good_roads_and_keeps_its_rounds(client):
    client.put("/v1/tables/old", json={"name": "Salon Privé"}, headers=AUTH)
    feed(client, DRAGON, table="old")
    feed(client, "BP", table="other")
    assert "old" in listed(client) and "old" in good_tables(client)

    answer = client.delete("/v1/tables/old", headers=AUTH)
    assert answer.status_code == 200, answer.json
    assert answer.json["retired"] is True and answer.json["shoes"] == ["s1"]

    assert listed(client) == {"other"} and "old" not in good_tables(client)
    rounds = client.get("/v1/tables/old/shoes/s1/rounds")
    assert rounds.status_code == 200 and len(rounds.json["rounds"]) == len(DRAGON)
    assert client.get("/v1/tables/old/roads").status_code == 200
    # Again: nothing changes.
    assert client.delete("/v1/tables/old", headers=AUTH).status_code == 200
    assert listed(client) == {"other"}


def test_a_later_round_starts_a_retired_table_again_under_its_name(client):
    client.put("/v1/tables/back", json={"name": "Salon Privé"}, headers=AUTH)
    feed(client, "BP", table="back")
    client.delete("/v1/tables/back", headers=AUTH)
    assert "back" not in listed(client)
    post_round(client, 1, table="back", shoe="s2", result="P")
    tile = {t["table"]: t for t in client.get("/v1/tables").json["tables"]}["back"]
    assert tile["name"] == "Salon Privé" and tile["shoe"] == "s2"


def test_retiring_sends_a_retired_event_and_then_nothing_of_the_table(client):
    feed(client, "B", table="gone")
    last = client.get("/v1/tables/gone").json  # the table exists
    assert last["rounds"] == 1
    client.delete("/v1/tables/gone", headers=AUTH)
    stream = client.get("/v1/events", headers={"Last-Event-ID": "0"}, buffered=False)
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
