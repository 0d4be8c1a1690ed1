"""A table's status as the studio reports it (``PUT /v1/tables/{table}/status``) and its limits
(``PUT /v1/tables/{table}``), on a real Redis: on the tiles of ``GET /v1/tables``, picked by a
stake, on the table's channel; every bad report a 400 naming the field that changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from api.codecs.tablestatus import admits
from api.storage.keys import Keyspace
from tests.api_helpers import dumped, feed
from tests.conftest import AUTH
from tests.sse_client import sse_events


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def later(seconds: float) -> str:
    return rfc3339(datetime.now(UTC) + timedelta(seconds=seconds))


def tiles(client, query: str = "") -> dict[str, dict]:
    answer = client.get(f"/v1/tables{query}")
    assert answer.status_code == 200, answer.json
    return {tile["table"]: tile for tile in answer.json["tables"]}


def report(client, table: str, **body):
    return client.put(f"/v1/tables/{table}/status", json=body, headers=AUTH)


# On a Redis server and on a Redis Cluster: every script and command touches one slot.
pytestmark = pytest.mark.cluster

LIMITS = {"table": {"min": 10, "max": 5000}, "bets": {"tie": {"min": 1, "max": 500}}}


def test_a_table_never_reported_is_open_and_without_limits(client):
    feed(client, "BP", table="t1")
    tile = tiles(client)["t1"]
    assert (tile["status"], tile["status_until"], tile["status_reason"]) == ("open", None, None)
    assert tile["limits"] is None
    assert client.get("/v1/tables/t1").json["limits"] is None


def test_betting_until_a_time_reaches_the_tile_and_moves_the_cursor(client):
    feed(client, "BP", table="t1")
    cursor = client.get("/v1/tables").json["cursor"]
    until = later(15)
    answer = report(client, "t1", status="betting", until=until)
    assert answer.status_code == 200, answer.json
    assert answer.json["status"] == "betting" and answer.json["status_until"] == until
    server_time = datetime.fromisoformat(answer.json["server_time"])
    assert abs((datetime.now(UTC) - server_time).total_seconds()) < 5
    lobby = client.get("/v1/tables").json
    assert lobby["cursor"] > cursor
    tile = lobby["tables"][0]
    assert (tile["status"], tile["status_until"]) == ("betting", until)
    assert tile["recent"] == ["B", "P"]  # the shoe's part of the tile is as it was
    # The next report replaces it whole: dealing has no end time.
    assert report(client, "t1", status="dealing").status_code == 200
    tile = tiles(client)["t1"]
    assert (tile["status"], tile["status_until"]) == ("dealing", None)


def test_a_pause_carries_its_reason_until_the_table_opens_again(client):
    feed(client, "B", table="t1")
    answer = report(client, "t1", status="paused", reason="card fell; under review")
    assert answer.status_code == 200
    assert tiles(client)["t1"]["status_reason"] == "card fell; under review"
    report(client, "t1", status="open")
    assert tiles(client)["t1"]["status_reason"] is None


def test_the_status_goes_out_on_the_tables_channel(client):
    feed(client, "B", table="t1")
    report(client, "t1", status="shuffling", until=later(60))
    stream = client.get("/v1/events?tables=t1&last_event_id=0", buffered=False)
    text = ""
    for chunk in stream.response:  # the backlog, up to the status event
        text += chunk.decode()
        if "event: status" in text and text.endswith("\n\n"):
            break
    stream.close()
    events = sse_events(text)
    assert [event["event"] for event in events][-2:] == ["round", "status"]
    assert events[-1]["data"]["table"] == "t1" and events[-1]["data"]["status"] == "shuffling"
    assert "server_time" in events[-1]["data"]


def test_a_table_retired_and_back_is_open_again(client):
    feed(client, "B", table="t1")
    report(client, "t1", status="closed", reason="end of the day")
    assert client.delete("/v1/tables/t1", headers=AUTH).status_code == 200
    assert report(client, "t1", status="open").status_code == 404  # not in the lobby now
    feed(client, "P", table="t1", shoe="s2")
    assert tiles(client)["t1"]["status"] == "open"


def test_a_table_retired_and_named_again_is_open_again(client):
    feed(client, "B", table="t1")
    report(client, "t1", status="paused", reason="fallen card")
    client.delete("/v1/tables/t1", headers=AUTH)
    assert client.put("/v1/tables/t1", json={"name": "T1"}, headers=AUTH).status_code == 200
    tile = tiles(client)["t1"]
    assert (tile["status"], tile["status_reason"]) == ("open", None)


def test_limits_are_set_with_the_table_and_shown_on_its_tile(client):
    answer = client.put("/v1/tables/t1", json={"name": "Table 1", "limits": LIMITS}, headers=AUTH)
    assert answer.status_code == 200, answer.json
    assert answer.json["limits"] == LIMITS
    assert isinstance(answer.json["limits"]["table"]["max"], int)  # as sent, not 5000.0
    feed(client, "B", table="t1")
    assert tiles(client)["t1"]["limits"] == LIMITS
    # Named again without them, the table has none.
    client.put("/v1/tables/t1", json={"name": "Table 1"}, headers=AUTH)
    assert tiles(client)["t1"]["limits"] is None
    assert client.get("/v1/tables/t1").json["limits"] is None


def test_a_stake_picks_the_tables_whose_limits_take_it(client):
    low = {"table": {"min": 1, "max": 100}}
    high = {"table": {"min": 50, "max": 10_000}, "bets": {"tie": {"min": 5, "max": 20}}}
    client.put("/v1/tables/low", json={"name": "Low", "limits": low}, headers=AUTH)
    client.put("/v1/tables/high", json={"name": "High", "limits": high}, headers=AUTH)
    client.put("/v1/tables/free", json={"name": "No limits"}, headers=AUTH)
    assert set(tiles(client)) == {"low", "high", "free"}
    assert set(tiles(client, "?stake=60")) == {"low", "high"}
    assert set(tiles(client, "?stake=5")) == {"low"}
    assert set(tiles(client, "?stake=500")) == {"high"}
    assert set(tiles(client, "?stake=10&bet=tie")) == {"low", "high"}  # the tie's own on high
    assert set(tiles(client, "?stake=500&bet=tie")) == set()
    assert set(tiles(client, "?stake=500&bet=banker")) == {"high"}  # the table's
    assert client.get("/v1/tables?stake=50000000").json["tables"] == []


def test_admits_reads_the_bets_own_limits_first():
    limits = {"table": {"min": 10, "max": 100}, "bets": {"tie": {"min": 1, "max": 5}}}
    assert admits(limits, 50) and not admits(limits, 5)
    assert admits(limits, 5, "tie") and not admits(limits, 50, "tie")
    assert admits(limits, 50, "banker")
    assert not admits(None, 1) and not admits({"bets": {"tie": {"min": 1, "max": 5}}}, 1)


BAD_REPORTS = [  # each against its schema: a 400
    ({"status": "betting", "until": "far"}, "until"),
    ({"status": "betting", "until": "2026-11-27T08:00:00"}, "until"),  # no offset
    ({"status": "paused", "reason": "a\u202eb"}, "reason"),
    ({"status": "paused", "reason": ""}, "reason"),
    ({"status": "asleep"}, "status"),
    ({"status": 1}, "status"),
    ({}, "status"),
    ({"status": "open", "colour": "red"}, "colour"),
]
AGAINST_THE_RULES = [  # each schema-valid, against a rule no schema states: a 422
    ({"status": "betting"}, "until"),
    ({"status": "betting", "until": "2020-01-01T00:00:00Z"}, "past"),
    ({"status": "closed", "until": "2099-01-01T00:00:00Z"}, "day ahead"),
]


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [(body, 400, named) for body, named in BAD_REPORTS]
    + [(body, 422, named) for body, named in AGAINST_THE_RULES],
)
def test_a_bad_report_is_refused_naming_the_problem_and_changes_nothing(
    client, redis_client, body, status, named
):
    feed(client, "B", table="t1")
    report(client, "t1", status="paused", reason="before")
    before = dumped(redis_client)
    answer = report(client, "t1", **body)
    assert answer.status_code == status, answer.json
    assert named in str(answer.json), answer.json
    assert dumped(redis_client) == before


def test_any_status_may_say_why_and_until_when(client):
    feed(client, "B", table="t1")
    until = later(3600)
    answer = report(client, "t1", status="closed", until=until, reason="opens at nine")
    assert answer.status_code == 200, answer.json
    tile = tiles(client)["t1"]
    assert (tile["status"], tile["status_until"]) == ("closed", until)
    assert tile["status_reason"] == "opens at nine"


def test_a_betting_end_more_than_a_day_ahead_is_refused(client):
    feed(client, "B", table="t1")
    answer = report(client, "t1", status="betting", until=later(2 * 86_400))
    assert answer.status_code == 422 and "until" in str(answer.json)


BAD_LIMITS = [
    ({"table": {"min": 100, "max": 10}}, 422, "min is above max"),
    ({"bets": {"tie": {"min": 100, "max": 10}}}, 422, "bets.tie"),
    ({"table": {"min": -1, "max": 10}}, 400, "min"),
    ({"table": {"min": "1", "max": 10}}, 400, "min"),
    ({"table": {"min": True, "max": 10}}, 400, "min"),
    ({"bets": {"dragon": {"min": 1, "max": 10}}}, 400, "dragon"),
    ({"table": {"min": 1}}, 400, "max"),
]


@pytest.mark.parametrize(("limits", "status", "named"), BAD_LIMITS)
def test_bad_limits_are_refused_naming_the_problem_and_change_nothing(
    client, redis_client, limits, status, named
):
    client.put("/v1/tables/t1", json={"name": "T1", "limits": LIMITS}, headers=AUTH)
    before = dumped(redis_client)
    answer = client.put("/v1/tables/t1", json={"name": "T1", "limits": limits}, headers=AUTH)
    assert answer.status_code == status, answer.json
    assert named in str(answer.json), answer.json
    assert dumped(redis_client) == before


def test_empty_limits_are_none(client):
    answer = client.put("/v1/tables/t1", json={"name": "T1", "limits": {}}, headers=AUTH)
    assert answer.status_code == 200 and answer.json["limits"] is None


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("?stake=-1", "stake"),
        ("?stake=+5", "stake"),
        ("?stake=5&bet=x", "bet"),
    ],
)
def test_a_bad_stake_query_is_a_400_naming_it(client, query, named):
    answer = client.get(f"/v1/tables{query}")
    assert answer.status_code == 400 and named in str(answer.json), answer.json


def test_a_report_needs_the_ingest_key_and_a_table_in_the_lobby(client, redis_client):
    feed(client, "B", table="t1")
    assert client.put("/v1/tables/t1/status", json={"status": "open"}).status_code == 401
    assert report(client, "nobody", status="open").status_code == 404
    statuses = Keyspace.of("", 0).lobby.statuses
    assert not redis_client.exists(statuses) or not redis_client.hexists(statuses, "nobody")


@pytest.mark.parametrize(
    "until",
    [
        "2020-11-27t08:00:00z",
        "2016-12-31T23:59:60Z",
        "9999-12-31T23:59:60Z",
        "0001-01-01T00:00:00+23:59",
    ],
)
def test_every_rfc3339_form_is_read_and_a_time_out_of_bounds_is_a_422(client, until):
    feed(client, "B", table="t1")
    answer = report(client, "t1", status="betting", until=until)
    assert answer.status_code == 422 and "until" in answer.json["message"], answer.json


def test_a_lowercase_time_within_bounds_is_taken(client):
    feed(client, "B", table="t1")
    until = later(30)
    answer = report(client, "t1", status="betting", until=until.lower())
    assert answer.status_code == 200 and answer.json["status_until"] == until
