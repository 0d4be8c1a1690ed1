"""The JSON shapes the library returns, defined once: what :meth:`Scorecard.as_dict` and its parts
give, which the service serves unchanged (its schemas are checked against these in the tests).

Every list in these shapes grows at its end as rounds are added (beads, Big Road columns and
their cells, derived marks), so a client can follow a shoe by appending.
"""

from __future__ import annotations

from typing import TypedDict


class Bead(TypedDict):
    """One played round on the Bead Plate: column-major, 6 rows."""

    round: int
    result: str
    col: int
    row: int
    player_pair: bool
    banker_pair: bool
    natural: bool
    winning_total: int | None
    player_total: int | None
    banker_total: int | None


class BigRoadCell(TypedDict):
    """A Banker or Player result on the Big Road, with the ties drawn on it."""

    round: int
    result: str
    ties: int
    col: int
    row: int
    player_pair: bool
    banker_pair: bool
    natural: bool


class BigRoadShape(TypedDict):
    leading_ties: int
    columns: list[list[BigRoadCell]]


class Mark(TypedDict):
    """A derived road's mark: ``red`` (regular) or ``blue`` (choppy) and its grid cell."""

    color: str
    col: int
    row: int


class DerivedRoadShape(TypedDict):
    marks: list[str]
    columns: list[list[Mark]]


class ProbeMarks(TypedDict):
    """The mark each derived road would get (``None``: that road would not have started)."""

    big_eye_boy: str | None
    small_road: str | None
    cockroach_road: str | None


class Probe(TypedDict):
    B: ProbeMarks
    P: ProbeMarks


Cell = list[int]  # [col, row]


class SideCells(TypedDict):
    """Where each road's next mark would stand (``None``: no mark on that derived road)."""

    bead_plate: Cell
    big_road: Cell
    big_eye_boy: Cell | None
    small_road: Cell | None
    cockroach_road: Cell | None


class NextCells(TypedDict):
    B: SideCells
    P: SideCells


class StreakShape(TypedDict):
    side: str | None
    length: int


class RoadStreaks(TypedDict):
    current: StreakShape
    longest: StreakShape


class Streaks(TypedDict):
    big_road: RoadStreaks
    big_eye_boy: RoadStreaks
    small_road: RoadStreaks
    cockroach_road: RoadStreaks


class LongestStreak(TypedDict):
    banker: int
    player: int


class StatsShape(TypedDict):
    rounds: int
    void_rounds: int
    counts: dict[str, int]
    percentages: dict[str, float]
    longest_streak: LongestStreak
    dragons: int


class ScorecardShape(TypedDict):
    """:meth:`roads.Scorecard.as_dict`: every road, the probe, the streaks and the stats."""

    rounds: int
    bead_plate: list[Bead]
    big_road: BigRoadShape
    big_eye_boy: DerivedRoadShape
    small_road: DerivedRoadShape
    cockroach_road: DerivedRoadShape
    probe: Probe
    next_cells: NextCells
    streaks: Streaks
    stats: StatsShape


class RoundShape(TypedDict):
    """:meth:`roads.Round.as_dict`: what was reported and what follows from it."""

    result: str
    player_total: int | None
    banker_total: int | None
    player_pair: bool
    banker_pair: bool
    natural: bool
    player_cards: list[str] | None
    banker_cards: list[str] | None
    player_perfect_pair: bool
    banker_perfect_pair: bool
    banker_six: bool
    void: bool
