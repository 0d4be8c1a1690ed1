"""The Bead Plate: every played round in order, ties included in their own cell, filling a column
of 6 from top to bottom, then the next column, whatever the result (DOMAIN.md, "Scorecards").
Bead ``i`` (0-based, void rounds left out) stands at column ``i // 6``, row ``i % 6``.

A cancelled (void) round takes no bead (it never enters a road) but is marked with an X
(DOMAIN.md, "Rounds that do not count"): :func:`cancelled_marks` says where."""

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


def cancelled_marks(beads: Sequence[Bead], void_rounds: int) -> list[tuple[int, int, int]]:
    """Where the Bead Plate marks its cancelled rounds with an X, as ``(col, row, count)``: on
    the cell of the bead that came after ``count`` cancelled rounds, or, for those after the last
    bead, on the cell the next bead will take (where a player looks next). A bead's round number
    counts every round of the shoe, void ones too, so a gap between two beads' numbers is the
    rounds cancelled between them; ``void_rounds``, the shoe's count, gives those after the
    last bead. A roads document carries both: the client's ``cancelledMarks`` reads it alike."""
    marks = []
    before = 0  # the round number of the bead before
    for bead in beads:
        gap = bead["round"] - before - 1
        if gap > 0:
            marks.append((bead["col"], bead["row"], gap))
        before = bead["round"]
    after = void_rounds - sum(count for _, _, count in marks)
    if after > 0:
        position = len(beads)
        marks.append((position // ROWS, position % ROWS, after))
    return marks
