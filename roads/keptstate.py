"""A road's part of the state bytes (:mod:`roads.state`), kept as the road grows, so that saving
after every round copies bytes instead of encoding every column, tie and grid column again.

What makes keeping them possible is that a road only ever changes at its end:

- its columns: only the last column grows; every earlier one is final, its length encoded once;
- the Big Road's ties: only the last cell takes ties; every earlier cell's count is final;
- its grid layout: every cell placed from now on lies at or right of the grid column where the
  current column started, and of the current column's last cell (see :mod:`roads.grid`), so
  the grid columns left of both are final.

What was added since the last write is encoded when the state is written, once, and joined to
what is kept; the part that can still change (the last column's length, the last cell's ties,
the grid columns from the current column's start, the cursor) is encoded each time: a few
bytes. A road that is rebuilt is a new road with nothing kept; a road read from a state keeps
the final parts of the bytes it was read from. The bytes equal :mod:`roads.state`'s encoding
from scratch; the tests hold the two equal over generated shoes.
"""

from __future__ import annotations

import sys
from array import array
from struct import Struct

from roads.columns import Columns
from roads.grid import GridLayout, Tail
from roads.state import Reader, StateError

_SWAP = sys.byteorder != "little"
_SYMBOLS = ("B", "P", "red", "blue")
_SYMBOL_CODE = {symbol: code for code, symbol in enumerate(_SYMBOLS)}
_U16 = Struct("<H")
_HEAD = Struct("<BH")  # a road's first symbol and its number of columns
_TIES_HEAD = Struct("<HH")  # the leading ties, the number of tied cells
_CURSOR = Struct("<HHB")  # a layout's start + 1, col, row | turned << 3
_NO_COLUMNS = _HEAD.pack(0, 0)


def pack_u16s(values: list[int]) -> bytes:
    """``values`` as little-endian ``u16`` (no count)."""
    packed = array("H", values)
    if _SWAP:
        packed.byteswap()
    return packed.tobytes()


def unpack_u16s(packed: bytes) -> list[int]:
    """The values of :func:`pack_u16s`."""
    values = array("H", packed)
    if _SWAP:
        values.byteswap()
    return values.tolist()


class KeptRoad:
    """What is kept of one road's state bytes: the packed lengths of its first ``columns``
    columns, the occupancy of its first ``len(occupancy)`` grid columns and, for the Big Road,
    the ``tied`` tied cells among its first ``upto`` cells (``cells``) and their tie counts
    (``counts``): all final. And the bytes last written (``written``), with the layout's
    cursor and the ties' bytes then (``at``): every cell placed moves the cursor, so while both
    are the same the road is too, and so are its bytes."""

    __slots__ = ("at", "cells", "columns", "counts", "lengths", "occupancy", "tied", "upto")
    __slots__ += ("written",)

    def __init__(self, lengths: bytes = b"", occupancy: bytes = b"") -> None:
        self.lengths = lengths
        self.columns = len(lengths) // 2
        self.occupancy = occupancy
        self.cells = self.counts = b""
        self.tied = self.upto = 0
        self.at: tuple[tuple[int, int, int, bool], bytes] | None = None
        self.written = b""

    def road(self, columns: Columns, layout: GridLayout, ties: bytes = b"") -> bytes:
        """The road's bytes: its columns, ``ties`` (the Big Road's, see :meth:`ties`), its
        layout."""
        at = (layout.cursor(), ties)
        if at == self.at:
            return self.written
        lengths = columns.lengths
        last = len(lengths) - 1
        if last > self.columns:
            self.lengths += pack_u16s(lengths[self.columns : last])
            self.columns = last
        if last < 0:
            head, last_length = _NO_COLUMNS, b""
        else:
            head = _HEAD.pack(_SYMBOL_CODE[columns.sides[0]], last + 1)
            last_length = _U16.pack(lengths[last])
        start, col, row, turned = at[0]
        done = self.occupancy
        rest = layout.occupancy(len(done))
        settled = min(start, col) - len(done)
        if settled > 0:
            done = self.occupancy = done + rest[:settled]
            rest = rest[settled:]
        occupancy = done + rest if rest else done.rstrip(b"\0")
        size, cursor = _U16.pack(len(occupancy)), _CURSOR.pack(start + 1, col, row | turned << 3)
        self.at = at
        self.written = b"".join((head, self.lengths, last_length, ties, size, occupancy, cursor))
        return self.written

    def ties(self, leading: int, ties: list[int]) -> bytes:
        """The Big Road's leading ties, tied cells and their tie counts (``ties``: a count a
        cell)."""
        last = len(ties) - 1
        if last > self.upto:
            new = [cell for cell in range(self.upto, last) if ties[cell]]
            if new:
                self.cells += pack_u16s(new)
                self.counts += pack_u16s([ties[cell] for cell in new])
                self.tied += len(new)
            self.upto = last
        if last >= 0 and ties[last]:
            size = _U16.pack(self.tied + 1)
            cell, count = _U16.pack(last), _U16.pack(ties[last])
            return b"".join((_U16.pack(leading), size, self.cells, cell, size, self.counts, count))
        size = _U16.pack(self.tied)
        return b"".join((_U16.pack(leading), size, self.cells, size, self.counts))

    def copy(self) -> KeptRoad:
        other = KeptRoad(self.lengths, self.occupancy)
        other.columns, other.upto, other.tied = self.columns, self.upto, self.tied
        other.cells, other.counts = self.cells, self.counts
        other.at, other.written = self.at, self.written
        return other

    # -- reading a state, keeping what is final of its bytes -----------------------------------

    def read_columns(self, reader: Reader) -> Columns:
        """A road's columns, as :meth:`road` writes them."""
        first, count = reader.unpack(_HEAD)
        packed = reader.raw(2 * count)
        if first >= len(_SYMBOLS):
            raise StateError("scorecard state holds an unknown road symbol")
        self.lengths, self.columns = packed[:-2], max(count - 1, 0)
        return Columns.of_runs(_SYMBOLS[first], unpack_u16s(packed))

    def read_ties(self, reader: Reader, ties: list[int]) -> int:
        """The Big Road's leading ties (returned), its tied cells and their counts (into
        ``ties``, a count per cell, all zero), as :meth:`ties` writes them. Their bytes are
        kept when they are as :meth:`ties` writes them (cells in order, no count zero);
        otherwise the next write encodes the ties from scratch."""
        leading, size = reader.unpack(_TIES_HEAD)
        cells_packed = reader.raw(2 * size)
        counts_packed = reader.raw(2 * reader.u16())
        cells, counts = unpack_u16s(cells_packed), unpack_u16s(counts_packed)
        if len(cells) != len(counts):
            raise StateError("scorecard state's tie counts and tied cells differ in number")
        for cell, count in zip(cells, counts, strict=True):
            ties[cell] = count
        if ties and 0 not in counts and sorted(set(cells)) == cells:
            if cells and cells[-1] == len(ties) - 1:  # the last cell's count is not final
                cells_packed, counts_packed = cells_packed[:-2], counts_packed[:-2]
            self.cells, self.counts = cells_packed, counts_packed
            self.tied, self.upto = len(cells_packed) // 2, len(ties) - 1
        return leading

    def read_layout(self, reader: Reader, tail: Tail) -> GridLayout:
        """A road's grid layout, as :meth:`road` writes it."""
        occupancy = reader.raw(reader.u16())
        start, col, packed = reader.unpack(_CURSOR)
        start -= 1
        self.occupancy = occupancy[: max(min(start, col), 0)]
        return GridLayout.restore(tail, occupancy, (start, col, packed & 7, bool(packed & 8)))
