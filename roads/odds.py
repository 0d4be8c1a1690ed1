"""Exact odds of the next round from the cards left in the shoe, and the return of every bet.

Everything here is exact: the next round is dealt by the rules from the cards left, without
replacement, and every way it can be dealt is weighed by the counts of the cards it uses. No
sampling. (The simulator in :mod:`roads.simulator` is the independent cross-check in the tests.)

**The main game.** Which hand wins, by how much and whether it was a natural depends only on the
cards' points, so the shoe is reduced to ten point classes (10, J, Q and K are one class). The
round is the joint distribution of (natural or not, Player's final total, Banker's final total)
(:func:`round_distribution`), computed in three stages:

1. the first four cards (P, B, P, B): 10^4 ordered point sequences, each weighed by the falling
   product of the counts left; grouped by the two-card totals (Player, Banker);
2. a fifth card e, when the rules draw one: its chance given the first four is
   ``(n[e] - r[e]) / (N - 4)`` where ``r`` counts the first four cards of each class. That is
   linear in ``r``, so each group needs only its total weight ``Q`` and first moments
   ``R[e] = sum(P4 * r[e])``;
3. a sixth card f: quadratic in ``r``, so the groups' second moments ``S[e, f]`` complete it.

The moments are sums over the 10^4 four-card sequences whose structure never changes (``r[e]``
is a sum over the four positions, so they are one- and two-position marginals per group); only
the weights depend on the shoe, so a composition costs a few array passes, a few milliseconds at
most, and it is memoized on the composition.

**Pairs** depend on the first two cards of each hand only, so they come straight from the rank
(and, for Perfect Pair, rank-and-suit) counts: the Player's first two cards are cards 1 and 3 of
the deal, which are as likely to pair as any two cards of the shoe.

**Payouts** follow ``DOMAIN.md``; a return (RTP) is the expected amount back per unit staked,
stake included, so 0.9894 means a house edge of 1.06%. A tie returns Player and Banker bets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from roads.cards import CARDS, RANKS
from roads.rules import banker_draws, player_draws
from roads.scorecard import Scorecard
from roads.shoe import DECK_CARDS, DEFAULT_DECKS
from roads.variants import OFFERED, VARIANTS

#: Player / Banker Bonus: what a non-natural win by each margin pays (to 1); smaller margins lose.
BONUS_PAYS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
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

# -- the fixed structure of the first four cards -----------------------------------------------

_A, _B, _C, _D = (axis.ravel() for axis in np.indices((10, 10, 10, 10)))
# How many earlier cards of the sequence share each card's class (for falling counts).
_SEEN_B = (_B == _A).astype(np.int64)
_SEEN_C = (_C == _A).astype(np.int64) + (_C == _B)
_SEEN_D = (_D == _A).astype(np.int64) + (_D == _B) + (_D == _C)
_GROUP = ((_A + _C) % 10) * 10 + (_B + _D) % 10  # Player two-card total * 10 + Banker's
# r[e] = sum over the four positions i of [x_i == e], so the moments are sums of one-position and
# two-position marginals within each group: bincount indexes for them.
_POSITIONS = (_A, _B, _C, _D)
_R_INDEX = np.concatenate([_GROUP * 10 + x for x in _POSITIONS])
_S_INDEX = np.concatenate([_GROUP * 100 + x * 10 + y for x in _POSITIONS for y in _POSITIONS])


def _destinations() -> tuple[np.ndarray, ...]:
    """For every way a round ends, which cell of the joint distribution it adds to.

    Cells are ``natural * 100 + player_total * 10 + banker_total``; -1 where the rules do not
    lead (that many cards are not dealt). Returned for four-card ends (per group), five-card ends
    (per group and fifth card) and six-card ends (per group, fifth and sixth card).
    """
    four = np.full(100, -1)
    five = np.full((100, 10), -1)
    six = np.full((100, 10, 10), -1)
    for player in range(10):
        for banker in range(10):
            group = player * 10 + banker
            if player >= 8 or banker >= 8:
                four[group] = 100 + group
            elif player_draws(player):
                for e in range(10):
                    final = (player + e) % 10
                    if banker_draws(banker, e):
                        for f in range(10):
                            six[group, e, f] = final * 10 + (banker + f) % 10
                    else:
                        five[group, e] = final * 10 + banker
            elif banker_draws(banker, None):
                for e in range(10):
                    five[group, e] = player * 10 + (banker + e) % 10
            else:
                four[group] = group
    return four, five, six


_TO4, _TO5, _TO6 = _destinations()
_IS4, _IS5, _IS6 = _TO4 >= 0, _TO5 >= 0, _TO6 >= 0
_EYE = np.eye(10)


def points_of(cards_left: Sequence[int]) -> tuple[int, ...]:
    """Counts per point class 0..9 of 52 per-card counts (in :data:`~roads.cards.CARDS` order)."""
    points = [0] * 10
    for card, count in zip(CARDS, cards_left, strict=True):
        points[card.points] += count
    return tuple(points)


@lru_cache(maxsize=4096)
def round_distribution(points: tuple[int, ...]) -> np.ndarray:
    """The exact joint distribution of the next round, dealt from a shoe holding ``points[v]``
    cards worth ``v``: an array ``[natural, player_total, banker_total]`` of shape (2, 10, 10)
    that sums to 1. Needs at least six cards."""
    n = np.asarray(points, dtype=np.float64)
    total = float(n.sum())
    if total < 6:
        raise ValueError(f"a round needs up to 6 cards; the shoe holds {total:.0f}")
    weight = n[_A] * (n[_B] - _SEEN_B) * (n[_C] - _SEEN_C) * (n[_D] - _SEEN_D)
    weight = weight / (total * (total - 1) * (total - 2) * (total - 3))
    q = np.bincount(_GROUP, weights=weight, minlength=100)
    r = np.bincount(_R_INDEX, weights=np.tile(weight, 4), minlength=1000).reshape(100, 10)
    s = np.bincount(_S_INDEX, weights=np.tile(weight, 16), minlength=10_000).reshape(100, 10, 10)
    # Fifth card e: sum over the group of P4 * (n[e] - r[e]) / (N - 4).
    fifth = n[None, :] * q[:, None] - r  # (100, 10), before dividing
    sixth = (
        n[None, :, None] * n[None, None, :] * q[:, None, None]
        - n[None, :, None] * r[:, None, :]
        - n[None, None, :] * r[:, :, None]
        + s
        - _EYE[None] * fifth[:, :, None]
    )
    joint = np.bincount(_TO4[_IS4], weights=q[_IS4], minlength=200)
    joint += np.bincount(_TO5[_IS5], weights=fifth[_IS5] / (total - 4), minlength=200)
    joint += np.bincount(
        _TO6[_IS6], weights=sixth[_IS6] / ((total - 4) * (total - 5)), minlength=200
    )
    joint = joint.reshape(2, 10, 10)
    joint.flags.writeable = False  # shared by the memo
    return joint


@lru_cache(maxsize=4096)
def pair_probabilities(cards_left: tuple[int, ...]) -> dict[str, float]:
    """Chances that the first two cards of a hand pair by rank (``pair``: the same for Player
    and Banker), that both hands do (``both_pairs``), and the same for identical cards, rank and
    suit (``perfect``, ``both_perfect``), from the 52 per-card counts left."""
    cards = np.asarray(cards_left, dtype=np.float64)
    ranks = cards.reshape(13, 4).sum(axis=1)
    total = float(cards.sum())
    two = total * (total - 1)
    four = two * (total - 2) * (total - 3)

    def pairs(counts: np.ndarray) -> tuple[float, float]:
        same = counts * (counts - 1)
        # Both hands: sum over classes x, y of same[x] * same'[y], where taking x twice first
        # leaves two fewer of x when y == x.
        both = same.sum() ** 2 - (same**2).sum() + (same * (counts - 2) * (counts - 3)).sum()
        return float(same.sum() / two), float(both / four)

    pair, both_pairs = pairs(ranks)
    perfect, both_perfect = pairs(cards)
    return {
        "pair": pair,
        "both_pairs": both_pairs,
        "perfect": perfect,
        "both_perfect": both_perfect,
    }


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


def odds(cards_left: Sequence[int], variant: str = "standard") -> Odds:
    """Exact odds of the next round dealt from ``cards_left`` (52 counts, in
    :data:`~roads.cards.CARDS` order) and the return of every bet the variant's tables offer
    (:data:`OFFERED`): ``standard`` and ``speed`` pay Banker 0.95:1, ``no_commission`` pays it
    1:1 but 0.5:1 on a win with 6, and offers Super 6 (15:1)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    counts = tuple(int(count) for count in cards_left)
    if len(counts) != DECK_CARDS or min(counts) < 0:
        raise ValueError("cards_left holds 52 counts, none negative")
    joint = round_distribution(points_of(counts))
    pairs = pair_probabilities(counts)
    probabilities = _probabilities(joint, pairs)
    returns = _returns(probabilities, variant)
    rtp = {bet: returns[bet] for bet in OFFERED[variant]}
    return Odds(variant, sum(counts), probabilities, rtp)


def _probabilities(joint: np.ndarray, pairs: Mapping[str, float]) -> dict[str, Any]:
    player, banker = np.indices((10, 10))
    wins_player, wins_banker, tie = player > banker, banker > player, player == banker
    plain, natural = joint[0], joint[1]
    either = 2 * pairs["pair"] - pairs["both_pairs"]
    perfect_one = 2 * pairs["perfect"] - 2 * pairs["both_perfect"]
    return {
        "banker": float(joint[:, wins_banker].sum()),
        "player": float(joint[:, wins_player].sum()),
        "tie": float(joint[:, tie].sum()),
        "banker_six": float(joint[:, wins_banker & (banker == 6)].sum()),
        "natural": float(natural.sum()),
        "player_pair": pairs["pair"],
        "banker_pair": pairs["pair"],
        "either_pair": either,
        "both_pairs": pairs["both_pairs"],
        "perfect_pair": perfect_one + pairs["both_perfect"],
        "perfect_pair_one_hand": perfect_one,
        "perfect_pair_both_hands": pairs["both_perfect"],
        "player_bonus": _margins(plain, natural, wins_player, player - banker),
        "banker_bonus": _margins(plain, natural, wins_banker, banker - player),
    }


def _margins(
    plain: np.ndarray, natural: np.ndarray, wins: np.ndarray, margin: np.ndarray
) -> dict[str, float]:
    """A side's Bonus outcomes: a win with a natural, a natural tie, a non-natural win by each
    margin 1..9."""
    outcomes = {
        "natural_win": float(natural[wins].sum()),
        "natural_tie": float(np.trace(natural)),
    }
    for points in range(1, 10):
        outcomes[f"win_by_{points}"] = float(plain[wins & (margin == points)].sum())
    return outcomes


def _returns(p: Mapping[str, Any], variant: str) -> dict[str, float]:
    if variant == "no_commission":
        banker = 2 * (p["banker"] - p["banker_six"]) + 1.5 * p["banker_six"] + p["tie"]
    else:
        banker = 1.95 * p["banker"] + p["tie"]
    return {
        "player": 2 * p["player"] + p["tie"],
        "banker": banker,
        "tie": 9 * p["tie"],
        "super_6": 16 * p["banker_six"],
        "player_pair": 12 * p["player_pair"],
        "banker_pair": 12 * p["banker_pair"],
        "either_pair": 6 * p["either_pair"],
        "perfect_pair": 26 * p["perfect_pair_one_hand"] + 201 * p["perfect_pair_both_hands"],
        "player_bonus": _bonus_return(p["player_bonus"]),
        "banker_bonus": _bonus_return(p["banker_bonus"]),
    }


def _bonus_return(outcomes: Mapping[str, float]) -> float:
    """A natural win pays 1:1, a natural tie is returned, a non-natural win by 4..9 pays
    :data:`BONUS_PAYS`; everything else loses."""
    back = 2 * outcomes["natural_win"] + outcomes["natural_tie"]
    for margin, pays in BONUS_PAYS.items():
        back += (pays + 1) * outcomes[f"win_by_{margin}"]
    return back


def cards_left_by_rank(cards_left: Sequence[int]) -> dict[str, int]:
    """Counts left per rank (``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``)."""
    return {rank: int(sum(cards_left[4 * i : 4 * i + 4])) for i, rank in enumerate(RANKS)}


def known_cards_left(scorecard: Scorecard) -> tuple[int, ...] | None:
    """The cards left in the shoe, or ``None`` when they are not known: some round came without
    its cards, or fewer than the six a round may need are left. Burn cards are never reported,
    so they count as still in the shoe."""
    if not scorecard.cards_known():
        return None
    left = scorecard.cards_left()
    return left if sum(left) >= 6 else None


def shoe_odds(scorecard: Scorecard, variant: str = "standard") -> dict[str, Any]:
    """The odds of a shoe's next round as the service serves them: from the cards left when
    they are known (``composition_known``, see :func:`known_cards_left`), else from a fresh
    shoe (the same for every such shoe: computed once)."""
    left = known_cards_left(scorecard)
    if left is None:
        return dict(_fresh_shoe_odds(scorecard.decks, variant))
    return _odds_answer(left, variant, known=True)


def fresh_odds(decks: int = DEFAULT_DECKS, variant: str = "standard") -> dict[str, Any]:
    """The odds of a fresh shoe's first round (computed once per shoe size and variant)."""
    return dict(_fresh_shoe_odds(decks, variant))


@lru_cache(maxsize=32)
def _fresh_shoe_odds(decks: int, variant: str) -> dict[str, Any]:
    return _odds_answer(fresh_shoe(decks), variant, known=False)


def _odds_answer(left: Sequence[int], variant: str, *, known: bool) -> dict[str, Any]:
    return {
        "composition_known": known,
        "cards_left": {"total": sum(left), "by_rank": cards_left_by_rank(left)},
        **odds(left, variant).as_dict(),
    }


def edge_of(shoe_odds: Mapping[str, Any]) -> dict[str, float]:
    """The bets with a return above 100% in an answer of :func:`shoe_odds`, with their returns;
    empty when the cards left are not known."""
    if not shoe_odds["composition_known"]:
        return {}
    return {bet: shoe_odds["rtp"][bet] for bet in shoe_odds["favourable"]}


def favourable_bets(scorecard: Scorecard, variant: str = "standard") -> dict[str, float]:
    """The bets with a return above 100% on this shoe's next round, with their returns; empty
    when the cards left are not known."""
    left = known_cards_left(scorecard)
    if left is None:
        return {}
    result = odds(left, variant)
    return {bet: result.rtp[bet] for bet in result.favourable}
