"""Do a table's results drift from what its cards make likely? Per table and per day.

**Counts against exact chances.** For each round the chance of each outcome is the exact one
from the cards left before it (:mod:`roads.odds`; a shoe reported without cards: a fresh shoe's).
Over a day the count of an outcome is a sum of independent-enough Bernoulli trials, so its mean
is the sum of the chances and its variance the sum of ``p (1 - p)``; ``z = (observed - mean) /
sqrt(variance)``, two-sided p-value by the normal law. Tested: :data:`OUTCOMES`.

**Off the write path.** A write only notes its round (:class:`RoundEntry`, with the chances
the shoe's previous write left for it); the drift evaluator adds the rounds up (:func:`fold`).

**Runs.** The Banker/Player sequence of the day (ties left out) is tested for too many or too few
runs (Wald-Wolfowitz): a dealer or a shoe that alternates or clusters results.

**Per dealer.** A round reported with its dealer counts in the dealer's tally of the day too,
and the day's dealers are tested together as the tables are (UKGC RTS 17: game events collated
into statistics of staff), their runs over the rounds each dealt in the order they were noted.

**Across tables.** A table's p-value is its smallest test's times the number of tests
(Bonferroni within the table). Across the day's tables the Benjamini-Hochberg procedure keeps
the expected share of false discoveries at :data:`FALSE_DISCOVERY` or below; a table is alerted
only when its adjusted p-value is below :data:`ALERT` and it dealt :data:`MIN_ROUNDS` rounds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

OUTCOMES: tuple[str, ...] = ("banker", "player", "tie", "natural", "player_pair", "banker_pair")
FALSE_DISCOVERY = 0.05
ALERT = 1e-3
MIN_ROUNDS = 30
#: A day's tally's numbers, in order.
FIELDS: tuple[str, ...] = (
    "rounds",
    *(f"observed_{o}" for o in OUTCOMES),
    *(f"expected_{o}" for o in OUTCOMES),
    *(f"variance_{o}" for o in OUTCOMES),
    "banker_wins",
    "player_wins",
    "runs",
    "last",  # the day's last Banker/Player result: 1 Banker, 2 Player, 0 none yet
)


#: The fields a batch of rounds adds to (all but the runs and the last side, which follow the
#: order of the results: see :func:`fold`).
ADDED = FIELDS[: FIELDS.index("runs")]


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """A round waiting for its day's tally: its ``table`` and ``day``, its ``observed``
    outcomes (1 or 0, -1 unknown) and their chances (``expect``) in :data:`OUTCOMES` order, its
    ``side``: 1 Banker, 2 Player, 0 a tie; and its ``dealer``'s id (``""``: not reported)."""

    table: str
    day: str
    observed: tuple[int, ...]
    side: int
    expect: tuple[float, ...]
    dealer: str = ""


def fold(
    entries: Iterable[RoundEntry], *, by_dealer: bool = False
) -> dict[tuple[str, str], tuple[list[float], str]]:
    """Per (day, table), or per (day, dealer) with ``by_dealer`` (rounds without a dealer left
    out), what its rounds add to the tally's :data:`ADDED` fields, and its Banker/Player results
    in order (``"1"``/``"2"`` each), from which the runs follow."""
    n = len(OUTCOMES)
    found: dict[tuple[str, str], tuple[list[float], list[str]]] = {}
    for entry in entries:
        name = entry.dealer if by_dealer else entry.table
        if not name:
            continue
        values, sides = found.setdefault((entry.day, name), ([0.0] * len(ADDED), []))
        values[0] += 1
        for i, (seen, p) in enumerate(zip(entry.observed, entry.expect, strict=True)):
            if seen >= 0:  # -1: unknown (a round without cards says nothing of its pairs)
                values[1 + i] += seen
                values[1 + n + i] += p
                values[1 + 2 * n + i] += p * (1 - p)
        if entry.side:
            values[1 + 3 * n + entry.side - 1] += 1
            sides.append(str(entry.side))
    return {key: (values, "".join(sides)) for key, (values, sides) in found.items()}


def chances(shoe_odds: Mapping[str, Any]) -> list[float]:
    """The chance of each of :data:`OUTCOMES` on the next round, from a shoe's odds."""
    probabilities = shoe_odds["probabilities"]
    return [float(probabilities[outcome]) for outcome in OUTCOMES]


def two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def runs_z(banker: int, player: int, runs: int) -> float | None:
    """Wald-Wolfowitz: how far the number of runs lies from its mean, in standard deviations."""
    n = banker + player
    if banker == 0 or player == 0 or n < 3:
        return None
    mean = 2 * banker * player / n + 1
    variance = 2 * banker * player * (2 * banker * player - n) / (n * n * (n - 1))
    return (runs - mean) / math.sqrt(variance) if variance > 0 else None


@dataclass(frozen=True, slots=True)
class DayTally:
    """A table's day, added up: a number for each of :data:`FIELDS`."""

    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.values) != len(FIELDS):
            raise ValueError(f"a day's tally has {len(FIELDS)} numbers, not {len(self.values)}")

    def __getitem__(self, name: str) -> float:
        return self.values[FIELDS.index(name)]

    @property
    def rounds(self) -> int:
        return int(self["rounds"])

    def tests(self) -> dict[str, dict[str, float | None]]:
        """Each test's statistic: observed, expected, z and p."""
        found: dict[str, dict[str, float | None]] = {}
        for outcome in OUTCOMES:
            observed, mean = self[f"observed_{outcome}"], self[f"expected_{outcome}"]
            variance = self[f"variance_{outcome}"]
            z = (observed - mean) / math.sqrt(variance) if variance > 0 else None
            found[outcome] = {
                "observed": observed,
                "expected": round(mean, 3),
                "z": None if z is None else round(z, 3),
                "p": None if z is None else two_sided(z),
            }
        z = runs_z(int(self["banker_wins"]), int(self["player_wins"]), int(self["runs"]))
        found["runs"] = {
            "observed": self["runs"],
            "z": None if z is None else round(z, 3),
            "p": None if z is None else two_sided(z),
        }
        return found

    def p_value(self) -> float:
        """The table's p-value: the smallest test's, Bonferroni-corrected for their number."""
        ps = [test["p"] for test in self.tests().values() if test["p"] is not None]
        return min(1.0, min(ps) * len(ps)) if ps else 1.0


def benjamini_hochberg(p_values: Mapping[str, float]) -> dict[str, float]:
    """Each name's Benjamini-Hochberg adjusted p-value: a name is a discovery at false discovery
    rate ``q`` when its adjusted value is at most ``q``."""
    ordered: Sequence[tuple[str, float]] = sorted(p_values.items(), key=lambda item: item[1])
    m = len(ordered)
    adjusted: dict[str, float] = {}
    running = 1.0
    for rank in range(m, 0, -1):
        name, p = ordered[rank - 1]
        running = min(running, p * m / rank)
        adjusted[name] = running
    return adjusted


def report(tallies: Mapping[str, DayTally]) -> dict[str, dict[str, Any]]:
    """The day's report: per table its tests, p-value, adjusted p-value, and whether it is a
    discovery (adjusted at most :data:`FALSE_DISCOVERY`) and an alert (below :data:`ALERT`)."""
    tested = {table: t.p_value() for table, t in tallies.items() if t.rounds >= MIN_ROUNDS}
    adjusted = benjamini_hochberg(tested)
    return {
        table: {
            "rounds": tally.rounds,
            "tests": tally.tests(),
            "p": tested.get(table),
            "adjusted_p": adjusted.get(table),
            "discovery": adjusted.get(table, 1.0) <= FALSE_DISCOVERY,
            "alert": adjusted.get(table, 1.0) < ALERT,
        }
        for table, tally in tallies.items()
    }
