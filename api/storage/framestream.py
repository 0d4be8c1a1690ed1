"""The lobby's frames in Redis (``{lobby}:frames``, a Stream capped at :data:`FRAMES_KEPT`):
each entry a frame (:mod:`api.codecs.frames`) rendered once in full and once without the odds,
written by the one frame builder of the deployment (its lease, ``{lobby}:framer``) and read by
every process's feed; and the keyframe (``{lobby}:keyframe``): every tile at one frame, from
which a process's feed starts before it follows the frames after it."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import redis

from api.storage import leases
from api.storage.keys import LobbyKeys
from api.storage.transport import Transport

FRAMES_KEPT = 2_000  # at a frame every 500 ms, about 16 minutes to resume from
# The frames are a cache of the lobby: with no builder (no viewer anywhere) they expire, and the
# next builder starts with a full frame anyway.
FRAMES_TTL_MS = 3_600_000


class StoredFrame(NamedTuple):
    id: str
    full: bytes  # the frame's JSON with the odds (the edge flags)
    public: bytes  # without them


class FrameStream:
    def __init__(
        self,
        transport: Transport,
        keys: LobbyKeys,
        connect: Callable[[], redis.Redis] | None = None,
    ) -> None:
        self.transport = transport
        self.keys = keys
        self._connect = connect  # a client whose timeout outlasts a blocking read

    def set_keyframe(self, frame_id: str, full: bytes, public: bytes) -> None:
        """Keep every tile at frame ``frame_id`` (a full frame, in full and without the odds)."""
        self.transport.multi(
            [
                ("HSET", self.keys.keyframe, "id", frame_id, "full", full, "public", public),
                ("PEXPIRE", self.keys.keyframe, FRAMES_TTL_MS),
            ]
        )

    def keyframe(self) -> StoredFrame | None:
        found = self.transport.command("HMGET", self.keys.keyframe, "id", "full", "public")
        if found[0] is None:
            return None
        return StoredFrame(found[0].decode(), found[1], found[2])

    def reader(self) -> FrameReader:
        assert self._connect is not None
        return FrameReader(self._connect(), self.keys.frames)

    def lease(self, holder: str, ttl_ms: int, *, publishing: bool = False) -> int:
        """Take or renew the frame builder's lease (``publishing``: the lease of the publisher
        of frames to the GRIP proxies): 0 held by another, 1 renewed, 2 taken."""
        key = self.keys.frame_publisher if publishing else self.keys.framer
        return leases.take(self.transport, key, holder, ttl_ms)

    def add(self, full: bytes, public: bytes) -> str:
        """Append a frame; its id."""
        add = ("XADD", self.keys.frames, "MAXLEN", "~", FRAMES_KEPT, "*", "full", full)
        added, _ = self.transport.multi(
            [(*add, "public", public), ("PEXPIRE", self.keys.frames, FRAMES_TTL_MS)]
        )
        return added.decode() if isinstance(added, bytes) else added

    def after(self, last: str, count: int = 1000) -> list[StoredFrame]:
        """The frames after id ``last`` (``0-0``: all kept), oldest first."""
        found = self.transport.command("XRANGE", self.keys.frames, f"({last}", "+", "COUNT", count)
        return [_frame(entry, fields) for entry, fields in found]

    def newest(self) -> str | None:
        found = self.transport.command("XREVRANGE", self.keys.frames, "+", "-", "COUNT", 1)
        return _frame(*found[0]).id if found else None


class FrameReader:
    """A blocking reader of the frames, on a connection of its own (a process's feed)."""

    def __init__(self, client: redis.Redis, stream: str) -> None:
        self._client = client
        self._stream = stream

    def after(self, last: str, *, block_ms: int, count: int = 100) -> list[StoredFrame]:
        answer = self._client.xread({self._stream: last}, block=block_ms, count=count)
        return [_frame(entry, fields) for _, entries in answer for entry, fields in entries]

    def close(self) -> None:
        self._client.close()


def _frame(entry: bytes | str, fields: dict | list) -> StoredFrame:
    if not isinstance(fields, dict):
        fields = dict(zip(fields[::2], fields[1::2], strict=True))
    fields = {key.decode() if isinstance(key, bytes) else key: v for key, v in fields.items()}
    return StoredFrame(
        entry.decode() if isinstance(entry, bytes) else entry, fields["full"], fields["public"]
    )
