"""The lobby's frames through nginx with nchan (Debian's packages, the project's config in
deploy/nchan): the service publishes each frame once; a viewer that subscribes, reads its
snapshot (``GET /v1/lobby/frame``, through nginx) and applies the frames by their ``after``
holds the lobby."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
import redis

from tests.conftest import KEY
from tests.gunicorn_server import gunicorn, send
from tests.lobbyviewer import kept_from, lobby_of
from tests.nchan_server import Nchan
from tests.redis_server import free_port
from tests.sse_client import SSEClient


@pytest.fixture(scope="module")
def deployment(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()  # no other module's leases or frames
    port = free_port()
    nchan = Nchan(f"127.0.0.1:{port}")
    env = {
        "REDIS_URL": redis_server.url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_WORKERS": "2",
        "ROADS_NCHAN_URL": nchan.publish_url,
        "ROADS_FRAME_MS": "100",
    }
    with nchan, gunicorn("wsgi:app", env, port=port) as base:
        yield nchan, base


def deal(base: str, table: str, rounds: range, shoe: str = "s1") -> None:
    for number in rounds:
        body = {"round": number, "result": "BPT"[number % 3]}
        send(base, "POST", f"/v1/tables/{table}/shoes/{shoe}/rounds", body, KEY)


def test_a_viewer_of_nchan_keeps_the_lobby_from_its_snapshot_and_the_frames(deployment):
    nchan, base = deployment
    deal(base, "n1", range(1, 4))
    viewer = SSEClient(nchan.url + "/v1/events/nchan")
    time.sleep(0.3)  # subscribed before the snapshot: no frame falls between the two
    deadline = time.monotonic() + 10
    while True:  # the first frame holding n1
        with urllib.request.urlopen(nchan.url + "/v1/lobby/frame") as answer:
            snapshot = json.load(answer)
        if "n1" in snapshot["tables"] or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert snapshot["full"] is True and "n1" in snapshot["tables"]
    deal(base, "n1", range(4, 9))
    deal(base, "n2", range(1, 6))
    deal(base, "n1", range(1, 3), shoe="s2")  # a new shoe
    send(base, "DELETE", "/v1/tables/n2", {}, KEY)  # retired
    deadline = time.monotonic() + 10
    while kept_from(snapshot, viewer.events) != lobby_of(base) and time.monotonic() < deadline:
        time.sleep(0.1)
    viewer.close()
    assert kept_from(snapshot, viewer.events) == lobby_of(base)
    assert all(e["event"] == "frame" and not e["data"].get("full") for e in viewer.events)
