"""A lobby viewer of the tests: the tiles it holds after applying frames, against what the
service's ``GET /v1/tables`` answers."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import time
import urllib.request

from api.codecs.frames import apply, step
from tests.sse_client import SSEClient, sse_events


def lobby_of(base: str) -> dict[str, dict]:
    with urllib.request.urlopen(f"{base}/v1/tables") as answer:
        return {tile["table"]: tile for tile in json.load(answer)["tables"]}


def kept(frames: list[dict]) -> dict[str, dict]:
    """The tiles a viewer holds after applying ``frames`` in order."""
    held: dict[str, dict] = {}
    for frame in frames:
        assert frame["event"] == "frame"
        apply(held, frame["data"])
    return held


def keeps_the_lobby(client: SSEClient, base: str, seconds: float = 10.0) -> dict[str, dict]:
    """The tiles ``client`` holds once they equal the lobby (which it must within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        held, want = kept(client.events), lobby_of(base)
        if held == want or time.monotonic() > deadline:
            assert held == want
            return held
        time.sleep(0.1)


def kept_from(snapshot: dict, frames: list[dict]) -> dict[str, dict]:
    """The tiles a viewer of nchan holds: its snapshot (``GET /v1/lobby/frame``), then each
    frame it read, applied, skipped or refused by :func:`api.codecs.frames.step`."""
    held: dict[str, dict] = {}
    apply(held, snapshot)
    cursor = snapshot["cursor"]
    for frame in frames:
        assert frame["event"] == "frame"
        what = step(cursor, frame["data"])
        assert what != "restart", f"a frame was missed before {frame['data']['cursor']}"
        if what == "apply":
            apply(held, frame["data"])
            cursor = frame["data"]["cursor"]
    return held


class SlowViewer:
    """A viewer of ``path`` on ``port`` with a tiny receive buffer that reads nothing until told
    to (:meth:`catch_up`)."""

    def __init__(self, port: int, path: str) -> None:
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.socket.connect(("127.0.0.1", port))
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.connection.sock = self.socket
        self.connection.request("GET", path)
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200

    def read_until(self, done, seconds: float = 30.0) -> bytes:
        """Read until ``done(text so far)`` (heartbeats come every few seconds: a read that
        times out is an end); the text read."""
        self.socket.settimeout(3)
        text, deadline = b"", time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            while time.monotonic() < deadline and not done(text):
                text += self.answer.read1(65536)
        self.connection.close()
        return text

    def catch_up(self, want: dict[str, dict]) -> dict[str, dict]:
        """Read until the frames read keep ``want``; the tiles they keep."""
        held: dict[str, dict] = {}
        applied = 0  # the length of the text whose frames are in ``held``

        def done(text: bytes) -> bool:
            # Only the frames read since the last whole event are applied: parsing the whole
            # text again at each read made catching up quadratic in what was missed.
            nonlocal applied
            if not text.endswith(b"\n\n"):
                return False
            for frame in sse_events(text[applied:].decode()):
                assert frame["event"] == "frame"
                apply(held, frame["data"])
            applied = len(text)
            return held == want

        text = self.read_until(done)
        return kept(sse_events(text.decode()))
