"""The lobby in frames on the built-in feed under gunicorn: a viewer that stops reading costs
the others nothing, and once it reads again it is caught up (the frames after its last, or the
whole lobby) and holds the lobby."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from tests.conftest import KEY
from tests.gunicorn_server import send
from tests.gunicorn_server import service as served
from tests.lobbyviewer import SlowViewer, keeps_the_lobby, lobby_of
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
