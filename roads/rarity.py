"""How unusual is this? The chance that a shoe of ``n`` hands (ties included) shows a run, or a
Good Road, at least once; and the chance that at least one of a lobby's ``m`` tables does.

**The model.** Hands are independent, each Banker, Player or Tie with the probabilities of a
fresh 8-deck shoe (:func:`roads.odds.fresh_odds`: 0.458597, 0.446247, 0.095156). A real shoe's
cards make successive hands very slightly dependent; the model leaves that out, as every
published streak figure does.

**Exact** (``method == "exact"``): a run of the Big Road, of one side or of either side, and each
built-in Good Road of both profiles (and a custom pattern whose reach is small). Each is a
Markov chain whose state is the Big Road's last columns, as much of them as the question reads
(a pattern's :class:`roads.patterns.Reach`: a run of ``k`` reads the last column's length up to
``k``; Banker Ping Pong the last 4 columns, each 1 or more than 1), with one absorbing state,
"seen". The chance is the absorbed mass after ``n`` hands, summed hand by hand: exact up to
floating point. Ties leave the state as it is: they never break a Big Road run.

**Simulated** (``method == "simulated"``): a derived road's run of a colour. Whether a derived
mark is red depends on two Big Road columns having *equal* lengths, so an exact chain must
remember the last ``k + 1`` column lengths in full, which does not stay small. The chance is read
from a table of 1,000,000 simulated shoes (:mod:`roads.derivedsim`), shipped with its 95% Wilson
interval.

Worked values, for an 80-hand shoe (a shoe of 8 decks with the cut card 14 cards from the back
deals 80.4 hands on average):

>>> round(run_chance("big_road", "B", 8, 80).value, 4)  # a Banker run of 8 or more
0.1351
>>> round(run_chance("big_road", "P", 8, 80).value, 4)  # a Player run of 8 or more
0.1125
>>> round(run_chance("big_road", "either", 6, 80).value, 4)  # either side, 6 or more
0.69
>>> round(pattern_chance("double_jump", 80).value, 4)  # 4 columns of 2 (the last may be 1)
0.3388
>>> round(lobby_chance(0.1351, 10), 4)  # a Banker run of 8 at one of 10 tables, at least
0.7658
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from roads.derived import DERIVED_ROADS
from roads.errors import RoadsError
from roads.patterns import PATTERNS_BY_ID, Pattern, Reach
from roads.shoe import HANDS, SHOE_HANDS

BIG_ROAD_SIDES = ("B", "P", "either")
DERIVED_COLOURS = ("red", "blue", "either")
RUN_ROADS = ("big_road", *(name for name, _ in DERIVED_ROADS))
MAX_STATES = 2_000  # a custom pattern whose chain would be larger is not summed
Z95 = 1.959964  # the standard normal's 97.5% point


class RarityError(RoadsError):
    """A chance that cannot be given: an unknown road, side or pattern, or out of range."""


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance, with how it was found: ``exact`` (``low == value == high``) or ``simulated``
    (``low`` and ``high`` bound its 95% interval; ``shoes`` simulated shoes behind it)."""

    value: float
    low: float
    high: float
    method: str
    shoes: int = 0

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "chance": self.value,
            "interval": [self.low, self.high],
            "method": self.method,
        }
        if self.shoes:
            found["shoes"] = self.shoes
        return found


@dataclass(frozen=True, slots=True)
class LobbyFigures:
    """What a lobby states beside a run: the chance that a shoe of ``hands`` hands shows a run
    at least as long (``chance``), and that at least one of ``tables`` tables does
    (``lobby_chance``), each to 3 significant digits (:func:`figure`)."""

    hands: int = SHOE_HANDS
    tables: int = 1

    def of_run(self, road: str, side: str | None, length: int) -> dict[str, float | int | None]:
        """The figures of a run of ``length`` of ``side`` on ``road`` (``None`` without a run)."""
        if side is None or length < 1:
            return {"chance": None, "lobby_chance": None}
        shown, lobby = _run_figures(road, side, min(length, HANDS + 1), self.hands, self.tables)
        return {"chance": shown, "lobby_chance": lobby}


@lru_cache(maxsize=4096)  # a write asks for the same few runs again and again
def _run_figures(
    road: str, side: str, length: int, hands: int, tables: int
) -> tuple[float | int, float | int]:
    chance = run_chance(road, side, length, hands).value
    return figure(chance), figure(lobby_chance(chance, tables))


def figure(chance: float) -> float | int:
    """A chance to 3 significant digits, 0 and 1 as integers: what a lobby shows ("1 shoe in
    7", "13.5%"), in the fewest bytes of a frame (the exact figure is ``/v1/rarity``'s)."""
    shown = float(f"{chance:.3g}")
    return int(shown) if shown.is_integer() else shown


def lobby_chance(chance: float, tables: int) -> float:
    """The chance that at least one of ``tables`` tables, each independently showing it with
    ``chance``, shows it: ``1 - (1 - chance) ** tables``."""
    if tables < 0:
        raise RarityError(f"a lobby has 0 tables or more, not {tables}")
    return -math.expm1(tables * math.log1p(-chance)) if chance < 1 else 1.0


def run_chance(road: str, side: str, length: int, hands: int = SHOE_HANDS) -> Chance:
    """The chance that ``road`` shows a run of at least ``length`` of ``side`` in a shoe of
    ``hands`` hands: ``B``, ``P`` or ``either`` on the Big Road (exact), ``red``, ``blue`` or
    ``either`` on a derived road (simulated)."""
    _check_hands(hands)
    if length < 1:
        raise RarityError(f"a run is 1 or more long, not {length}")
    if road == "big_road":
        if side not in BIG_ROAD_SIDES:
            raise RarityError(f"a Big Road run is of side B, P or either, not {side!r}")
        return _exact(_run_curve(side, min(length, HANDS + 1))[hands])
    if road not in RUN_ROADS:
        raise RarityError(f"road is one of {', '.join(RUN_ROADS)}, not {road!r}")
    if side not in DERIVED_COLOURS:
        raise RarityError(f"a derived road's run is red, blue or either, not {side!r}")
    return _derived_table().chance(road, side, length, hands)


def pattern_chance(pattern: Pattern | str, hands: int = SHOE_HANDS) -> Chance:
    """The chance that a shoe of ``hands`` hands matches ``pattern`` (a pattern or a built-in
    pattern's id) after at least one of its hands (exact)."""
    _check_hands(hands)
    if isinstance(pattern, str):
        if pattern not in PATTERNS_BY_ID:
            raise RarityError(f"no built-in pattern is called {pattern!r}")
        pattern = PATTERNS_BY_ID[pattern]
    if pattern.reach is None:
        raise RarityError(f"pattern {pattern.id!r} does not say how much of the road it reads")
    if _states(pattern.reach) > MAX_STATES:
        raise RarityError(f"pattern {pattern.id!r} reads too much of the road to sum exactly")
    if PATTERNS_BY_ID.get(pattern.id) is pattern:
        return _exact(_built_in_curve(pattern.id)[hands])
    return _exact(absorbed(pattern.test, pattern.reach)[hands])  # a custom one: not kept


def _check_hands(hands: int) -> None:
    if not 1 <= hands <= HANDS:
        raise RarityError(f"a shoe of 8 decks deals 1 to {HANDS} hands, not {hands}")


def _exact(value: float) -> Chance:
    value = min(max(value, 0.0), 1.0)
    return Chance(value, value, value, "exact")


def _states(reach: Reach) -> int:
    """An upper bound on the chain's states: a last side and up to ``columns`` capped lengths."""
    return 2 * sum(reach.cap**count for count in range(reach.columns + 1))


@cache
def outcome_probabilities() -> tuple[float, float, float]:
    """Banker, Player and Tie on the first hand of a fresh 8-deck shoe (exact)."""
    from roads.odds import fresh_odds  # numpy, loaded when a chance is first asked for

    odds = fresh_odds()["probabilities"]
    return odds["banker"], odds["player"], odds["tie"]


@cache
def _run_curve(side: str, length: int) -> tuple[float, ...]:
    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        return lengths[-1] >= length and side in (sides[-1], "either")

    return absorbed(test, Reach(1, length))


@cache
def _built_in_curve(pattern_id: str) -> tuple[float, ...]:
    pattern = PATTERNS_BY_ID[pattern_id]
    assert pattern.reach is not None
    return absorbed(pattern.test, pattern.reach)


# A chain's state: the last column's side ("" before the first result) and the capped lengths
# of the last columns, oldest first.
State = tuple[str, tuple[int, ...]]


def absorbed(
    test: Callable[[Sequence[str], Sequence[int]], bool], reach: Reach, hands: int = HANDS
) -> tuple[float, ...]:
    """The chance that ``test`` has held after some hand, by each hand ``0..hands``: the Markov
    chain over the Big Road's last ``reach.columns`` columns, lengths capped at ``reach.cap``,
    whose absorbing state is "the test held". ``test`` must read no more of the road than
    ``reach`` says (the tests hold each built-in pattern to its reach).

    The chain's states are found once, from the empty road; then each hand moves the mass of
    every state at once (a tie keeps it where it is; a Banker or a Player moves it on, or into
    "seen")."""
    import numpy as np  # loaded when a chance is first summed, as roads.odds does

    banker, player, tie = outcome_probabilities()
    index: dict[State, int] = {("", ()): 0}
    moves: list[tuple[int, int, float]] = []  # (from, to or -1 for "seen", chance)
    at = 0
    states = [("", ())]
    while at < len(states):
        state = states[at]
        for side, chance in (("B", banker), ("P", player)):
            after = _after(state, side, reach)
            if _holds(test, after):
                moves.append((at, -1, chance))
                continue
            if after not in index:
                index[after] = len(states)
                states.append(after)
            moves.append((at, index[after], chance))
        at += 1
    source = np.array([move[0] for move in moves])
    target = np.array([move[1] for move in moves])
    chances = np.array([move[2] for move in moves])
    kept, into_seen = target >= 0, target < 0
    mass = np.zeros(len(states))
    mass[0] = 1.0
    seen, curve = 0.0, [0.0]
    for _ in range(hands):
        flow = mass[source] * chances
        seen += float(flow[into_seen].sum())
        mass = tie * mass + np.bincount(target[kept], flow[kept], minlength=len(states))
        curve.append(seen)
    return tuple(curve)


def _after(state: State, side: str, reach: Reach) -> State:
    """The state after a Banker or Player result: the last column grows, or a new one starts."""
    last, lengths = state
    if side == last:
        return side, (*lengths[:-1], min(lengths[-1] + 1, reach.cap))
    return side, (*lengths, 1)[-reach.columns :]


def _holds(test: Callable[[Sequence[str], Sequence[int]], bool], state: State) -> bool:
    last, lengths = state
    other = "P" if last == "B" else "B"
    count = len(lengths)
    sides = [last if (count - 1 - index) % 2 == 0 else other for index in range(count)]
    return test(sides, list(lengths))


@dataclass(frozen=True)
class DerivedTable:
    """The shipped table of :mod:`roads.derivedsim`: for each derived road, colour and run
    length, how many of ``shoes`` simulated shoes had shown it by each hand."""

    shoes: int
    seen: dict[tuple[str, str, int], tuple[int, ...]]  # counts by hand 0..HANDS, cumulative

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DerivedTable:
        seen = {}
        for road, colours in data["runs"].items():
            for colour, rows in colours.items():
                for length, first, counts in rows:
                    total, cumulative = 0, [0] * (HANDS + 1)
                    for hand in range(first, HANDS + 1):
                        at = hand - first
                        total += counts[at] if at < len(counts) else 0
                        cumulative[hand] = total
                    seen[road, colour, length] = tuple(cumulative)
        return cls(data["shoes"], seen)

    def chance(self, road: str, colour: str, length: int, hands: int) -> Chance:
        """The share of simulated shoes that showed the run by ``hands``, and its 95% Wilson
        interval (a run longer than any simulated shoe showed: 0, and the interval's top)."""
        counts = self.seen.get((road, colour, length))
        hits = counts[hands] if counts else 0
        low, high = wilson(hits, self.shoes)
        return Chance(hits / self.shoes, low, high, "simulated", self.shoes)


def wilson(hits: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    share = hits / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z / (1 + z * z / trials) * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials**2))
    )
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    return low, 1.0 if hits == trials else min(1.0, centre + half)


@cache
def _derived_table() -> DerivedTable:
    from roads.derivedsim import TABLE

    return DerivedTable.from_dict(json.loads(TABLE.read_text()))
