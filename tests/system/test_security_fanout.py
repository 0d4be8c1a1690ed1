"""Security suite, the fan-out (issue 42, items 1 and 8): ``Grip-*`` headers count only on a
request whose ``Grip-Sig`` the proxy signed, so an anonymous viewer who sends them is held to
the feed's cap like any other; no GRIP link carries a key; nchan's publisher and the service's
``/metrics`` are not reachable from the viewers' side of nginx or Pushpin. Against a real
gunicorn (one worker, ``ROADS_FEED_CLIENTS=20``), Redis, Pushpin and nginx with nchan."""

from __future__ import annotations

import contextlib
import http.client
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import KEY
from tests.grip_tokens import forgeries, signed
from tests.gunicorn_server import gunicorn, send
from tests.nchan_server import Nchan
from tests.pushpin_server import Pushpin
from tests.redis_server import free_port

CAP = 20
READ_KEY = "security-fanout-read-key-0123456789"
LOBBY_LAST = "lobby; last-id=0"  # what the attack sent: the per-round lobby channel's last id


@pytest.fixture(scope="module")
def deployment(redis_server) -> Iterator[dict]:
    """One worker bounded to 20 feed clients, behind a real Pushpin (the GRIP path live), with
    the odds behind a read key; heartbeats each second, so a closed viewer's seat is freed."""
    redis.Redis.from_url(redis_server.url).flushdb()
    port = free_port()
    pushpin = Pushpin(f"127.0.0.1:{port}")
    env = {
        **pushpin.service_env,
        "REDIS_URL": redis_server.url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_WORKERS": "1",
        "ROADS_FEED_CLIENTS": str(CAP),
        "ROADS_SSE_HEARTBEAT": "1",
        "ROADS_FRAME_MS": "100",
        "ROADS_READ_KEYS": READ_KEY,
        "ROADS_PUBLIC_ODDS": "0",
    }
    with gunicorn("wsgi:app", env, port=port) as base:
        pushpin.start()
        try:
            send(base, "POST", "/v1/tables/sf1/shoes/s1/rounds", {"round": 1, "result": "B"}, KEY)
            yield {"base": base, "port": port, "pushpin": pushpin}
        finally:
            pushpin.cleanup()


class Stream:
    """One raw connection to the service: the request sent, the answer's head read."""

    def __init__(self, port: int, path: str, headers: dict[str, str]) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        self._head = b""

    def head(self) -> tuple[int, dict[str, str]]:
        """The answer's status and headers (names lower-cased)."""
        while b"\r\n\r\n" not in self._head:
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self._head += chunk
        text = self._head.split(b"\r\n\r\n")[0].decode("latin-1")
        status, *fields = text.split("\r\n")
        headers = dict(line.split(": ", 1) for line in fields if ": " in line)
        return int(status.split()[1]), {k.lower(): v for k, v in headers.items()}

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


def is_stream(status: int, headers: dict[str, str]) -> bool:
    """A live stream held by the service (not a paced answer, a hold, or a refusal)."""
    return (
        status == 200
        and headers.get("cache-control") == "no-cache"
        and "grip-hold" not in {name.lower() for name in headers}
    )


@contextlib.contextmanager
def cap_filled(port: int) -> Iterator[list[Stream]]:
    """The worker's 20 feed seats taken by ordinary viewers (waiting for the seats of earlier
    viewers, closed, to be freed); closed at the end."""
    streams: list[Stream] = []
    deadline = time.monotonic() + 20
    try:
        while len(streams) < CAP:
            stream = Stream(port, "/v1/events", {})
            if is_stream(*stream.head()):
                streams.append(stream)
                continue
            stream.close()
            assert time.monotonic() < deadline, f"only {len(streams)} seats came free"
            time.sleep(0.2)
        yield streams
    finally:
        for stream in streams:
            stream.close()


def head_once_seated(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict]:
    """The answer's head once the seats an earlier test's viewers held are free (a proxied
    client's first request is under the cap too: 503 until then)."""
    deadline = time.monotonic() + 20
    while True:
        stream = Stream(port, path, headers)
        status, answer = stream.head()
        stream.close()
        if status != 503 or time.monotonic() > deadline:
            return status, answer
        time.sleep(0.2)


def attack_headers(number: int) -> dict[str, str]:
    """The attack's headers: ``Grip-Last`` alone, or with a ``Grip-Sig`` that is not the
    proxy's (junk, another key, expired, ``alg: none``, another issuer, Pushpin's default)."""
    headers = {"Grip-Last": LOBBY_LAST}
    kinds = sorted(forgeries())
    if number % (len(kinds) + 1):
        headers["Grip-Sig"] = forgeries()[kinds[number % (len(kinds) + 1) - 1]]
    return headers


def test_80_anonymous_lobby_connections_with_grip_headers_open_at_most_the_cap(deployment):
    """The issue's first row: 80 connections that send ``Grip-Last: lobby; last-id=0`` (some
    with a forged Grip-Sig), all at once: 20 streams open, the other 60 are refused (503)."""
    streams = [Stream(deployment["port"], "/v1/events", attack_headers(n)) for n in range(80)]
    try:
        answers = [stream.head() for stream in streams]
    finally:
        for stream in streams:
            stream.close()
    opened = [n for n, (status, headers) in enumerate(answers) if is_stream(status, headers)]
    refused = [n for n, (status, _) in enumerate(answers) if status == 503]
    assert len(opened) == CAP and len(refused) == 80 - CAP
    assert not any("grip-hold" in headers for _, headers in answers)


GRIP_NAME = st.sampled_from(
    ["Grip-Sig", "Grip-Last", "Grip-Hold", "Grip-Channel", "Grip-Link", "Grip-Feature"]
) | st.from_regex(r"\AGrip-[A-Za-z0-9-]{1,20}\Z")
VALUE = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=120)
GRIP_SIG = st.sampled_from(sorted(forgeries().values())) | VALUE
QUERY = st.sampled_from(["", "?tables=sf1", "?frames=0", "?snapshot=0", "?tables=sf1,x"])


@st.composite
def grip_headers(draw) -> dict[str, str]:
    headers = draw(st.dictionaries(GRIP_NAME, VALUE, max_size=5))
    if draw(st.booleans()):
        headers["Grip-Sig"] = draw(GRIP_SIG)
    if draw(st.booleans()):
        channel = draw(st.sampled_from(["lobby", "frames", "odds:frames", "t:sf1", "odds:lobby"]))
        headers["Grip-Last"] = f"{channel}; last-id={draw(st.sampled_from(['0', '0-0', '1-0']))}"
    return headers


def test_no_grip_headers_without_the_proxys_signature_pass_the_cap(deployment):
    """Hypothesis: with the worker's 20 seats taken, any ``Grip-*`` headers without a valid
    signature (junk, another key, expired, ``alg: none``) on any feed are refused, never a
    stream and never a hold; the seats are the same 20 after."""
    port = deployment["port"]
    with cap_filled(port) as streams:

        @settings(
            max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None
        )
        @given(headers=grip_headers(), query=QUERY)
        def refused(headers: dict[str, str], query: str) -> None:
            stream = Stream(port, "/v1/events" + query, headers)
            try:
                status, answer = stream.head()
            finally:
                stream.close()
            assert status == 503, (status, answer)
            assert "grip-hold" not in answer

        refused()
        assert all(is_stream(*Stream.head(stream)) for stream in streams)


def test_the_proxys_signed_requests_are_still_held(deployment):
    """A request signed with the right key is the proxy's: held (not a stream, no seat taken),
    even with the seats full: the proxy's own request for what its clients missed."""
    port, key = deployment["port"], deployment["pushpin"].grip_key
    with cap_filled(port):
        for query, grip_last in [("", "frames; last-id=0-0"), ("?tables=sf1", "t:sf1; last-id=0")]:
            stream = Stream(
                port, "/v1/events" + query, {"Grip-Sig": signed(key), "Grip-Last": grip_last}
            )
            status, headers = stream.head()
            stream.close()
            assert status == 200 and headers["grip-hold"] == "stream"


@pytest.mark.parametrize("query", ["", "?tables=sf1", "?frames=0"])
@pytest.mark.parametrize("how", ["header", "query"])
def test_no_grip_link_carries_the_key(deployment, query, how):
    """A client who reads the odds is held on the odds channels, and the link the proxy asks
    (and logs) names no key."""
    port, key = deployment["port"], deployment["pushpin"].grip_key
    headers = {"Grip-Sig": signed(key)}
    path = "/v1/events" + query
    if how == "header":
        headers["X-API-Key"] = READ_KEY
    else:
        path += ("&" if "?" in path else "?") + f"key={READ_KEY}"
    status, answer = head_once_seated(port, path, headers)
    assert status == 200 and answer["grip-hold"] == "stream"
    assert answer["grip-channel"].startswith("odds:")
    assert "key=" not in answer["grip-link"] and READ_KEY not in answer["grip-link"]


def status_of(url: str, data: bytes | None = None) -> int:
    """The status of a GET (a POST with ``data``), the path sent as written."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("POST" if data is not None else "GET", path, body=data)
        return connection.getresponse().status
    finally:
        connection.close()


# The service itself answers the metrics at each of these (it merges slashes and decodes).
METRICS_PATHS = ["/metrics", "/metrics?x=1", "//metrics", "///metrics", "/%2Fmetrics", "/%6detrics"]


@pytest.mark.parametrize("path", METRICS_PATHS)
def test_pushpins_public_port_does_not_serve_the_metrics(deployment, path):
    pushpin = deployment["pushpin"]
    assert status_of(deployment["base"] + "/metrics") == 200  # the service's own address
    assert status_of(pushpin.url + path) in (403, 404)


def test_no_pushpin_log_holds_a_key_sent_in_the_query(deployment):
    """A viewer's ``?key=`` passes through Pushpin (a browser's event stream takes it there):
    after keyed requests through a Pushpin started with the shipped config, no file of its log
    folder (its processes' logs, the runner's own output) holds the key."""
    pushpin = Pushpin(f"127.0.0.1:{deployment['port']}")
    pushpin.grip_key = deployment["pushpin"].grip_key  # the one the service verifies
    pushpin.start()
    try:
        for path, wanted in [
            (f"/v1/events?key={READ_KEY}", 200),
            (f"/v1/events?tables=sf1&key={READ_KEY}", 200),
            (f"/v1/tables/sf1/odds?key={READ_KEY}", 401),  # ?key= only on the streams
            (f"/nowhere?key={READ_KEY}", 404),
        ]:
            assert head_once_seated(pushpin.port, path, {})[0] == wanted, path
        headers = {"X-API-Key": READ_KEY}
        assert head_once_seated(pushpin.port, "/v1/tables/sf1/odds", headers)[0] == 200
        pushpin.stop()  # its processes gone: whatever they logged is written
        logs = {path.name: path.read_text(errors="replace") for path in pushpin.log_dir.iterdir()}
    finally:
        pushpin.cleanup()
    assert {"runner.log", "pushpin-proxy.log", "zurl.log"} <= set(logs)
    assert [name for name, text in logs.items() if READ_KEY in text] == []


@pytest.fixture(scope="module")
def nchan(deployment) -> Iterator[Nchan]:
    # No skip: scripts/test installs nginx with nchan, and Nchan fails naming what is missing.
    with Nchan(deployment["base"].removeprefix("http://")) as running:
        yield running


@pytest.mark.parametrize("path", ["/pub", "/pub?id=lobby"])
def test_nchans_publisher_is_not_on_the_viewers_listener(nchan, path):
    assert status_of(nchan.url + path, data=b'{"forged": true}') in (403, 404)
    assert status_of(nchan.url + path) in (403, 404)


def test_nchans_publisher_takes_frames_on_the_internal_listener(nchan):
    assert status_of(nchan.publish_url, data=b'{"after": null}') in (201, 202)


@pytest.mark.parametrize("path", METRICS_PATHS)
def test_nginxs_public_listener_does_not_serve_the_metrics(nchan, path):
    assert status_of(nchan.url + path) in (403, 404)
    assert status_of(nchan.internal_url + "/metrics") == 200  # the scraper's


def test_nchans_viewer_stream_carries_the_headers_every_answer_does(nchan):
    """nginx answers the nchan stream itself: it adds what the service adds to its answers."""
    parts = urlsplit(nchan.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", "/v1/events/nchan", headers={"Accept": "text/event-stream"})
        answer = connection.getresponse()
        assert answer.status == 200
        assert answer.getheader("X-Content-Type-Options") == "nosniff"
        assert answer.getheader("Referrer-Policy") == "no-referrer"
        assert "frame-ancestors 'none'" in answer.getheader("Content-Security-Policy")
    finally:
        connection.close()
