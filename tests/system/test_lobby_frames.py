"""The lobby in frames on the built-in feed under gunicorn: a viewer that stops reading costs
the others nothing, and once it reads again it is caught up (the frames after its last, or the
whole lobby) and holds the lobby."""

from __future__ import annotations

import json
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from tests.conftest import KEY
from tests.gunicorn_server import send
from tests.gunicorn_server import service as served
from tests.lobbyviewer import SlowViewer, keeps_the_lobby, kept, lobby_of
from tests.sse_client import SSEClient


def test_a_viewer_too_slow_to_read_delays_no_other_and_is_caught_up(redis_server):
    with served(redis_server.url, KEY, ROADS_FRAME_MS="100", ROADS_SSE_HEARTBEAT="1") as base:
        slow = SlowViewer(urlsplit(base).port, "/v1/events")
        viewer = SSEClient(base + "/v1/events")
        for number in range(1, 6):  # frames of 400 tables' changes, the slow one reads none
            rounds = [
                {"table": f"slow{n}", "shoe": "s1", "round": number, "result": "BPT"[n % 3]}
                for n in range(400)
            ]
            for start in range(0, len(rounds), 200):
                send(base, "POST", "/v1/rounds", {"rounds": rounds[start : start + 200]}, KEY)
            time.sleep(0.2)
        keeps_the_lobby(viewer, base)  # the other viewer is not held back
        viewer.close()
        want = lobby_of(base)
        assert slow.catch_up(want) == want


def test_a_tables_status_and_its_countdown_reach_a_frames_viewer(redis_server):
    """Betting for 15 s, reported by the studio: a viewer of the frames holds the tile's end
    time and the frame's server time, and so counts down the 15 s on the service's clock."""
    with served(redis_server.url, KEY, ROADS_FRAME_MS="100") as base:
        send(base, "PUT", "/v1/tables/t1", {"name": "T1", "limits": LIMITS}, KEY)
        viewer = SSEClient(base + "/v1/events")
        until = datetime.now(UTC) + timedelta(seconds=15)
        stamp = until.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        send(base, "PUT", "/v1/tables/t1/status", {"status": "betting", "until": stamp}, KEY)
        deadline = time.monotonic() + 10
        while kept(viewer.events).get("t1", {}).get("status") != "betting":
            assert time.monotonic() < deadline, "the status never reached the viewer"
            time.sleep(0.05)
        tile = kept(viewer.events)["t1"]
        assert tile["status_until"] == stamp and tile["limits"] == LIMITS
        server_time = datetime.fromisoformat(viewer.events[-1]["data"]["server_time"])
        left = (datetime.fromisoformat(tile["status_until"]) - server_time).total_seconds()
        assert 10 < left <= 15  # what the browser counts down, whatever its own clock says
        # A viewer that starts later counts down from the time it was sent its first frame,
        # not the time the frame was built (no frame is built while nothing changes).
        time.sleep(3)
        late = SSEClient(base + "/v1/events")
        snapshot = json.loads(urllib.request.urlopen(base + "/v1/lobby/frame").read())
        deadline = time.monotonic() + 10
        while not late.events:
            assert time.monotonic() < deadline, "the late viewer got no first frame"
            time.sleep(0.05)
        for first in (late.events[0]["data"], snapshot):
            server_time = datetime.fromisoformat(first["server_time"])
            assert (until - server_time).total_seconds() < 13
        late.close()
        send(base, "PUT", "/v1/tables/t1/status", {"status": "dealing"}, KEY)
        keeps_the_lobby(viewer, base)
        assert kept(viewer.events)["t1"]["status"] == "dealing"
        viewer.close()


LIMITS = {"table": {"min": 10, "max": 5000}}
