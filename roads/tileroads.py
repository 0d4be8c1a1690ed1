"""What a lobby tile draws of each lobby road: its newest grid columns, placed by the service.

A client draws these cells as they are and never decides where a result goes: the rules stay in
one engine, this library. Each lobby road (:data:`roads.lobby.LOBBY_ROADS`) is, in a tile::

    {"from": 12, "cols": "BBB,P,BB,.....B"}

- ``from``: the first grid column shown. A tile shows the newest :data:`TILE_COLUMNS` columns
  that hold a cell, as a picture's view does (``from = max(0, last + 1 - TILE_COLUMNS)``).
- ``cols``: each grid column from ``from`` on, joined by ``,``; a column is its rows from the top,
  one letter each, ``.`` for an empty cell, trailing empty cells left out. The letters: ``B`` and
  ``P`` on the Big Road; ``r`` (red) and ``b`` (blue) on the derived roads.

The Big Road adds, where there are any, ``lead``: the ties before its first cell (drawn on the
first cell while ``from`` is 0), and ``extras``: ``[col, row, ties, pairs]`` for each shown cell
with ties after it or a pair (``pairs``: 1 a Banker pair, 2 a Player pair, 3 both), by column
then row.

Under the default ``tail="stay"`` a tile is read off what each road's layout keeps as its marks
are placed (:class:`roads.gridspans.ColumnSpans`): the cost of a tile is that of its newest
columns, not of the shoe. Under ``tail="drop"`` every cell of the road is placed again.
"""

from __future__ import annotations

from itertools import compress
from operator import or_
from typing import Any

from roads.columns import Columns
from roads.grid import ROWS, GridLayout, Tail
from roads.scorecard import Scorecard

TILE_COLUMNS = 14  # the grid columns a tile shows of each road
LETTERS = {"B": "B", "P": "P", "red": "r", "blue": "b"}

TileRoad = dict[str, Any]


def first_shown(last: int) -> int:
    """The first grid column a tile shows of a road whose last occupied column is ``last``."""
    return max(0, last + 1 - TILE_COLUMNS)


def columns_text(cells: list[tuple[int, int, str]], first: int, last: int) -> str:
    """The ``cols`` form of ``cells`` (``(col, row, letter)``, columns ``first`` to ``last``)."""
    grid = [["."] * ROWS for _ in range(first, last + 1)]
    for col, row, letter in cells:
        grid[col - first][row] = letter
    return ",".join("".join(rows).rstrip(".") for rows in grid)


class _Texts(dict[int, str]):
    """The text of one grid column by its picture (:meth:`roads.gridspans.ColumnSpans.picture`),
    for one pair of letters (the even- and the odd-numbered columns'): made when first seen,
    729 pictures at most."""

    def __init__(self, letters: tuple[str, str]) -> None:
        super().__init__()
        self.letters = letters

    def __missing__(self, picture: int) -> str:
        even, odd = self.letters
        rows = [
            even if picture >> (row + ROWS) & 1 else odd if picture >> row & 1 else "."
            for row in range(ROWS)
        ]
        text = self[picture] = "".join(rows).rstrip(".")
        return text


_TEXTS: dict[tuple[str, str], _Texts] = {}


def picture_text(pictures: list[int], letters: tuple[str, str]) -> str:
    """The ``cols`` form of grid columns of these pictures, ``letters`` the even- and the
    odd-numbered columns' (:meth:`roads.gridspans.ColumnSpans.picture`)."""
    texts = _TEXTS.get(letters)
    if texts is None:
        texts = _TEXTS[letters] = _Texts(letters)
    return ",".join(map(texts.__getitem__, pictures))


def shown(lengths: list[int], sides: list[str], tail: Tail) -> list[tuple[int, int, str, int]]:
    """The cells a tile shows of a road of these columns, every one placed again, as ``(col,
    row, letter, index)``."""
    if not lengths:
        return []
    positions: list[tuple[int, int]] = []
    GridLayout(tail).place_columns(lengths, positions)
    every = "".join(LETTERS[side] * length for side, length in zip(sides, lengths, strict=True))
    first = first_shown(max(col for col, _ in positions))
    cells = zip(positions, every, strict=True)
    return [(c, r, letter, i) for i, ((c, r), letter) in enumerate(cells) if c >= first]


def _road(cells: list[tuple[int, int, str, int]]) -> TileRoad:
    if not cells:
        return {"from": 0, "cols": ""}
    last = max(col for col, _, _, _ in cells)
    first = first_shown(last)
    text = columns_text([(col, row, letter) for col, row, letter, _ in cells], first, last)
    return {"from": first, "cols": text}


def _letters(columns: Columns) -> tuple[str, str]:
    """The letters of a road's even- and odd-numbered columns (its columns alternate)."""
    sides = columns.sides
    return LETTERS[sides[0]], LETTERS[sides[1]] if len(sides) > 1 else "."


def kept_road(layout: GridLayout, columns: Columns) -> TileRoad:
    """A road as a tile draws it, from its layout's kept picture (``tail="stay"``)."""
    kept = layout.kept_spans(columns.lengths, TILE_COLUMNS)
    if kept.last < 0:
        return {"from": 0, "cols": ""}
    first = first_shown(kept.last)
    return {"from": first, "cols": picture_text(kept.picture(first, kept.last), _letters(columns))}


def kept_extras(card: Scorecard) -> list[list[int]]:
    """The Big Road's ``extras`` (``tail="stay"``), from its layout's kept spans: only the cells
    of the columns with a cell in the tile are read."""
    big_road = card.big_road
    _, first, spans = big_road.layout.kept_spans(big_road.columns.lengths, TILE_COLUMNS).shown(
        TILE_COLUMNS
    )
    every_pairs, rounds, ties = card.pairs(), big_road.cell_rounds, big_road.ties
    # The cells shown: those of the columns that start in the tile, consecutive to the last
    # cell, and before them the cells of earlier tails from the tile's first grid column on
    # (a tail's cell ``depth - 1 + first - start``).
    ranges = []
    for _, (start, depth, end, index) in spans:
        if start >= first:
            ranges.append(range(index, len(ties)))
            break
        ranges.append(range(index + depth - 1 + first - start, index + depth + end - start))
    extras = []
    at, count = 0, len(spans)  # the span of the cell in hand (marked cells come in order)
    for cells in ranges:
        # Most cells have neither ties nor a pair: find those that do without a Python step.
        pairs = map(every_pairs.__getitem__, rounds[cells.start : cells.stop])
        for cell in compress(cells, map(or_, ties[cells.start : cells.stop], pairs)):
            while at + 1 < count and spans[at + 1][1][3] <= cell:
                at += 1
            start, depth, _, index = spans[at][1]
            tied, pair, step = ties[cell], every_pairs[rounds[cell]], cell - index
            if step < depth:
                extras.append([start, step, tied, pair])
            else:
                extras.append([start + step - depth + 1, depth - 1, tied, pair])
    return extras


def road_of(layout: GridLayout, columns: Columns) -> TileRoad:
    """A road as a tile draws it, whatever its tail."""
    if layout.tail == "stay":
        return kept_road(layout, columns)
    return _road(shown(columns.lengths, columns.sides, layout.tail))


def tile_roads(card: Scorecard) -> dict[str, TileRoad]:
    """Each lobby road of ``card`` as a tile draws it (the module doc)."""
    big_road = card.big_road
    columns, layout = big_road.columns, big_road.layout
    road = road_of(layout, columns)
    if layout.tail == "stay":
        extras = kept_extras(card)
    else:
        extras = _extras(card, shown(columns.lengths, columns.sides, layout.tail))
    if extras:
        road["extras"] = sorted(extras)
    if big_road.leading_ties:
        road["lead"] = big_road.leading_ties
    every = {"big_road": road}
    for derived in card.derived:
        every[derived.name] = road_of(derived.layout, derived.columns)
    return every


def _extras(card: Scorecard, cells: list[tuple[int, int, str, int]]) -> list[list[int]]:
    """The Big Road's ``extras`` among these shown cells (``(col, row, letter, index)``)."""
    big_road, every_pairs = card.big_road, card.pairs()
    extras = []
    for col, row, _, index in cells:
        pairs = every_pairs[big_road.cell_rounds[index]]
        ties = big_road.ties[index]
        if ties or pairs:
            extras.append([col, row, ties, pairs])
    return extras
