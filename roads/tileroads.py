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


def columns_text(cells: list[tuple[int, int, str]], first: int, last: int) -> str:
    """The ``cols`` form of ``cells`` (``(col, row, letter)``, columns ``first`` to ``last``)."""
    grid = [["."] * ROWS for _ in range(first, last + 1)]
    for col, row, letter in cells:
        grid[col - first][row] = letter
    return ",".join("".join(rows).rstrip(".") for rows in grid)


def _placed(
    lengths: list[int], sides: list[str], tail: Tail
) -> tuple[list[tuple[int, int, str]], int]:
    """The cells of a road of these columns that a tile can show, as ``(col, row, letter)`` in
    order, and how many cells come before them.

    Only the columns that can reach the newest :data:`TILE_COLUMNS` grid columns are given
    cells: column ``j`` of ``n`` starts at least ``n - 1 - j`` grid columns before the last one,
    and its dragon tail runs at most ``length - 1`` columns on, so an earlier column is only
    placed (which is what makes a tile cheap enough to build at every write)."""
    count = len(lengths)
    reach = TILE_COLUMNS - 1
    first = next((j for j in range(count) if lengths[j] - 1 >= count - 1 - j - reach), count)
    layout = GridLayout(tail)
    layout.place_columns(lengths[:first])
    positions: list[tuple[int, int]] = []
    layout.place_columns(lengths[first:], positions)
    letters = "".join(
        LETTERS[side] * length for side, length in zip(sides[first:], lengths[first:], strict=True)
    )
    cells = [(col, row, letter) for (col, row), letter in zip(positions, letters, strict=True)]
    return cells, sum(lengths[:first])


def _road(cells: list[tuple[int, int, str]]) -> tuple[TileRoad, int]:
    if not cells:
        return {"from": 0, "cols": ""}, 0
    last = max(col for col, _, _ in cells)
    first = first_shown(last)
    shown = [cell for cell in cells if cell[0] >= first]
    return {"from": first, "cols": columns_text(shown, first, last)}, first


def tile_roads(card: Scorecard) -> dict[str, TileRoad]:
    """Each lobby road of ``card`` as a tile draws it (the module doc)."""
    big_road = card.big_road
    columns = big_road.columns
    placed, before = _placed(columns.lengths, columns.sides, big_road.layout.tail)
    road, first = _road(placed)
    rounds = card.rounds
    extras = []
    numbers = zip(placed, big_road.cell_rounds[before:], big_road.ties[before:], strict=True)
    for (col, row, _), index, ties in numbers:
        if col < first:
            continue
        round = rounds[index]
        pairs = round.banker_pair + 2 * round.player_pair
        if ties or pairs:
            extras.append([col, row, ties, pairs])
    if extras:
        road["extras"] = sorted(extras)
    if big_road.leading_ties:
        road["lead"] = big_road.leading_ties
    every = {"big_road": road}
    for derived in card.derived:
        lengths, sides = derived.columns.lengths, derived.columns.sides
        every[derived.name] = _road(_placed(lengths, sides, derived.layout.tail)[0])[0]
    return every
