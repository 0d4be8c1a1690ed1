"""Was the shoe shuffled? A sequential test of the dealt cards against a fair shuffle.

**What a lazy shuffle leaves.** Decks leave the maker in order: each suit runs one way, Ace to
King or King to Ace, so every card but a suit's last has a *successor*, the same suit one rank
on. A riffle cuts the stack in two and interleaves the halves, each half keeping its order; ``k``
riffles leave at most ``2**k`` runs of maker's order (rising sequences: Bayer and Diaconis), and
the cards dealt are those runs interleaved. So after few riffles most cards dealt are the
successor of a card dealt not long before, the last one dealt of its run.

**The chains.** The test follows those runs as chains: a card dealt is the successor of a
chain's *head* (it becomes that chain's head) or starts a chain of its own. Which way each suit
runs is not known, so it follows the chains for each of the 16 ways the four suits may run
(:data:`DIRECTIONS`).

**Its exact chance.** Under a fair shuffle the next card seen is equally likely to be any card
not seen yet (burned cards included: nobody saw them), so each copy has chance ``1 / T``, ``T``
the cards left. A lazy shuffle of hit rate ``a`` makes the next card the successor of a head
taken at random with chance ``a``, any card otherwise: each copy of a card that is the successor
of ``m`` of the ``H`` heads has chance ``a * m / (H * L) + (1 - a * v) / T``, ``L`` its copies
left and ``v`` the share of heads whose successor the shoe still holds. The ratio of the two has
mean 1 under a fair shuffle at every card, for each way of the suits and each rate of
:data:`RATES`; so does the average ``M`` of those ratios. By Ville's inequality a fair shuffle
makes ``M`` reach ``1 / alpha`` at *any* card of the shoe with a chance of at most ``alpha``.
:attr:`ShuffleTest.chance`, ``1 / max M`` so far, is therefore an upper bound on the chance that
a fair shuffle shows evidence this strong, valid however often it is looked at (after every
round), and :data:`ALARM` (1e-6) bounds the false alarms per fair shoe.

Four riffles leave 16 runs: each card that follows its chain has a ratio near ``52 a / 16``
(3.25 at ``a`` = 1), enough to pass the alarm within the shoe's first 16 rounds
(``benchmarks/integrity_bench.py`` counts the rounds).
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from roads.shoe import DECK_CARDS, DEFAULT_DECKS

#: Each way the four suits (by :attr:`roads.cards.Card.index` ``% 4``) may run in maker's order:
#: the rank step from a card to its successor, +1 (Ace to King) or -1 (King to Ace).
DIRECTIONS: tuple[tuple[int, ...], ...] = tuple(itertools.product((1, -1), repeat=4))
#: The hit rates a lazy shuffle is tested for (a mixture: no one rate has to be guessed).
RATES: tuple[float, ...] = (0.5, 0.75, 0.9)
#: A shoe is called unshuffled when a fair shuffle's chance of such evidence is below this.
ALARM = 1e-6
_LOG_MIXTURE = math.log(len(DIRECTIONS) * len(RATES))
_STEPS = (1, -1)


def successor(card: int, step: int) -> int | None:
    """The card one rank on from ``card`` in its suit (``step`` +1 or -1), ``None`` past the
    suit's end (a King going up, an Ace going down)."""
    rank, suit = divmod(card, 4)
    rank += step
    return rank * 4 + suit if 0 <= rank < 13 else None


#: Each card's successor, by card index and then by step (+1, -1).
SUCCESSORS: tuple[tuple[int | None, int | None], ...] = tuple(
    (successor(card, 1), successor(card, -1)) for card in range(52)
)
# Which of a suit's two chain states (suit * 2 + 0 for +1, + 1 for -1) each way reads.
_WAYS = np.array([[suit * 2 + _STEPS.index(way[suit]) for way in DIRECTIONS] for suit in range(4)])
_SELECT = np.zeros((8, len(DIRECTIONS)))
for _way in range(len(DIRECTIONS)):
    _SELECT[_WAYS[:, _way], _way] = 1.0
_RATES = np.array(RATES)
#: A row :meth:`ShuffleWatch.see` keeps for a card: the 8 states' heads, their invalid heads,
#: the card's up state, the heads it follows going up and going down, the cards left, its copies.
_ROW = 21


@dataclass(frozen=True, slots=True)
class ShuffleTest:
    """Where the test stands: ``cards`` seen, ``chained`` of them following a chain (for the
    way of the suits with the strongest evidence), and ``log_evidence``, ``log(max M)`` so far
    (0 before any evidence)."""

    cards: int
    chained: int
    log_evidence: float

    @property
    def chance(self) -> float:
        """An upper bound on the chance that a fair shuffle shows evidence this strong."""
        return min(1.0, math.exp(-self.log_evidence))

    @property
    def unshuffled(self) -> bool:
        return self.chance < ALARM

    def as_dict(self) -> dict[str, object]:
        return {
            "cards": self.cards,
            "chained": self.chained,
            "chance": self.chance,
            "unshuffled": self.unshuffled,
        }


class ShuffleWatch:
    """The test, fed the shoe's cards from its start (:meth:`see`); the evidence is taken at
    each :meth:`checkpoint` (the end of each round: Ville's bound holds at any of them).

    :meth:`see` follows the chains card by card, for each suit both ways (8 chain states: the
    16 ways of the suits each read four of them), and keeps what each card's ratios need; the
    ratios themselves are reckoned for all the ways and rates at once when the evidence is
    taken (:func:`rounds_tests` takes it at every round's end in one go)."""

    __slots__ = (
        "_chains",
        "_cut",
        "_invalid",
        "_left",
        "_logs",
        "_pointing",
        "_rows",
        "_seen",
        "_total",
    )

    def __init__(self, decks: int = DEFAULT_DECKS) -> None:
        self._left = [decks] * 52
        self._total = DECK_CARDS * decks
        # Per chain state (suit * 2 + 0 going up, + 1 going down): how many heads have each
        # card as successor, how many heads there are, how many point at a card all dealt.
        self._pointing = [[0] * 52 for _ in range(8)]
        self._chains = [0] * 8
        self._invalid = [0] * 8
        # Each card seen since the last checkpoint: the state it was dealt in (_ROW numbers).
        self._rows: list[tuple[int, ...]] = []
        self._seen = 0  # cards seen
        self._cut = 0  # cards already in the evidence
        # Each (way, rate)'s log ratio so far, each state's cards that followed a chain, and
        # the log of max M so far.
        self._logs = (np.zeros(len(DIRECTIONS) * len(RATES)), np.zeros(8), 0.0)

    @property
    def cards(self) -> int:
        return self._seen

    def copy(self) -> ShuffleWatch:
        """A watch standing where this one stands, to go on apart (the evidence's arrays are
        never changed in place: they are shared)."""
        other = ShuffleWatch.__new__(ShuffleWatch)
        other._left, other._total = self._left[:], self._total
        other._pointing = [pointing[:] for pointing in self._pointing]
        other._chains, other._invalid = self._chains[:], self._invalid[:]
        other._rows, other._seen = self._rows[:], self._seen
        other._cut, other._logs = self._cut, self._logs
        return other

    def see(self, cards: Iterable[int]) -> ShuffleWatch:
        """The next cards out of the shoe (their indices); the shoe must still hold each."""
        left, pointing, invalid = self._left, self._pointing, self._invalid
        for card in cards:
            if left[card] <= 0:
                raise ValueError(f"card {card} has no copy left in the shoe")
            up, down = (card % 4) * 2, (card % 4) * 2 + 1
            self._rows.append(
                (
                    *self._chains,
                    *invalid,
                    up,
                    pointing[up][card],
                    pointing[down][card],
                    self._total,
                    left[card],
                )
            )
            self._follow(up, card, SUCCESSORS[card][0])
            self._follow(down, card, SUCCESSORS[card][1])
            left[card] -= 1
            self._total -= 1
            self._seen += 1
            if left[card] == 0:
                invalid[up] += pointing[up][card]
                invalid[down] += pointing[down][card]
        return self

    def _follow(self, state: int, card: int, next_card: int | None) -> None:
        """One chain state after ``card``: it takes the place of a head it follows, or starts a
        chain; past its suit's end it heads none."""
        pointing = self._pointing[state]
        if pointing[card] > 0:  # the shoe held ``card``: that head was not invalid
            pointing[card] -= 1
            self._chains[state] -= 1
        if next_card is not None:
            pointing[next_card] += 1
            self._chains[state] += 1
            if self._left[next_card] == 0:
                self._invalid[state] += 1

    def checkpoint(self) -> ShuffleTest:
        """Take the evidence now (at a round's end) and return the test as it stands: what
        :meth:`checkpoints` gives at the cards seen, with the new cards' ratios summed into the
        totals at once (a write's path: one end, so no running sums)."""
        logs, chained, best = self._logs
        if self._rows:
            card_logs, card_chained = _card_logs(np.array(self._rows, dtype=float))
            logs = logs + card_logs.sum(axis=0)
            chained = chained + card_chained.sum(axis=0)
            best = max(best, float(_log_mixture(logs)))
            self._logs, self._cut = (logs, chained, best), self._seen
            self._rows.clear()  # in the evidence now
        way = int(_strongest_way(logs))
        return ShuffleTest(self._seen, int(chained @ _SELECT[:, way]), best)

    def checkpoints(self, ends: Sequence[int]) -> list[ShuffleTest]:
        """Take the evidence after each of ``ends`` cards (ascending, none before the last
        checkpoint, none past the cards seen) and return the test at each."""
        start, seen = self._cut, self.cards
        if any(not start <= end <= seen for end in ends) or list(ends) != sorted(ends):
            raise ValueError(f"checkpoints must ascend within cards {start}-{seen}: {ends}")
        if not ends:
            return []
        base_logs, base_chained, best = self._logs
        rows = np.fromiter(
            itertools.chain.from_iterable(self._rows),
            dtype=float,
            count=_ROW * (seen - start),
        ).reshape(-1, _ROW)
        logs, chained = _card_logs(rows)
        # Each checkpoint's totals: the sums up to it (row 0 of the padded sums is "none yet").
        at = np.array(ends) - start
        logs = (base_logs + _padded_cumsum(logs))[at]
        chained = (base_chained + _padded_cumsum(chained))[at]
        bests = np.maximum.accumulate(np.maximum(_log_mixture(logs), best))
        ways = _strongest_way(logs)
        following = (chained @ _SELECT)[np.arange(len(ends)), ways]
        self._logs = (logs[-1], chained[-1], float(bests[-1]))
        self._cut = ends[-1]
        del self._rows[: ends[-1] - start]  # in the evidence now
        return [
            ShuffleTest(end, int(follow), float(evidence))
            for end, follow, evidence in zip(ends, following, bests, strict=True)
        ]


def _log_mixture(logs: np.ndarray) -> np.ndarray:
    """``log M``, the log of the average ratio over every (way, rate), from each (way, rate)'s
    log ratio (the last axis), without overflow."""
    top = logs.max(axis=-1)
    return top + np.log(np.exp(logs - top[..., None]).sum(axis=-1)) - _LOG_MIXTURE


def _strongest_way(logs: np.ndarray) -> np.ndarray:
    """The way of the suits with the strongest evidence (at its best rate), from each (way,
    rate)'s log ratio (the last axis)."""
    by_way = logs.reshape(*logs.shape[:-1], len(DIRECTIONS), len(RATES))
    return by_way.max(axis=-1).argmax(axis=-1)


def _padded_cumsum(values: np.ndarray) -> np.ndarray:
    """The running sums of ``values``' rows, after a row of zeros (the sum of none)."""
    sums = np.zeros((len(values) + 1, values.shape[1]))
    np.cumsum(values, axis=0, out=sums[1:])
    return sums


def _card_logs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each card's log ratio for every (way, rate), and the chain state it followed (one-hot
    over the 8), from the rows :meth:`ShuffleWatch.see` kept."""
    n = len(rows)
    heads = rows[:, 0:8] @ _SELECT
    invalid = rows[:, 8:16] @ _SELECT
    up = rows[:, 16].astype(int)
    following = rows[:, 17:19]
    picked = following[np.arange(n)[:, None], _WAYS[up // 2] - up[:, None]]
    some = np.maximum(heads, 1.0)
    valid = np.where(heads > 0, (heads - invalid) / some, 0.0)
    share = picked / some * (rows[:, 19] / rows[:, 20])[:, None]
    ratios = 1.0 + (share - valid)[:, :, None] * _RATES
    chained = np.zeros((n, 8))
    chained[np.arange(n), up] = following[:, 0] > 0
    chained[np.arange(n), up + 1] = following[:, 1] > 0
    return np.log(ratios).reshape(n, len(DIRECTIONS) * len(RATES)), chained


def rounds_tests(rounds: Iterable[Iterable[int]], decks: int = DEFAULT_DECKS) -> list[ShuffleTest]:
    """The test at the end of each of a shoe's rounds, each the indices of its cards in dealt
    order (the evidence of all of them reckoned at once)."""
    return _watched(rounds, decks)[1]


def _watched(rounds: Iterable[Iterable[int]], decks: int) -> tuple[ShuffleWatch, list[ShuffleTest]]:
    """A watch fed ``rounds`` from the shoe's start, and its test at each round's end."""
    watch, ends = ShuffleWatch(decks), []
    for cards in rounds:
        ends.append(watch.see(cards).cards)
    return watch, watch.checkpoints(ends)


#: Watches of shoes tested lately, by (decks, the cards seen), each with its last test: a shoe's
#: next round goes on from its watch instead of following the chains again from the first card.
_LATELY: OrderedDict[tuple[int, bytes], tuple[ShuffleWatch, ShuffleTest]] = OrderedDict()
#: The shoes kept (a few KB each: a watch keeps no card already in its evidence).
LATELY_KEPT = 128


def last_round_tests(
    rounds: Sequence[Sequence[int]], decks: int = DEFAULT_DECKS
) -> tuple[ShuffleTest | None, ShuffleTest]:
    """The test at the end of the round before the last (``None``: the last is the first) and
    at the end of the last, of a shoe's rounds (each the indices of its cards in dealt order):
    what :func:`rounds_tests` gives, going on from this process's watch of the rounds before
    when it has one (a write per round, in order)."""
    before = b"".join(bytes(cards) for cards in rounds[:-1])
    found = _LATELY.get((decks, before))
    if found is not None:  # kept for a retry of this round too: go on from a copy
        _LATELY.move_to_end((decks, before))
        watch, previous = found[0].copy(), found[1]
        test = watch.see(rounds[-1]).checkpoint()
    else:
        watch, (*earlier, test) = _watched(rounds, decks)
        previous = earlier[-1] if earlier else None
    _LATELY[(decks, before + bytes(rounds[-1]))] = (watch, test)
    while len(_LATELY) > LATELY_KEPT:
        _LATELY.popitem(last=False)
    return previous, test


def rounds_test(rounds: Iterable[Iterable[int]], decks: int = DEFAULT_DECKS) -> ShuffleTest:
    """The test over a shoe's rounds, with the evidence taken at the end of each round."""
    tests = rounds_tests(rounds, decks)
    return tests[-1] if tests else ShuffleWatch(decks).checkpoint()


def alarm_round(rounds: Iterable[Iterable[int]], decks: int = DEFAULT_DECKS) -> int | None:
    """The first round (1-based; each the indices of its cards in dealt order) at whose end the
    test calls the shoe unshuffled, or ``None``."""
    tests = rounds_tests(rounds, decks)
    return next((n for n, test in enumerate(tests, start=1) if test.unshuffled), None)


def shuffle_test(cards: Iterable[int], decks: int = DEFAULT_DECKS) -> ShuffleTest:
    """The test over a sequence of dealt cards (indices) from the shoe's start, the evidence
    taken once at its end."""
    return ShuffleWatch(decks).see(cards).checkpoint()
