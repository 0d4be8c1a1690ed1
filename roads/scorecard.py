"""One shoe's scorecard: every road, the Ask Banker / Ask Player probe, streaks and statistics,
kept up to date round by round.

:class:`Scorecard` takes rounds one at a time with :meth:`Scorecard.add` in amortized O(1) per
round (nothing already placed is recomputed), or a whole shoe with :meth:`Scorecard.from_rounds`;
both give identical state. Correcting or voiding an earlier round rebuilds from the rounds, which
is rare. :meth:`Scorecard.as_dict` is the canonical JSON shape the service serves unchanged, and
:meth:`Scorecard.to_bytes` / :meth:`Scorecard.from_bytes` keep the state between requests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

from roads.bigroad import BigRoad
from roads.composition import DEFAULT_DECKS, Composition
from roads.derived import DERIVED_ROADS, DerivedRoad, derived_mark
from roads.errors import RoundError, ShoeError
from roads.grid import TAILS, Tail
from roads.patterns import PATTERNS, Pattern, good_roads_after, good_roads_of
from roads.round import RESULTS, Round
from roads.roundlog import RoundLog
from roads.shapes import BigRoadShape, ScorecardShape
from roads.state import FORMAT_VERSION, MAGIC, Reader, StateError, Writer
from roads.stats import ShoeStats

# No 8-deck shoe comes near this (416 cards make at most ~104 rounds); it bounds the state format.
MAX_ROUNDS = 4096

_BARE: dict[str, Round] = {result: Round(result) for result in RESULTS}
_HANDS = attrgetter("player_cards", "banker_cards")
_NO_PROBE: tuple[tuple[str | None, ...], tuple[str | None, ...]] = ((None,) * 3, (None,) * 3)


def as_round(value: Round | str) -> Round:
    """A :class:`Round`, or a bare result letter ``"B"``, ``"P"`` or ``"T"``, as a round."""
    if isinstance(value, Round):
        return value
    bare = _BARE.get(value) if isinstance(value, str) else None
    if bare is None:
        raise RoundError(f"a round must be a Round or one of 'B', 'P', 'T', not {value!r}")
    return bare


class Scorecard:
    """The five roads, the probe, streaks and statistics of one shoe.

    ``tail`` picks the dragon-tail convention of every grid (``"stay"`` by default, see
    :mod:`roads.grid`); ``decks`` is the shoe size, for the rule that no card is dealt more often
    than the shoe holds it.
    """

    __slots__ = (
        "_bead",
        "_composition",
        "_good",
        "_log",
        "_probe",
        "_stats",
        "big_road",
        "derived",
        "tail",
    )

    def __init__(self, *, tail: Tail = "stay", decks: int = DEFAULT_DECKS) -> None:
        if tail not in TAILS:
            raise ValueError(f"tail must be 'stay' or 'drop', not {tail!r}")
        self.tail: Tail = tail
        self._log = RoundLog()
        self._bead: list[int] = []  # indexes of the rounds that entered the roads
        self._composition = Composition(decks)
        self._stats = ShoeStats()
        self.big_road = BigRoad(tail)
        self.derived: tuple[DerivedRoad, ...] = tuple(
            DerivedRoad(name, k, tail) for name, k in DERIVED_ROADS
        )
        self._probe = _NO_PROBE
        # The built-in Good Roads as last asked: (Big Road cells then, the answer). Asked after
        # every round (the lobby does), the next answer is carried forward from it.
        self._good: tuple[int, tuple[tuple[str, str, int], ...]] | None = None

    # -- building ---------------------------------------------------------------------------

    def add(self, round: Round | str) -> None:
        """Append the next round of the shoe (a :class:`Round` or ``"B"``/``"P"``/``"T"``).

        Raises :class:`~roads.errors.ShoeError` when a card would be dealt more often than the
        shoe holds it; the scorecard is then unchanged.
        """
        round = as_round(round)
        index = len(self._log)
        if index >= MAX_ROUNDS:
            raise ShoeError(f"a shoe has at most {MAX_ROUNDS} rounds")
        if round.player_cards:
            self._composition.deal(round.player_cards + round.banker_cards)
        self._log.append(round)
        if round.void:
            self._stats.void += 1
            return
        self._bead.append(index)
        self._stats.count(round)
        position = self.big_road.add(round.result, index)
        if position is None:
            return
        lengths = self.big_road.columns.lengths
        column, row = position
        for road in self.derived:
            road.add(lengths, column, row)
        self._probe = self._compute_probe()

    @classmethod
    def from_rounds(
        cls, rounds: Iterable[Round | str], *, tail: Tail = "stay", decks: int = DEFAULT_DECKS
    ) -> Scorecard:
        """Build the scorecard of a whole list of rounds at once; equal to adding them in order."""
        scorecard = cls(tail=tail, decks=decks)
        rounds = list(rounds)
        if not all(map(isinstance, rounds, repeat(Round))):
            rounds = [as_round(value) for value in rounds]
        if len(rounds) > MAX_ROUNDS:
            raise ShoeError(f"a shoe has at most {MAX_ROUNDS} rounds")
        scorecard._composition.deal_all(
            list(chain.from_iterable(chain.from_iterable(map(_HANDS, rounds))))
        )
        scorecard._log = RoundLog(rounds)
        scorecard._bead = bead = [index for index, round in enumerate(rounds) if not round.void]
        scorecard._stats = ShoeStats.of(rounds)
        scorecard.big_road.build(bead, "".join([rounds[index].result for index in bead]))
        lengths = scorecard.big_road.columns.lengths
        for road in scorecard.derived:
            road.build(lengths)
        scorecard._probe = scorecard._compute_probe()
        return scorecard

    def replace(self, number: int, round: Round | str) -> None:
        """Correct round ``number`` (1-based) and rebuild, as if the corrected list was built.

        Nothing changes when the corrected shoe is refused (for example a card beyond the decks).
        """
        index = self._index(number)
        rounds = list(self._log.rounds())
        rounds[index] = as_round(round)
        self._become(Scorecard.from_rounds(rounds, tail=self.tail, decks=self.decks))

    def void(self, number: int) -> None:
        """Cancel round ``number`` (1-based): it stays in :attr:`rounds` and leaves every road."""
        index = self._index(number)
        rounds = list(self._log.rounds())
        if rounds[index].void:
            return
        rounds[index] = rounds[index].voided()
        self._become(Scorecard.from_rounds(rounds, tail=self.tail, decks=self.decks))

    def preview(self, result: str) -> Scorecard:
        """The scorecard as it would be if ``result`` (``"B"``/``"P"``/``"T"``) came next; this
        one is not changed."""
        other = self.copy()
        other.add(result)
        return other

    def copy(self) -> Scorecard:
        other = Scorecard.__new__(Scorecard)
        other.tail = self.tail
        other._log = self._log.copy()
        other._bead = list(self._bead)
        other._composition = self._composition.copy()
        other._stats = self._stats.copy()
        other.big_road = self.big_road.copy()
        other.derived = tuple(road.copy() for road in self.derived)
        other._probe = self._probe
        other._good = self._good
        return other

    def _become(self, other: Scorecard) -> None:
        for name in Scorecard.__slots__:
            setattr(self, name, getattr(other, name))

    def _index(self, number: int) -> int:
        if isinstance(number, bool) or not isinstance(number, int):
            raise ShoeError(f"a round number must be a whole number, not {number!r}")
        if not 1 <= number <= len(self._log):
            raise ShoeError(f"round {number} is not in this shoe of {len(self._log)} rounds")
        return number - 1

    # -- reading ----------------------------------------------------------------------------

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every round of the shoe in order, void ones included."""
        return tuple(self._log.rounds())

    @property
    def decks(self) -> int:
        return self._composition.decks

    @property
    def composition(self) -> Composition:
        """The cards dealt so far (a copy)."""
        return self._composition.copy()

    def cards_known(self) -> bool:
        """Whether the cards left in the shoe are known: every round so far, void ones too, was
        reported with its cards. (The burn cards are never known: they count as still in.)"""
        return self._log.all_with_cards()

    def cards_left(self) -> tuple[int, ...]:
        """How many of each of the 52 cards are still in the shoe (in
        :data:`~roads.cards.CARDS` order), as far as the reported cards tell."""
        decks = self._composition.decks
        return tuple(decks - dealt for dealt in self._composition.to_bytes())

    def __len__(self) -> int:
        """Rounds that entered the roads (void rounds excluded)."""
        return len(self._bead)

    def recent(self, count: int) -> list[str]:
        """The results of the last ``count`` played rounds, oldest first (the lobby tile's
        "last few results")."""
        return self._log.recent_results(count)

    def road(self, name: str) -> DerivedRoad:
        """A derived road by name: ``big_eye_boy``, ``small_road`` or ``cockroach_road``."""
        for road in self.derived:
            if road.name == name:
                return road
        raise KeyError(name)

    def _compute_probe(self) -> tuple[tuple[str | None, ...], tuple[str | None, ...]]:
        big_road = self.big_road
        lengths = big_road.columns.lengths
        marks = []
        for side in "BP":
            column, row = big_road.next_position(side)
            marks.append(tuple(derived_mark(lengths, column, row, road.k) for road in self.derived))
        return marks[0], marks[1]

    def probe(self) -> dict[str, dict[str, str | None]]:
        """Ask Banker / Ask Player: the mark each derived road would get if the next result were
        ``"B"`` or ``"P"`` (``None`` where that road would not have started yet)."""
        names = [road.name for road in self.derived]
        return {
            side: dict(zip(names, marks, strict=True))
            for side, marks in zip("BP", self._probe, strict=True)
        }

    def good_roads(self, patterns: Sequence[Pattern] = PATTERNS) -> list[dict[str, Any]]:
        """The Good Roads the Big Road matches now (see :mod:`roads.patterns`), each with the
        round from which it has held without a break."""
        columns, cells = self.big_road.columns, self.big_road.cell_rounds
        if patterns is not PATTERNS:
            return good_roads_of(columns.sides, columns.lengths, cells, patterns)
        known = self._good
        if known is not None and known[0] == len(cells):
            found = [{"pattern": p, "name": n, "since_round": r} for p, n, r in known[1]]
        elif known is not None and known[0] == len(cells) - 1:
            previous = [{"pattern": p, "since_round": r} for p, _, r in known[1]]
            found = good_roads_after(previous, columns.sides, columns.lengths, cells)
        else:
            found = good_roads_of(columns.sides, columns.lengths, cells)
        self._good = (len(cells), tuple((g["pattern"], g["name"], g["since_round"]) for g in found))
        return found

    def streaks(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Current and longest run of the Big Road (side B/P) and each derived road (red/blue)."""
        roads = [("big_road", self.big_road.columns)]
        roads += [(road.name, road.columns) for road in self.derived]
        return {
            name: {"current": columns.current.as_dict(), "longest": columns.longest.as_dict()}
            for name, columns in roads
        }

    def stats(self) -> dict[str, Any]:
        """Shoe statistics (see :mod:`roads.stats`)."""
        return self._stats.as_dict(self.big_road.columns)

    def bead_plate(self) -> list[dict[str, Any]]:
        """Every played round in order, 6 rows, column-major: bead ``i`` is at (i // 6, i % 6)."""
        rounds = self._log.rounds()
        beads = []
        for position, index in enumerate(self._bead):
            round = rounds[index]
            beads.append(
                {
                    "round": index + 1,
                    "result": round.result,
                    "col": position // 6,
                    "row": position % 6,
                    "player_pair": round.player_pair,
                    "banker_pair": round.banker_pair,
                    "natural": round.natural,
                    "winning_total": round.winning_total,
                    "player_total": round.player_total,
                    "banker_total": round.banker_total,
                }
            )
        return beads

    def big_road_dict(self) -> BigRoadShape:
        """``{"leading_ties", "columns": [[cell, ...], ...]}`` with each cell's grid position."""
        return self.big_road.as_dict(self._log.rounds())

    def as_dict(self) -> ScorecardShape:
        """The canonical JSON-ready shape of the whole scorecard (see :mod:`roads.shapes`)."""
        shape: dict[str, Any] = {
            "rounds": len(self._bead),
            "bead_plate": self.bead_plate(),
            "big_road": self.big_road_dict(),
        }
        for road in self.derived:
            shape[road.name] = road.as_dict()
        shape["probe"] = self.probe()
        shape["streaks"] = self.streaks()
        shape["stats"] = self.stats()
        return shape  # type: ignore[return-value]

    # -- state ------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The whole state in the compact binary form of :mod:`roads.state`."""
        writer = Writer()
        writer.raw(MAGIC)
        writer.u8(FORMAT_VERSION)
        writer.u8(TAILS.index(self.tail))
        writer.u8(self.decks)
        self._log.write(writer)
        writer.raw(self._composition.to_bytes())
        writer.u16s(list(self._stats.counters()))
        self.big_road.write(writer)
        for road in self.derived:
            road.write(writer)
        return bytes(writer.buf)

    @classmethod
    def from_bytes(cls, data: bytes) -> Scorecard:
        """Restore a scorecard from :meth:`to_bytes`; raises :class:`~roads.state.StateError`
        for bytes that are not such a state."""
        try:
            return cls._read(Reader(data))
        except StateError:
            raise
        except (IndexError, KeyError, ValueError, OverflowError) as error:
            raise StateError(f"not a scorecard state: {error}") from error

    @classmethod
    def _read(cls, reader: Reader) -> Scorecard:
        if reader.raw(2) != MAGIC or reader.u8() != FORMAT_VERSION:
            raise StateError("not a scorecard state of this format version")
        tail = TAILS[reader.u8()]
        scorecard = cls(tail=tail, decks=reader.u8())
        log = scorecard._log = RoundLog.read(reader)
        scorecard._composition = Composition(scorecard.decks, reader.raw(52))
        scorecard._stats = ShoeStats.from_counters(tuple(reader.u16s()))
        scorecard._bead = log.played()
        scorecard.big_road = BigRoad.read(reader, tail, log.cells())
        for road in scorecard.derived:
            road.read(reader)
        if reader.pos != len(reader.data):
            raise StateError("scorecard state has trailing bytes")
        scorecard._probe = scorecard._compute_probe()
        return scorecard

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scorecard):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Scorecard(rounds={len(self._log)}, columns={len(self.big_road.columns.lengths)})"
