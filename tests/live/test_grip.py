"""The GRIP side of the feed on its own (api/live/grip.py, gripsig.py, publisher.py): the items
the publisher sends each event as (with the odds and without), the proxy's settings and keys
(rotated: either verifies), and the one leased publisher publishing the stream in order after
its cursor to a proxy (a local HTTP server here), on the tests' Redis without the app."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from api.codecs.feedevents import entry_event
from api.config import ConfigError, Settings
from api.live.framepublisher import FramePublisher
from api.live.grip import publish_items
from api.live.gripsig import verified
from api.live.publisher import Publisher
from api.storage.publishing import PublishingSession
from roads import Round
from tests.grip_tokens import GRIP_KEY, signed


@pytest.mark.parametrize("value", ["pushpin:5561", "http://", "ftp://x"])
def test_grip_urls_must_be_http_urls(value):
    with pytest.raises(ConfigError, match="ROADS_GRIP_URL"):
        Settings.from_env({"ROADS_GRIP_URL": value, "REDIS_URL": "redis://127.0.0.1:6399/0"})


@pytest.mark.parametrize(
    ("key", "names"),
    [
        (None, "ROADS_GRIP_KEY"),
        ("changeme", "Pushpin's default"),
        ("short-secret", "at least 32 bytes"),
    ],
)
def test_a_proxy_without_a_key_of_its_own_refuses_to_start(key, names):
    env = {"ROADS_GRIP_URL": "http://127.0.0.1:5561", "REDIS_URL": "redis://127.0.0.1:6399/0"}
    if key is not None:
        env["ROADS_GRIP_KEY"] = key
    with pytest.raises(ConfigError, match=names) as raised:
        Settings.from_env(env)
    assert key is None or key not in str(raised.value).replace("Pushpin's default", "")
    assert Settings.from_env({**env, "ROADS_GRIP_KEY": GRIP_KEY}).grip_key == GRIP_KEY
    assert GRIP_KEY not in repr(Settings.from_env({**env, "ROADS_GRIP_KEY": GRIP_KEY}))


def test_while_the_key_is_rotated_a_signature_of_either_key_verifies():
    new, old = "new-" + GRIP_KEY, GRIP_KEY
    env = {"REDIS_URL": "redis://127.0.0.1:6399/0", "ROADS_GRIP_URL": "http://127.0.0.1:5561"}
    keys = Settings.from_env({**env, "ROADS_GRIP_KEY": f"{new}, {old}"}).grip_key
    assert verified(signed(new), keys) and verified(signed(old), keys)
    assert not verified(signed("other-" + GRIP_KEY), keys)
    assert not verified(signed(old), new)  # the old key retired: its signatures count no more
    with pytest.raises(ConfigError, match="ROADS_GRIP_KEY"):
        Settings.from_env({**env, "ROADS_GRIP_KEY": f"{new},changeme"})


def test_the_publisher_sends_each_event_with_the_odds_and_without(redis_client):
    redis_client.xadd(
        "s",
        {
            "type": "edge",
            "data": '{"table":"a","bet":"player_pair","state":"start","rtp":1.02}',
            "table": "a",
        },
    )
    (entry_id, fields), *_ = redis_client.xrange("s")
    event = entry_event(entry_id, fields)
    items = publish_items("", event, None, public_odds=False)
    by_channel = {item["channel"]: item["formats"]["http-stream"]["content"] for item in items}
    assert set(by_channel) == {"lobby", "t:a", "odds:lobby", "odds:t:a"}
    assert "player_pair" in by_channel["odds:lobby"] and "player_pair" in by_channel["odds:t:a"]
    assert "player_pair" not in by_channel["lobby"] + by_channel["t:a"]
    assert {item["channel"] for item in publish_items("", event, None)} == {"lobby", "t:a"}


class Proxy:
    """A stand-in for the proxies' publish endpoints: a local HTTP server that keeps each body
    POSTed to it (and answers 200)."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, dict]] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                proxy.bodies.append((self.path, json.loads(self.rfile.read(length))))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def items(self) -> list[dict]:
        return [item for _, body in self.bodies for item in body.get("items", [])]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy():
    made = Proxy()
    yield made
    made.close()


def until_true(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def until(condition, seconds: float = 5.0) -> None:
    assert until_true(condition, seconds)


def test_the_lease_holder_publishes_the_stream_in_order_after_its_cursor(
    parts, redis_client, proxy
):

    def candidate() -> Publisher:
        connect = lambda: PublishingSession(parts.clients.blocking(), parts.keys.lobby)  # noqa: E731
        # A lease of 5 s: a holder the machine stalls past its lease hands over, as it should,
        # and then "one holder" is not this test's to check (a 1 s lease was, once, here).
        return Publisher(connect, [proxy.url], lease_ms=5000, retry_seconds=0.1)

    publisher, other = candidate(), candidate()
    publisher.start()
    until(lambda: redis_client.get(parts.keys.lobby.published) is not None)  # its cursor, set
    other.start()
    try:
        for number, result in enumerate("BPB", start=1):
            parts.writer.append("a", "s1", number, Round(result))
        stream = [entry[0].decode() for entry in redis_client.xrange(parts.keys.lobby.events)]
        until(lambda: redis_client.get(parts.keys.lobby.published) == stream[-1].encode())
        lobby = [item for item in proxy.items() if item["channel"] == "lobby"]
        assert [item["id"] for item in lobby] == stream  # each once, in order
        assert [item["prev-id"] for item in lobby] == ["0-0", *stream[:-1]]
        assert {path for path, _ in proxy.bodies} == {"/publish/"}
        assert publisher.published == len(stream) and other.published == 0  # one holder
    finally:
        publisher.stop()
        other.stop()


def test_the_frame_publisher_wakes_the_builder_and_publishes_each_frame_to_both_tiers(live, proxy):
    """No viewer here: the frame publisher reading the process's frame feed is what wants
    frames; each frame goes once to the GRIP proxy (its SSE text) and once to nchan (its JSON)."""
    publisher = FramePublisher(
        live.frames, live.frame_stream, [proxy.url], nchan=[proxy.url + "/pub"], lease_ms=1000
    )
    live.framer.start()  # as a worker's jobs start both: the builder stands by
    publisher.start()
    try:
        # A publisher that takes the lease starts at the newest frame (the frames before it went
        # out from the last holder): rounds until one of their frames comes after that.
        for number in range(1, 20):
            live.parts.writer.append("a", "s1", number, Round("B"))
            if until_true(lambda: any(path == "/pub" for path, _ in proxy.bodies), 0.5):
                break
        frames = [item for item in proxy.items() if item["channel"] == "frames"]
        assert frames and "event: frame" in frames[0]["formats"]["http-stream"]["content"]
        # Counted once both tiers answered: the proxy holds the body before it answers.
        until(lambda: publisher.published >= 1)
        nchan = next(body for path, body in proxy.bodies if path == "/pub")
        assert "a" in nchan["tables"]
    finally:
        publisher.stop()
