"""The live event feed over HTTP, ``/v1/events?frames=0`` and ``?tables=`` (api/http/feedviews.py):
Server-Sent Events from the lobby's Redis Stream, resumed by ``Last-Event-ID``, a ``reset`` once
what a client missed was trimmed, heartbeats, a 400 for a bad id. (The event hub and the feed
service on their own: tests/live/.)"""

import json
import time
from datetime import UTC, datetime

import pytest

from api.codecs.times import read_rfc3339
from tests.api_helpers import feed, post_round
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, sse_heartbeat=0.1)


def read(response, count, seconds=5.0):
    """The next ``count`` events (dicts with id, event, data) and how many heartbeats came."""
    events, heartbeats = [], 0
    deadline = time.monotonic() + seconds
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        for block in text.split("\n\n")[:-1]:  # a chunk may hold several events
            if block.startswith(": heartbeat"):
                heartbeats += 1
            elif not block.startswith("retry:"):
                fields = dict(line.split(": ", 1) for line in block.split("\n"))
                fields["data"] = json.loads(fields["data"])
                events.append(fields)
        if len(events) >= count or time.monotonic() > deadline:
            break
    return events, heartbeats


def test_rounds_arrive_live_with_their_stream_ids(client):
    stream = client.get("/v1/events?frames=0", buffered=False)
    assert stream.status_code == 200
    assert stream.mimetype == "text/event-stream"
    feed(client, "BPT")
    events, _ = read(stream, 4)
    stream.close()
    assert [e["event"] for e in events] == ["shoe", "round", "round", "round"]
    assert [e["data"].get("result") for e in events[1:]] == ["B", "P", "T"]
    summary = events[3]["data"].pop("summary")
    # Reported without a time it was dealt: the service's clock stamps it.
    assert read_rfc3339(events[3]["data"].pop("dealt_at")) <= datetime.now(UTC)
    assert events[3]["data"] == {
        "table": "t1",
        "shoe": "s1",
        "version": 3,
        "round": 3,
        "result": "T",
        "void": False,
    }
    # The lobby channel carries the table's tile as it is after the round, not its roads.
    assert summary["version"] == 3 and summary["rounds_played"] == 3
    assert summary["recent"] == ["B", "P", "T"] and "patch" not in events[3]["data"]
    ids = [tuple(map(int, e["id"].split("-"))) for e in events]
    assert ids == sorted(ids) and len(set(ids)) == 4


def test_a_tables_status_comes_on_the_lobby_channel_too(client):
    """The studio's report reaches a client of the deprecated per-round lobby channel, on a
    Redis server and on a Redis Cluster (the script touches the lobby's slot only)."""
    stream = client.get("/v1/events?frames=0", buffered=False)
    feed(client, "B")
    answer = client.put("/v1/tables/t1/status", json={"status": "paused"}, headers=AUTH)
    assert answer.status_code == 200, answer.json
    events, _ = read(stream, 3)
    stream.close()
    assert [e["event"] for e in events] == ["shoe", "round", "status"]
    assert events[2]["data"]["table"] == "t1" and events[2]["data"]["status"] == "paused"


def test_a_client_resumes_after_its_last_event_id(client):
    stream = client.get("/v1/events?frames=0", buffered=False)
    feed(client, "BB")
    seen, _ = read(stream, 2)  # shoe, round 1 (and round 2, when they came in one write)
    stream.close()
    post_round(client, 3, result="P")  # missed while away
    after = seen[1]["id"]  # round 1's
    again = client.get("/v1/events?frames=0", headers={"Last-Event-ID": after}, buffered=False)
    post_round(client, 4, result="P")  # live after reconnecting
    events, _ = read(again, 3)
    again.close()
    # (Round 4, B2 P2, also starts 拍拍黐: its good_road event may come in the same read.)
    assert [(e["event"], e["data"]["round"]) for e in events[:3]] == [
        ("round", 2),
        ("round", 3),
        ("round", 4),
    ]


def test_good_road_events_fire_once_when_a_pattern_starts_and_once_when_it_stops(client):
    feed(client, "BBB")
    stream = client.get("/v1/events?frames=0", buffered=False)
    for number, result in enumerate("BBP", start=4):
        post_round(client, number, result=result)
    events, _ = read(stream, 9, seconds=1.0)  # eight come; a ninth would be a duplicate
    stream.close()
    assert len(events) == 8
    good = [
        (e["data"]["pattern"], e["data"]["state"], e["data"]["since_round"])
        for e in events
        if e["event"] == "good_road"
    ]
    # Banker 4 in a row is a Banker Streak and, in the Asian profile, a 长庄 (chang_zhuang); a
    # write's events come in no particular order among themselves.
    assert sorted(good) == [
        ("banker_streak", "start", 4),
        ("banker_streak", "stop", 4),
        ("chang_zhuang", "start", 4),
        ("chang_zhuang", "stop", 4),
        ("change_to_player", "start", 6),
    ]
    assert {g[1] for g in good[:2]} == {"start"}  # the starts at round 4 come first


def test_voids_and_corrections_are_events(client):
    feed(client, "BB")
    stream = client.get("/v1/events?frames=0", buffered=False)
    client.put("/v1/tables/t1/shoes/s1/rounds/1", json={"result": "P"}, headers=AUTH)
    client.post("/v1/tables/t1/shoes/s1/rounds/2/void", headers=AUTH)
    events, _ = read(stream, 2)
    stream.close()
    assert [(e["event"], e["data"]["round"], e["data"]["result"]) for e in events] == [
        ("correction", 1, "P"),
        ("void", 2, "B"),
    ]


def test_an_idle_stream_sends_heartbeats(client):
    stream = client.get("/v1/events?frames=0", buffered=False)
    events, heartbeats = read(stream, 1, seconds=0.5)
    stream.close()
    assert events == [] and heartbeats >= 2


def test_a_client_whose_events_were_trimmed_is_told_to_reset(client, redis_client):
    feed(client, "BBBB")
    first = redis_client.xrange("{lobby}:events", count=1)[0][0].decode()
    redis_client.xtrim("{lobby}:events", maxlen=2, approximate=False)
    stream = client.get("/v1/events?frames=0", headers={"Last-Event-ID": first}, buffered=False)
    events, _ = read(stream, 1)
    stream.close()
    assert events[0]["event"] == "reset"


def test_a_bad_last_event_id_is_a_400(client):
    answer = client.get("/v1/events?frames=0", headers={"Last-Event-ID": "yesterday"})
    assert answer.status_code == 400 and "Last-Event-ID" in answer.json["message"]


@pytest.mark.parametrize("start", ["0", "0-0"])
def test_replay_from_the_start_sends_every_event_kept(client, start):
    feed(client, "BPB")
    stream = client.get("/v1/events?frames=0", headers={"Last-Event-ID": start}, buffered=False)
    events, _ = read(stream, 4)  # a shoe event, then three rounds
    stream.close()
    rounds = [e["data"]["round"] for e in events if e["event"] == "round"]
    assert rounds[:3] == [1, 2, 3] and all(e["event"] != "reset" for e in events)


def test_replay_from_the_start_resets_once_the_stream_was_trimmed(client, redis_client):
    feed(client, "BBBB")
    redis_client.xtrim("{lobby}:events", maxlen=2, approximate=False)
    stream = client.get("/v1/events?frames=0", headers={"Last-Event-ID": "0"}, buffered=False)
    events, _ = read(stream, 1)
    stream.close()
    assert events[0]["event"] == "reset"
