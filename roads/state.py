"""The compact binary form of a scorecard's state, so a service can keep it (in Redis) and
resume appending without replaying the shoe.

Layout, all integers little-endian (``u16`` lists are a count then the values):

- header: ``b"BR"``, format version, tail convention (0 stay, 1 drop), decks;
- rounds: see :mod:`roads.roundlog`;
- the 52 dealt-card counts; the shoe statistics counters (a ``u16`` list);
- the Big Road: its columns, leading ties, the cells that carry ties and their tie counts (two
  ``u16`` lists), its layout;
- each derived road: its columns and its layout.

Columns are stored as the first column's symbol and the column lengths (symbols alternate by
construction). A layout is its occupied rows per grid column (a byte each) and its cursor; the
cells themselves follow from the column lengths. What can be read off the rounds without running a
road (bead plate, which round each Big Road cell holds) is not stored.

Saving after every round does not encode the whole state again: the rounds' bytes are appended to
(:mod:`roads.roundlog`) and each road keeps its bytes as it grows (:mod:`roads.keptstate`), so a
write joins kept byte strings and encodes only what changed.
"""

from __future__ import annotations

from struct import Struct
from typing import Any

from roads.errors import RoadsError
from roads.grid import Tail

MAGIC = b"BR"
FORMAT_VERSION = 1
TAILS: tuple[Tail, ...] = ("stay", "drop")


class StateError(RoadsError):
    """Bytes that are not a scorecard state of a format this library reads."""


class Reader:
    """Reads a state's bytes in order. Reading past the end raises :class:`StateError`."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)
        self.pos = 0

    def raw(self, size: int) -> bytes:
        end = self.pos + size
        if end > len(self.data):
            raise StateError("scorecard state is truncated")
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def u16(self) -> int:
        return int.from_bytes(self.raw(2), "little")

    def unpack(self, layout: Struct) -> tuple[Any, ...]:
        """The next ``layout.size`` bytes, unpacked (a few fixed-size fields read at once)."""
        pos = self.pos
        end = pos + layout.size
        if end > len(self.data):
            raise StateError("scorecard state is truncated")
        self.pos = end
        return layout.unpack_from(self.data, pos)
