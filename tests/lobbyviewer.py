"""A lobby viewer of the tests: the tiles it holds after applying frames, against what the
service's ``GET /v1/tables`` answers."""

from __future__ import annotations

import json
import time
import urllib.request

from api.codecs.frames import apply, step
from tests.sse_client import SSEClient


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
