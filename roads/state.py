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
"""

from __future__ import annotations

import sys
from array import array

from roads.columns import Columns
from roads.errors import RoadsError
from roads.grid import GridLayout, Tail

MAGIC = b"BR"
FORMAT_VERSION = 1
TAILS: tuple[Tail, ...] = ("stay", "drop")
_SYMBOLS = ("B", "P", "red", "blue")
_SWAP = sys.byteorder != "little"


class StateError(RoadsError):
    """Bytes that are not a scorecard state of a format this library reads."""


class Writer:
    """Appends little-endian integers to a buffer."""

    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = bytearray()

    def u8(self, value: int) -> None:
        self.buf.append(value)

    def u16(self, value: int) -> None:
        self.buf += value.to_bytes(2, "little")

    def u16s(self, values: list[int]) -> None:
        self.u16(len(values))
        packed = array("H", values)
        if _SWAP:
            packed.byteswap()
        self.buf += packed.tobytes()

    def raw(self, data: bytes) -> None:
        self.buf += data


class Reader:
    """Reads what :class:`Writer` wrote. Reading past the end raises :class:`StateError`."""

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

    def u8(self) -> int:
        pos = self.pos
        if pos >= len(self.data):
            raise StateError("scorecard state is truncated")
        self.pos = pos + 1
        return self.data[pos]

    def u16(self) -> int:
        return int.from_bytes(self.raw(2), "little")

    def u16s(self) -> list[int]:
        count = self.u16()
        packed = array("H")
        packed.frombytes(self.raw(2 * count))
        if _SWAP:
            packed.byteswap()
        return packed.tolist()


def write_columns(writer: Writer, columns: Columns) -> None:
    writer.u8(_SYMBOLS.index(columns.sides[0]) if columns.sides else 0)
    writer.u16s(columns.lengths)


def read_columns(reader: Reader) -> Columns:
    first = reader.u8()
    lengths = reader.u16s()
    if first >= len(_SYMBOLS):
        raise StateError("scorecard state holds an unknown road symbol")
    return Columns.of_runs(_SYMBOLS[first], lengths)


def write_layout(writer: Writer, layout: GridLayout) -> None:
    occupancy = layout.occupancy()
    writer.u16(len(occupancy))
    writer.raw(occupancy)
    start, col, row, turned = layout.cursor()
    writer.u16(start + 1)
    writer.u16(col)
    writer.u8(row | turned << 3)


def read_layout(reader: Reader, tail: Tail) -> GridLayout:
    occupancy = reader.raw(reader.u16())
    start = reader.u16() - 1
    col = reader.u16()
    packed = reader.u8()
    return GridLayout.restore(tail, occupancy, (start, col, packed & 7, bool(packed & 8)))
