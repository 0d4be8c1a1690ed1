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
"""

from __future__ import annotations

from typing import Any

from roads.grid import ROWS, GridLayout, Tail
from roads.scorecard import Scorecard

TILE_COLUMNS = 14  # the grid columns a tile shows of each road
LETTERS = {"B": "B", "P": "P", "red": "r", "blue": "b"}

TileRoad = dict[str, Any]


def first_shown(last: int) -> int:
    """The first grid column a tile shows of a road whose last occupied column is ``last``."""
    return max(0, last + 1 - TILE_COLUMNS)


Column = tuple[int, int, int, str, int]  # start, depth, end, letter, index of its first cell


def columns_text(cells: list[tuple[int, int, str]], first: int, last: int) -> str:
    """The ``cols`` form of ``cells`` (``(col, row, letter)``, columns ``first`` to ``last``)."""
    grid = [["."] * ROWS for _ in range(first, last + 1)]
    for col, row, letter in cells:
        grid[col - first][row] = letter
    return ",".join("".join(rows).rstrip(".") for rows in grid)


def shown_cells(columns: list[Column], first: int) -> list[tuple[int, int, str, int]]:
    """The cells of ``columns`` from grid column ``first`` on, as ``(col, row, letter, index)``
    (``index``: the cell's place among the road's cells, in order)."""
    cells = []
    for start, depth, end, letter, index in columns:
        if end < first:
            continue
        for row in range(depth):
            if start >= first:
                cells.append((start, row, letter, index + row))
        for col in range(max(start + 1, first), end + 1):
            cells.append((col, depth - 1, letter, index + depth + col - start - 1))
    return cells


def placed_columns(lengths: list[int], sides: list[str]) -> list[Column]:
    """Where each column of a road goes on the grid under ``tail="stay"``: ``(start, depth, end,
    letter, index)`` (see :meth:`roads.grid.GridLayout.place_columns`; ``index``: the place of
    its first cell among the road's cells). Placing columns is cheap; making every cell is not,
    and a tile needs the cells of its newest columns only (which is what makes it cheap enough
    to build at every write)."""
    spans: list[tuple[int, int, int]] = []
    GridLayout("stay").place_columns(lengths, spans=spans)
    index, columns = 0, []
    for (start, depth, end), side, length in zip(spans, sides, lengths, strict=True):
        columns.append((start, depth, end, LETTERS[side], index))
        index += length
    return columns


def shown(lengths: list[int], sides: list[str], tail: Tail) -> list[tuple[int, int, str, int]]:
    """The cells a tile shows of a road of these columns, as ``(col, row, letter, index)``. A
    dropping tail is not one row: its road's cells are all made."""
    if not lengths:
        return []
    if tail == "stay":
        columns = placed_columns(lengths, sides)
        return shown_cells(columns, first_shown(max(column[2] for column in columns)))
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


def derived_road(lengths: list[int], sides: list[str], tail: Tail) -> TileRoad:
    """A derived road as a tile draws it: under ``tail="stay"`` written straight from where its
    columns go, without making its cells."""
    if tail != "stay" or not lengths:
        return _road(shown(lengths, sides, tail))
    columns = placed_columns(lengths, sides)
    last = max(column[2] for column in columns)
    first = first_shown(last)
    grid = [["."] * ROWS for _ in range(first, last + 1)]
    for start, depth, end, letter, _ in columns:
        if end < first:
            continue
        if start >= first:
            grid[start - first][:depth] = letter * depth
        for col in range(max(start + 1, first), end + 1):
            grid[col - first][depth - 1] = letter
    return {"from": first, "cols": ",".join("".join(rows).rstrip(".") for rows in grid)}


def tile_roads(card: Scorecard) -> dict[str, TileRoad]:
    """Each lobby road of ``card`` as a tile draws it (the module doc)."""
    big_road = card.big_road
    columns = big_road.columns
    cells = shown(columns.lengths, columns.sides, big_road.layout.tail)
    road = _road(cells)
    every_pairs = card.pairs()
    extras = []
    for col, row, _, index in cells:
        pairs = every_pairs[big_road.cell_rounds[index]]
        ties = big_road.ties[index]
        if ties or pairs:
            extras.append([col, row, ties, pairs])
    if extras:
        road["extras"] = sorted(extras)
    if big_road.leading_ties:
        road["lead"] = big_road.leading_ties
    every = {"big_road": road}
    for derived in card.derived:
        lengths, sides = derived.columns.lengths, derived.columns.sides
        every[derived.name] = derived_road(lengths, sides, derived.layout.tail)
    return every
