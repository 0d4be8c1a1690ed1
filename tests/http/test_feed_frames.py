"""The lobby in frames over SSE (``/v1/events``, api/http/feedviews.py): a full frame first, then
the frames; a client keeping tiles by them holds ``GET /v1/tables``; frames come no faster than
``ROADS_FRAME_MS``; a client resumes by frame id, and one too far behind gets the whole lobby;
new viewers past the pace are told when to come back. (The feed's parts on their own:
tests/live/.)"""

from __future__ import annotations

import itertools
import time

import pytest

from api.admission import Pace
from api.codecs.frames import apply, step
from tests.api_helpers import post_round
from tests.conftest import AUTH, make_app
from tests.http.test_feed_events import read

FRAME_MS = 100


@pytest.fixture
def app(backend, redis_client):
    # Its jobs (the frame builder) stop with the test (tests/conftest.py).
    return make_app(backend.url, cluster=backend.cluster, sse_heartbeat=0.2, frame_ms=FRAME_MS)


def lobby(client, headers=None) -> dict[str, dict]:
    return {t["table"]: t for t in client.get("/v1/tables", headers=headers or {}).json["tables"]}


def settle(client, stream, held: dict, headers=None, seconds: float = 5.0) -> list[dict]:
    """Read frames, applying them, until ``held`` equals ``GET /v1/tables``."""
    deadline, seen = time.monotonic() + seconds, []
    while time.monotonic() < deadline:
        if held == lobby(client, headers):
            return seen
        frames, _ = read(stream, 1, seconds=0.5)
        for frame in frames:
            assert frame["event"] == "frame"
            apply(held, frame["data"])
            seen.append(frame)
    raise AssertionError("the frames did not bring the lobby")


def following(client):
    """A frames client that holds the whole lobby: its stream, its tiles, its first frame."""
    stream = client.get("/v1/events", buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    (first,), _ = read(stream, 1)
    assert first["data"]["full"] is True
    held: dict = {}
    apply(held, first["data"])
    settle(client, stream, held)
    return stream, held, first


def test_a_client_keeps_the_lobby_by_frames(client):
    for table in ("a1", "a2"):
        post_round(client, 1, table, "s1", result="B")
    stream, held, first = following(client)
    assert set(first["data"]["tables"]) <= {"a1", "a2"}
    seen: list = []
    post_round(client, 2, "a1", "s1", result="P")  # one round: its frame carries the result
    one = settle(client, stream, held)
    changes = [f["data"]["tables"]["a1"] for f in one if "a1" in f["data"]["tables"]]
    assert [change.get("results") for change in changes] == [["P"]], one
    seen += one
    for number, result in enumerate("PBT", start=3):
        post_round(client, number, "a1", "s1", result=result)
    client.post("/v1/tables/a1/shoes/s1/rounds/2/void", headers=AUTH)
    post_round(client, 1, "a2", "s2", result="P")  # a new shoe
    client.delete("/v1/tables/a2", headers=AUTH)  # retired
    post_round(client, 1, "a3", "s1", result="B")  # a new table
    seen += settle(client, stream, held)
    stream.close()
    stamps = [int(frame["id"].split("-")[0]) for frame in [first, *seen]]
    assert all(b - a >= FRAME_MS - 5 for a, b in itertools.pairwise(stamps)), stamps


def test_without_a_read_key_the_frames_carry_no_odds(backend, redis_client):
    app = make_app(backend.url, public_odds=False, sse_heartbeat=0.2, frame_ms=FRAME_MS)
    client = app.test_client()
    stop = app.extensions["roads"].framer.stop
    post_round(client, 1, "o1", "s1", result="B")
    stream, held, _ = following(client)
    assert all(tile["edge"] == {} for tile in held.values())
    stream.close()
    stop()


def test_a_client_resumes_by_frame_and_one_too_far_behind_gets_the_whole_lobby(client):
    post_round(client, 1, "r1", "s1", result="B")
    stream, held, first = following(client)
    post_round(client, 2, "r1", "s1", result="P")
    seen = settle(client, stream, held)
    stream.close()
    post_round(client, 3, "r1", "s1", result="P")
    resumed = client.get(
        "/v1/events",
        buffered=False,
        headers={"Last-Event-ID": seen[-1]["id"] if seen else first["id"]},
    )
    frames, _ = read(resumed, 1)
    assert "full" not in frames[0]["data"]  # the frames after it, not the whole lobby
    resumed.close()
    lost = client.get("/v1/events", buffered=False, headers={"Last-Event-ID": "1-0"})
    (whole,), _ = read(lost, 1)
    assert whole["data"]["full"] is True
    lost.close()


def test_frames_are_the_lobbys_alone(client):
    answer = client.get("/v1/events?frames=1&tables=a1")
    assert answer.status_code == 400 and "without tables" in answer.json["message"]


def test_the_lobby_channel_is_frames_unless_asked_for_rounds(client):
    post_round(client, 1, "d1", "s1", result="B")
    stream = client.get("/v1/events", buffered=False)
    (first,), _ = read(stream, 1)
    stream.close()
    assert first["event"] == "frame" and first["data"]["full"] is True
    stream = client.get("/v1/events?frames=0&last_event_id=0", buffered=False)
    events, _ = read(stream, 2)
    stream.close()
    assert [event["event"] for event in events] == ["shoe", "round"]


def test_viewers_past_the_pace_are_told_when_to_come_back(backend, redis_client):
    client = make_app(backend.url, feed_accepts=2, sse_heartbeat=0.2).test_client()
    held = [client.get("/v1/events", buffered=False) for _ in range(2)]
    paced = client.get("/v1/events")
    text = paced.get_data(as_text=True)
    assert paced.status_code == 200 and paced.mimetype == "text/event-stream"
    assert text.startswith("retry: ") and text.count("\n\n") == 1  # then the stream ends
    assert 2000 <= int(text.split()[1]) < 5000
    for stream in held:
        stream.close()


def test_the_pace_lets_its_rate_through_a_second():
    now = [0.0]
    pace = Pace(10, clock=lambda: now[0])
    assert sum(pace.admit() for _ in range(30)) == 10  # a burst of its rate
    now[0] += 0.5
    assert sum(pace.admit() for _ in range(30)) == 5
    assert Pace(0).admit()  # 0: no pace


def test_without_the_snapshot_the_stream_starts_at_the_latest_frame(client):
    post_round(client, 1, "w1", "s1", result="B")
    stream, held, _ = following(client)  # the frames exist, and the process holds them
    stream.close()
    frame = client.get("/v1/lobby/frame").json
    stream = client.get("/v1/events?snapshot=0", buffered=False)
    post_round(client, 2, "w1", "s1", result="P")
    (first,), _ = read(stream, 1)
    stream.close()
    assert "full" not in first["data"] and first["data"]["after"] == frame["cursor"]
    assert step(frame["cursor"], first["data"]) == "apply"
    apply(held, first["data"])
    assert held == lobby(client)
