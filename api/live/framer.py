"""The frame builder: every ``ROADS_FRAME_MS`` (500) the changes of every lobby tile since the
last frame, as one frame (:mod:`api.codecs.frames`), rendered once in full and once without the
odds, added to the frames stream (:mod:`api.storage.framestream`) that every feed reads.

One process of the deployment builds at a time, the holder of the lease (``{lobby}:framer``),
so every instance and every proxy sends the same frames with the same ids. A process's builder
is started with its jobs (:mod:`api.jobs`) and stands by until the process wants frames
(:meth:`FrameBuilder.want`: its frame feed is read, by a viewer or the frame publisher), so a
deployment whose lobby nobody watches builds none. A frame is built from the lobby as
``GET /v1/tables`` reads it (one read of every tile, each decoded again only when its stored
value changed), compared with the tiles of the builder's last frame; nothing is read when the
lobby's cursor has not moved. A builder that takes the lease starts with a full frame
(every table's whole tile), since it cannot know what the last holder's last frame held.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from api.codecs.frames import tile_delta
from api.codecs.jsontext import Fragment, dumps, loads
from api.codecs.times import now_text
from api.storage.framestream import FrameStream
from api.storage.leases import TAKEN, Candidate
from api.storage.lobbystore import Lobby

log = logging.getLogger("roads.framer")

LEASE_MS = 5_000
KEYFRAME_SECONDS = 10.0  # how often the keyframe (every tile) is kept, for feeds that start
STANDBY_SECONDS = 1.0  # how often a builder standing by looks whether it was stopped


class FrameBuilder(Candidate):
    """This process's candidate frame builder (:meth:`start`, after any fork); :meth:`step`
    builds one frame, for a caller that drives it (the tests)."""

    def __init__(
        self, lobby: Lobby, frames: FrameStream, *, frame_ms: int = 500, lease_ms: int = LEASE_MS
    ) -> None:
        self.lobby = lobby
        self.frames = frames
        self.frame_ms = frame_ms
        self.lease_ms = lease_ms
        self._cursor: tuple[str, int] | None = None
        # The cursors of the last frame sent, and of the last that carried anything for the
        # clients without the odds: each delta frame names the one it applies after.
        self._sent: dict[str, int] = {}
        self._tiles: dict[str, tuple[bytes, bytes]] | None = None  # table -> (full, public)
        self._keyframed = 0.0
        self._added_at = 0.0  # when the last frame was added (time.monotonic())
        self._building = 0.0  # how long the last frame took to build
        self._wanted = threading.Event()  # this process serves frames: build them
        super().__init__("frame-builder")

    def want(self) -> None:
        """This process serves frames: from now on its builder contends for the lease."""
        if not self._wanted.is_set():
            self._wanted.set()

    def forget(self) -> None:
        self._tiles = None

    def _run(self) -> None:
        while not self._wanted.wait(STANDBY_SECONDS):
            if self.stopping():
                return
        period = self.frame_ms / 1000
        failing = False
        while not self._stop.is_set():
            # Start building ahead by the last frame's build time, so that the frame is added
            # on time (a whole period after the last), holding the lobby as late as it can.
            start = max(self._added_at + period - self._building, time.monotonic())
            self._stop.wait(start - time.monotonic())
            try:
                built = self.step(not_before=self._added_at + period) is not None
                failing = False
            except Exception:  # Redis away: a full frame once it is back
                if not failing:
                    log.warning("no frame built; trying again", exc_info=True)
                failing = True
                self._tiles = None
                built = False
            if not built:  # nothing changed: look again soon, not a whole period later
                self._stop.wait(period / 5)

    def step(self, not_before: float = 0.0) -> str | None:
        """Build and add the next frame, if this process holds the lease and the lobby changed,
        adding it no sooner than ``not_before`` (``time.monotonic()``); its id."""
        began = time.monotonic()
        held = self.frames.lease(self.holder, self.lease_ms)
        if not held:
            self._tiles = None
            return None
        if held == TAKEN:
            self._tiles = None
        cursor, tiles, _ = self.lobby.tables()
        if self._tiles is not None and cursor == self._cursor:
            return None
        now = {tile.table: (tile.json, tile.public) for tile in tiles}
        starting = self._tiles is None
        full, public = self._frame(cursor, now)
        self._cursor, self._tiles = cursor, now
        if full is None:
            return None
        full_bytes, public_bytes = dumps(full), dumps(public)
        self._building = time.monotonic() - began
        self._stop.wait(not_before - time.monotonic())
        frame_id = self.frames.add(full_bytes, public_bytes)
        self._added_at = time.monotonic()
        self._sent["full"] = cursor[1]
        if public["tables"] or public.get("full"):
            self._sent["public"] = cursor[1]
        if starting or time.monotonic() - self._keyframed > KEYFRAME_SECONDS:
            whole = self._whole(cursor, now)
            self.frames.set_keyframe(frame_id, dumps(whole[0]), dumps(whole[1]))
            self._keyframed = time.monotonic()
        return frame_id

    @staticmethod
    def _whole(cursor: tuple[str, int], now: dict[str, tuple[bytes, bytes]]) -> tuple[dict, dict]:
        """Every tile, as a full frame (each tile's stored encoding embedded whole)."""
        return (
            _frame(cursor, {t: Fragment(j) for t, (j, _) in now.items()}, full=True),
            _frame(cursor, {t: Fragment(p) for t, (_, p) in now.items()}, full=True),
        )

    def _frame(
        self, cursor: tuple[str, int], now: dict[str, tuple[bytes, bytes]]
    ) -> tuple[dict | None, dict]:
        """The frame, with the odds and without; ``None`` (with) when no tile changed."""
        if self._tiles is None:
            return self._whole(cursor, now)
        full: dict[str, Any] = {}
        public: dict[str, Any] = {}
        for table in sorted(now.keys() | self._tiles.keys()):
            old, new = self._tiles.get(table), now.get(table)
            if old == new:
                continue
            delta = tile_delta(_parsed(old, 0), _parsed(new, 0))
            if delta is not None:
                full[table] = delta
            if old is None or new is None or old[1] != new[1]:
                delta = tile_delta(_parsed(old, 1), _parsed(new, 1))
                if delta is not None:
                    public[table] = delta
        if not full and not public:
            return None, {}
        return (
            _frame(cursor, full, after=self._sent["full"]),
            _frame(cursor, public, after=self._sent["public"]),
        )


def _parsed(tile: tuple[bytes, bytes] | None, which: int) -> dict[str, Any] | None:
    return loads(tile[which]) if tile is not None else None


def _frame(
    cursor: tuple[str, int], tables: dict[str, Any], *, full: bool = False, after: int = 0
) -> dict:
    frame: dict[str, Any] = {"cursor": cursor[1]}
    if full:
        frame["full"] = True
    else:
        frame["after"] = after
    # The service's clock as the frame is built: a browser counts down to a tile's
    # ``status_until`` against it, whatever its own clock says.
    frame["server_time"] = now_text()
    frame["tables"] = tables
    return frame
