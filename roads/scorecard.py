"""One shoe's scorecard: every road, the Ask Banker / Ask Player probe, streaks and statistics,
kept up to date round by round.

:class:`Scorecard` takes rounds one at a time with :meth:`Scorecard.add` in amortized O(1) per
round (nothing already placed is recomputed), or a whole shoe with :meth:`Scorecard.from_rounds`;
both give identical state. Correcting or voiding an earlier round rebuilds from the rounds, which
is rare. :meth:`Scorecard.as_dict` is the canonical JSON shape the service serves unchanged, kept
as rounds are added once asked for (:mod:`roads.scorejson`, :mod:`roads.document`), and
:meth:`Scorecard.to_bytes` / :meth:`Scorecard.from_bytes` keep the state between requests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from roads import scoreparts, snapshot
from roads.cards import Card, parse_card
from roads.composition import Composition
from roads.derived import DerivedRoad
from roads.document import KeptDocument, ends_of
from roads.errors import ShoeError
from roads.goodroads import Known, good_roads_carried, good_roads_of
from roads.grid import Tail
from roads.patterns import PATTERNS, Pattern
from roads.probe import NO_PROBE, Marks, probe_marks
from roads.round import Round
from roads.scorejson import ScorecardJson
from roads.scoreparts import Parts, as_round
from roads.shoe import DEFAULT_DECKS, MAX_ROUNDS
from roads.smallparts import SmallParts


class Scorecard(ScorecardJson):
    """The five roads, the probe, streaks and statistics of one shoe.

    ``tail`` picks the dragon-tail convention of every grid (``"stay"`` by default, see
    :mod:`roads.grid`); ``decks`` is the shoe size, for the rule that no card is dealt more often
    than the shoe holds it.
    """

    __slots__ = ("_bead", "_composition", "_good", "_log", "_probe", "_stats")
    __slots__ += ("_kept", "_served", "_small", "big_road", "derived", "tail")

    def __init__(self, *, tail: Tail = "stay", decks: int = DEFAULT_DECKS) -> None:
        self._take(scoreparts.empty(tail, decks), [], NO_PROBE)

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
        kept, self._small = self._kept, None
        ends = None if kept is None else ends_of(self.big_road, self.derived, len(self._bead))
        self._log.append(round)
        if round.void:
            self._stats.void += 1
        else:
            self._bead.append(index)
            self._stats.count(round)
            position = self.big_road.add(round.result, index)
            if position is not None:  # not a tie
                lengths = self.big_road.columns.lengths
                column, row = position
                for road in self.derived:
                    road.add(lengths, column, row)
                self._probe = probe_marks(self.big_road, self.derived)
        if kept is not None and ends is not None:  # the document grows by what the round added
            kept.grow(ends, self.big_road, self.derived, len(self._bead), index + 1, round)

    @classmethod
    def from_rounds(
        cls, rounds: Iterable[Round | str], *, tail: Tail = "stay", decks: int = DEFAULT_DECKS
    ) -> Scorecard:
        """Build the scorecard of a whole list of rounds at once; equal to adding them in order."""
        parts, bead = scoreparts.built(rounds, tail, decks)
        return cls._assemble(parts, bead, probe_marks(parts.big_road, parts.derived))

    def replace(self, number: int, round: Round | str) -> None:
        """Correct round ``number`` (1-based) and rebuild, as if the corrected list was built.

        Nothing changes when the corrected shoe is refused (for example a card beyond the decks).
        """
        self._rebuild(self._index(number), as_round(round))

    def void(self, number: int) -> None:
        """Cancel round ``number`` (1-based): it stays in :attr:`rounds` and leaves every road."""
        index = self._index(number)
        old = self._log.rounds()[index]
        if not old.void:
            self._rebuild(index, old.voided())

    def _rebuild(self, index: int, round: Round) -> None:
        rounds = list(self._log.rounds())
        rounds[index] = round
        other = Scorecard.from_rounds(rounds, tail=self.tail, decks=self.decks)
        self._take(other._parts(), other._bead, other._probe)

    def preview(self, result: str) -> Scorecard:
        """The scorecard as it would be if ``result`` (``"B"``/``"P"``/``"T"``) came next; this
        one is not changed."""
        other = self.copy()
        other.add(result)
        return other

    def copy(self) -> Scorecard:
        other = Scorecard._assemble(self._parts().copy(), list(self._bead), self._probe)
        other._good, other._small = self._good, self._small  # values: shared
        other._served = self._served
        other._kept = None if self._kept is None else self._kept.copy()
        return other

    def _parts(self) -> Parts:
        parts = (self._log, self._composition, self._stats, self.big_road, self.derived)
        return Parts(self.tail, self.decks, *parts)

    @classmethod
    def _assemble(cls, parts: Parts, bead: list[int], probe: Marks) -> Scorecard:
        scorecard = cls.__new__(cls)
        scorecard._take(parts, bead, probe)
        return scorecard

    def _take(self, parts: Parts, bead: list[int], probe: Marks) -> None:
        """Hold these parts, the played rounds' indexes and the probe's marks (all taken, not
        copied); the Good Roads are then not yet asked."""
        self.tail: Tail = parts.tail
        self._log, self._composition, self._stats = parts[2:5]
        self.big_road, self.derived = parts.big_road, parts.derived
        self._bead, self._probe = bead, probe  # _bead: the rounds that entered the roads
        # The built-in Good Roads as last asked (see roads.goodroads.good_roads_carried).
        self._good: Known | None = None
        self._small: SmallParts | None = None  # this state's, once asked
        self._served: SmallParts | None = None  # the last document's (see ScorecardJson.as_dict)
        self._kept: KeptDocument | None = None  # the document, once asked; then kept current

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

    def pairs(self) -> bytes:
        """Each round's pairs, void ones included (1 a Banker pair, 2 a Player pair, 3 both),
        read off the stored rounds without decoding them."""
        return self._log.pairs()

    @property
    def decks(self) -> int:
        return self._composition.decks

    @property
    def composition(self) -> Composition:
        """The cards dealt so far (a copy)."""
        return self._composition.copy()

    def burn(self, cards: Iterable[Card | str]) -> None:
        """Take cards burned from the shoe out of the cards left, as dealt cards are (the exact
        odds follow); the roads do not change. Raises :class:`~roads.errors.ShoeError` when a
        card would leave the shoe more often than it holds it; nothing changes then."""
        self._composition.deal([parse_card(card) for card in cards])

    def cards_known(self) -> bool:
        """Whether the cards left in the shoe are known: every round so far, void ones too, was
        reported with its cards. (Burned cards count as still in unless :meth:`burn` took them
        out.)"""
        return self._log.all_with_cards()

    def cards_left(self) -> tuple[int, ...]:
        """How many of each of the 52 cards are still in the shoe (in
        :data:`~roads.cards.CARDS` order), as far as the reported cards tell."""
        return self._composition.left_each()

    def cards_used(self, rounds: int | None = None) -> int:
        """The fewest cards the shoe's first ``rounds`` rounds (all by default) can have used
        (see :meth:`RoundLog.cards_used`)."""
        return self._log.cards_used(rounds)

    def dealt(self, first: int = 1) -> tuple[list[int], list[int]] | None:
        """The card indices of round ``first`` on in the order they left the shoe, and each
        one's round number; ``None`` when one of those rounds was reported without cards."""
        return self._log.dealt(first)

    def __len__(self) -> int:
        """Rounds that entered the roads (void rounds excluded)."""
        return len(self._bead)

    @property
    def reported(self) -> int:
        """Rounds reported, void ones included (none is decoded to count them)."""
        return len(self._log)

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

    def good_roads(self, patterns: Sequence[Pattern] = PATTERNS) -> list[dict[str, Any]]:
        """The Good Roads the Big Road matches now (see :mod:`roads.patterns`), each with the
        round from which it has held without a break."""
        columns, cells = self.big_road.columns, self.big_road.cell_rounds
        if patterns is not PATTERNS:
            return good_roads_of(columns.sides, columns.lengths, cells, patterns)
        found, self._good = good_roads_carried(self._good, columns.sides, columns.lengths, cells)
        return found

    # -- state ------------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The whole state in the compact binary form of :mod:`roads.state`."""
        # Not self._parts(): that would make a Parts for nothing, on every write's path.
        parts = (self._log, self._composition, self._stats, self.big_road, self.derived)
        return snapshot.dump(self.tail, self._composition.decks, *parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> Scorecard:
        """Restore a scorecard from :meth:`to_bytes`; raises :class:`~roads.state.StateError`
        for bytes that are not such a state."""
        parts = snapshot.load(data)
        probe = probe_marks(parts.big_road, parts.derived)
        return cls._assemble(parts, parts.log.played(), probe)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scorecard):
            return NotImplemented
        return self.to_bytes() == other.to_bytes()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Scorecard(rounds={len(self._log)}, columns={len(self.big_road.columns.lengths)})"
