"""Exact odds of the next round from the cards left in the shoe, and the return of every bet.

Everything here is exact: the next round is dealt by the rules from the cards left, without
replacement, and every way it can be dealt is weighed by the counts of the cards it uses. No
sampling. (The simulator in :mod:`roads.simulator` is the independent cross-check in the tests.)

**The main game.** Which hand wins, by how much and whether it was a natural depends only on the
cards' points, so the shoe is reduced to ten point classes (10, J, Q and K are one class). The
round is the joint distribution of (natural or not, Player's final total, Banker's final total)
(:func:`round_distribution`), computed by :mod:`roads.oddsmath` as 200 integer weights over the
common denominator ``N (N-1) ... (N-5)``: the weight of a sequence of cards depends only on how
many of each class it takes, so the fifth and sixth cards are drawn first and the first four are
a closed form in 10 x 10 matrices of the counts left, one small batch of matrix products for the
66 ways the shoe can stand once those cards are out. A never-seen composition costs tens of
microseconds, so nothing needs a memo; the last few thousand are kept all the same.

**Pairs** depend on the first two cards of each hand only, so they come straight from the rank
(and, for Perfect Pair, rank-and-suit) counts: the Player's first two cards are cards 1 and 3 of
the deal, which are as likely to pair as any two cards of the shoe.

Every probability and return is a ratio of integers, divided once, so each is the float nearest
its exact value.

**Payouts** follow ``DOMAIN.md``; a return (RTP) is the expected amount back per unit staked,
stake included, so 0.9894 means a house edge of 1.06%. A tie returns Player and Banker bets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import mul
from typing import Any

import numpy as np

from roads.cards import RANKS
from roads.oddsmath import drawn_weights, joint_weights
from roads.paytables import PayTable
from roads.presets import PRESETS
from roads.pricing import PairAtoms, compiled, pair_atoms, returns, sums
from roads.scorecard import Scorecard
from roads.shoe import DECK_CARDS, DEFAULT_DECKS

#: The returns (percent) seed 000 publishes for its no-commission game, fresh 8-deck shoe: an
#: exact calculator reproduces them to the published 0.01 points. Seed 004's standard Banker:
PUBLISHED_NO_COMMISSION: dict[str, float] = {
    "player": 98.76,
    "tie": 85.64,
    "banker": 98.54,
    "super_6": 86.18,
    "player_pair": 89.64,
    "banker_pair": 89.64,
    "perfect_pair": 91.95,
    "either_pair": 86.29,
    "player_bonus": 97.35,
    "banker_bonus": 90.63,
}
PUBLISHED_STANDARD_BANKER = 98.94


def points_of(cards_left: Sequence[int]) -> tuple[int, ...]:
    """Counts per point class 0..9 of 52 per-card counts (in :data:`~roads.cards.CARDS` order)."""
    ranks = _rank_counts(cards_left)
    return (ranks[9] + ranks[10] + ranks[11] + ranks[12], *ranks[:9])


def _rank_counts(cards_left: Sequence[int]) -> list[int]:
    # CARDS is rank-major, four suits a rank (four consecutive counts); A..9 are worth 1..9,
    # 10 J Q K nothing.
    card = iter(cards_left)
    return list(map(sum, zip(card, card, card, card, strict=False)))


@lru_cache(maxsize=4096)
def round_distribution(points: tuple[int, ...]) -> np.ndarray:
    """The exact joint distribution of the next round, dealt from a shoe holding ``points[v]``
    cards worth ``v``: an array ``[natural, player_total, banker_total]`` of shape (2, 10, 10)
    that sums to 1, each cell the float nearest its exact value. Needs at least six cards."""
    weights, denominator = joint_weights(tuple(points))
    joint = np.array([int(weight) / denominator for weight in weights.tolist()]).reshape(2, 10, 10)
    joint.flags.writeable = False  # shared by the memo
    return joint


@lru_cache(maxsize=1024)
def _drawn(points: tuple[int, ...]) -> tuple[np.ndarray, int]:
    """:func:`~roads.oddsmath.drawn_weights` of ``points``, kept (read-only) for the next reader
    of the same composition: what a pay table prices (:func:`roads.pricing.sums`)."""
    weights, denominator = drawn_weights(points)
    weights.flags.writeable = False  # shared by the memo
    return weights, denominator


def pair_probabilities(cards_left: tuple[int, ...]) -> dict[str, float]:
    """Chances that the first two cards of a hand pair by rank (``pair``: the same for Player
    and Banker), that both hands do (``both_pairs``), and the same for identical cards, rank and
    suit (``perfect``, ``both_perfect``), from the 52 per-card counts left."""
    (pair, both_pairs), (perfect, both_perfect), two, four = _pair_weights(cards_left)
    return {
        "pair": pair / two,
        "both_pairs": both_pairs / four,
        "perfect": perfect / two,
        "both_perfect": both_perfect / four,
    }


def _pair_weights(
    cards_left: Sequence[int], ranks: Sequence[int] | None = None
) -> tuple[tuple[int, int], tuple[int, int], int, int]:
    """Ordered ways for the Player's first two cards to pair and for both hands to, by rank and
    by card, with their denominators ``N (N-1)`` and ``N (N-1) (N-2) (N-3)``. ``ranks``: the
    counts per rank when the caller has them already."""
    if ranks is None:
        ranks = _rank_counts(cards_left)
    total = sum(ranks)  # 13 counts, not 52
    two = total * (total - 1)
    four = two * (total - 2) * (total - 3)
    return _pairs(ranks), _pairs(cards_left), two, four


def _pairs(counts: Sequence[int]) -> tuple[int, int]:
    # One hand: sum of c (c - 1). Both: sum over classes x, y of c_x (c_x - 1) c_y (c_y - 1), where
    # taking x twice first leaves c_x - 2 when y == x: (sum c (c-1))**2 plus, per class,
    # c (c-1) ((c-2)(c-3) - c (c-1)) = -4 c**3 + 10 c**2 - 6 c. Sums of powers: builtins, fast.
    squares = list(map(mul, counts, counts))
    first, second, third = sum(counts), sum(squares), sum(map(mul, squares, counts))
    one = second - first
    return one, one * one - 4 * third + 10 * second - 6 * first


@dataclass(frozen=True)
class Odds:
    """The next round's probabilities and every bet's return, for one shoe and variant."""

    variant: str
    cards_left: int
    probabilities: dict[str, Any]
    rtp: dict[str, float]

    @property
    def favourable(self) -> list[str]:
        """The bets whose return is above 100% (the player has the edge)."""
        return [bet for bet in self.rtp if self.rtp[bet] > 1]

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "probabilities": self.probabilities,
            "rtp": self.rtp,
            "favourable": self.favourable,
        }


def fresh_shoe(decks: int = DEFAULT_DECKS) -> tuple[int, ...]:
    """The 52 per-card counts of a full shoe."""
    return (decks,) * DECK_CARDS


def odds(cards_left: Sequence[int], variant: str | PayTable = "standard") -> Odds:
    """Exact odds of the next round dealt from ``cards_left`` (52 counts, in
    :data:`~roads.cards.CARDS` order) and the return of every bet of the table's pay table:
    ``variant``, a preset's name (:data:`roads.presets.PRESETS`: ``standard`` and ``speed``
    pay Banker 0.95:1, ``no_commission`` pays it 1:1 but 0.5:1 on a win with 6, and offers
    Super 6 at 15:1 ...) or a :class:`~roads.paytables.PayTable` of the table's own."""
    table = pay_table_of(variant)
    return _odds_of(*_checked(cards_left), table)


def pay_table_of(variant: str | PayTable) -> PayTable:
    """The pay table ``variant`` names (a preset), or ``variant`` itself; a ValueError for a
    name no preset has."""
    if isinstance(variant, PayTable):
        return variant
    if variant not in PRESETS:
        raise ValueError(f"variant must be one of {', '.join(PRESETS)}, not {variant!r}")
    return PRESETS[variant]


def _checked(cards_left: Sequence[int]) -> tuple[tuple[int, ...], list[int]]:
    """The 52 counts as ints and the counts per rank, or a ValueError naming what is wrong."""
    counts = tuple(map(int, cards_left))
    if len(counts) != DECK_CARDS or min(counts) < 0:
        raise ValueError("cards_left holds 52 counts, none negative")
    return counts, _rank_counts(counts)


def _odds_of(counts: tuple[int, ...], ranks: list[int], table: PayTable) -> Odds:
    points = (ranks[9] + ranks[10] + ranks[11] + ranks[12], *ranks[:9])
    drawn, denominator = _drawn(points)
    plan = compiled(table)
    found = sums(plan, drawn)  # the main game's outcomes first, then the table's groups
    pairs = _pair_weights(counts, ranks)
    atoms = pair_atoms(pairs)
    probabilities = _probabilities(found, denominator, pairs, atoms)
    rtp = returns(plan, found, denominator, atoms)
    return Odds(table.name, sum(ranks), probabilities, rtp)


def _probabilities(
    outcomes: list[int],
    d: int,
    pairs: tuple[tuple[int, int], tuple[int, int], int, int],
    atoms: PairAtoms,
) -> dict[str, Any]:
    """Every probability of the main game and the pairs, each one integer ratio divided once
    (``outcomes``: the weights of :data:`roads.pricing.MAIN_OUTCOMES` first, as
    :func:`roads.pricing.sums` gives them; ``atoms``: :func:`roads.pricing.pair_atoms` of
    ``pairs``)."""
    player_by, banker_by = outcomes[0:9], outcomes[9:18]
    player_natural, banker_natural, natural_tie, plain_tie, six = outcomes[18:23]
    player = player_natural + sum(player_by)
    banker = banker_natural + sum(banker_by)
    tie = natural_tie + plain_tie
    (pair, both_pairs), (_, both_perfect), two, four = pairs
    either = sum(atoms["pair"][0].values())
    perfect_one = atoms["perfect"][0]["one"]
    return {
        "banker": banker / d,
        "player": player / d,
        "tie": tie / d,
        "banker_six": six / d,
        "natural": (player_natural + banker_natural + natural_tie) / d,
        "player_pair": pair / two,
        "banker_pair": pair / two,
        "either_pair": either / four,
        "both_pairs": both_pairs / four,
        "perfect_pair": (perfect_one + both_perfect) / four,
        "perfect_pair_one_hand": perfect_one / four,
        "perfect_pair_both_hands": both_perfect / four,
        "player_bonus": _margins(player_natural, natural_tie, player_by, d),
        "banker_bonus": _margins(banker_natural, natural_tie, banker_by, d),
    }


def _margins(natural_win: int, natural_tie: int, by: list[int], d: int) -> dict[str, float]:
    """A side's Bonus outcomes: a win with a natural, a natural tie, a non-natural win by each
    margin 1..9."""
    weights = (natural_win, natural_tie, *by)
    return dict(zip(_MARGIN_KEYS, [weight / d for weight in weights], strict=True))


_MARGIN_KEYS = ("natural_win", "natural_tie", *(f"win_by_{points}" for points in range(1, 10)))


def cards_left_by_rank(cards_left: Sequence[int]) -> dict[str, int]:
    """Counts left per rank (``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``)."""
    return {rank: int(count) for rank, count in zip(RANKS, _rank_counts(cards_left), strict=True)}


def known_cards_left(scorecard: Scorecard) -> tuple[int, ...] | None:
    """The cards left in the shoe, or ``None`` when they are not known: some round came without
    its cards, or fewer than the six a round may need are left. Burned cards count as still in
    the shoe unless they were taken out (:meth:`Scorecard.burn`)."""
    if not scorecard.cards_known():
        return None
    left = scorecard.cards_left()
    return left if sum(left) >= 6 else None


def shoe_odds(scorecard: Scorecard, variant: str | PayTable = "standard") -> dict[str, Any]:
    """The odds of a shoe's next round as the service serves them: from the cards left when
    they are known (``composition_known``, see :func:`known_cards_left`), else from a fresh
    shoe (the same for every such shoe: computed once)."""
    left = known_cards_left(scorecard)
    if left is None:
        return dict(_fresh_shoe_odds(scorecard.decks, variant))
    return _odds_answer(left, variant, known=True)


def fresh_odds(decks: int = DEFAULT_DECKS, variant: str | PayTable = "standard") -> dict[str, Any]:
    """The odds of a fresh shoe's first round (computed once per shoe size and variant)."""
    return dict(_fresh_shoe_odds(decks, variant))


@lru_cache(maxsize=32)
def _fresh_shoe_odds(decks: int, variant: str | PayTable) -> dict[str, Any]:
    return _odds_answer(fresh_shoe(decks), variant, known=False)


def _odds_answer(left: tuple[int, ...], variant: str | PayTable, *, known: bool) -> dict[str, Any]:
    # ``left``: a scorecard's or a fresh shoe's counts, 52 ints none negative (not checked again:
    # this is every write's path; :func:`odds` checks what a caller hands it).
    table = pay_table_of(variant)
    counts, ranks = left, _rank_counts(left)
    return {
        "composition_known": known,
        "cards_left": {"total": sum(ranks), "by_rank": dict(zip(RANKS, ranks, strict=True))},
        **_odds_of(counts, ranks, table).as_dict(),
    }


def edge_of(shoe_odds: Mapping[str, Any]) -> dict[str, float]:
    """The bets with a return above 100% in an answer of :func:`shoe_odds`, with their returns;
    empty when the cards left are not known."""
    if not shoe_odds["composition_known"]:
        return {}
    return {bet: shoe_odds["rtp"][bet] for bet in shoe_odds["favourable"]}


def favourable_bets(scorecard: Scorecard, variant: str | PayTable = "standard") -> dict[str, float]:
    """The bets with a return above 100% on this shoe's next round, with their returns; empty
    when the cards left are not known."""
    left = known_cards_left(scorecard)
    if left is None:
        return {}
    result = odds(left, variant)
    return {bet: result.rtp[bet] for bet in result.favourable}
