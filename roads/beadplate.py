"""The Bead Plate: every played round in order, ties included in their own cell, filling a column
of 6 from top to bottom, then the next column, whatever the result (DOMAIN.md, "Scorecards").
Bead ``i`` (0-based, void rounds left out) stands at column ``i // 6``, row ``i % 6``."""

from __future__ import annotations

from collections.abc import Sequence

from roads.grid import ROWS
from roads.round import Round
from roads.shapes import Bead


def bead_plate(rounds: Sequence[Round], played: Sequence[int]) -> list[Bead]:
    """The beads of ``played``, the indexes in ``rounds`` of the rounds that entered the roads."""
    return [bead_of(index + 1, rounds[index], position) for position, index in enumerate(played)]


def bead_of(number: int, round: Round, position: int) -> Bead:
    """Round ``number`` (1-based, in the shoe) as the bead at ``position`` (0-based, among the
    rounds that entered the roads)."""
    return {
        "round": number,
        "result": round.result,
        "col": position // ROWS,
        "row": position % ROWS,
        "player_pair": round.player_pair,
        "banker_pair": round.banker_pair,
        "natural": round.natural,
        "winning_total": round.winning_total,
        "player_total": round.player_total,
        "banker_total": round.banker_total,
    }
