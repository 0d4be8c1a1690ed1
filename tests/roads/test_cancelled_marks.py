"""A cancelled round on the Bead Plate: no bead (it never enters a road), an X on the cell of the
bead after it, or, after the last bead, on the cell the next bead takes (DOMAIN.md, "Rounds that
do not count")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round, Scorecard
from roads.beadplate import cancelled_marks
from tests.strategies import dealt_shoes, reported_rounds


def marks_of(rounds) -> list[tuple[int, int, int]]:
    shape = Scorecard.from_rounds(rounds).as_dict()
    return cancelled_marks(shape["bead_plate"], shape["stats"]["void_rounds"])


VOID = Round("B").voided()


def test_a_cancelled_round_is_marked_on_the_bead_after_it():
    # Rounds 1 B, 2 void, 3 P: two beads, the X on the second (round 3's).
    assert marks_of(["B", VOID, "P"]) == [(0, 1, 1)]


def test_two_cancelled_rounds_in_a_row_are_one_mark_of_two():
    assert marks_of([VOID, VOID, "T"]) == [(0, 0, 2)]


def test_cancelled_rounds_after_the_last_bead_are_marked_where_the_next_bead_goes():
    # Six beads fill the first column: the next bead's cell is the second column's top.
    assert marks_of(["B"] * 6 + [VOID]) == [(1, 0, 1)]
    assert marks_of([VOID]) == [(0, 0, 1)]


def test_marks_before_and_after_the_last_bead_together():
    assert marks_of(["B", VOID, "P", "P", VOID, VOID]) == [(0, 1, 1), (0, 3, 2)]


def test_a_shoe_without_a_cancelled_round_has_no_mark():
    assert marks_of(["B", "P", "T"]) == [] and marks_of([]) == []


@settings(max_examples=80, deadline=None)
@given(st.one_of(dealt_shoes(), st.lists(reported_rounds, max_size=40)))
def test_every_cancelled_round_is_counted_once_beside_a_bead_or_the_next_cell(rounds):
    shape = Scorecard.from_rounds(rounds).as_dict()
    beads = shape["bead_plate"]
    marks = cancelled_marks(beads, shape["stats"]["void_rounds"])
    assert sum(count for _, _, count in marks) == sum(1 for r in rounds if r.void)
    cells = [(bead["col"], bead["row"]) for bead in beads]
    cells.append((len(beads) // 6, len(beads) % 6))
    assert all((col, row) in cells for col, row, _ in marks)
    assert len({(col, row) for col, row, _ in marks}) == len(marks)
