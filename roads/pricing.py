"""The exact return of every bet of a pay table (:mod:`roads.paytables`) from the cards left.

**A round's end.** :func:`roads.oddsmath.drawn_weights` weighs every way the next round can end
by who drew, whether it was a natural and both final totals: 800 cells, integers over the common
denominator ``N (N-1) ... (N-5)``. Every condition a rule may name is a function of the cell, so
a bet's first-match rules give each cell what it brings back. A pay table is compiled once
(:func:`compiled`) into the distinct (cell set, what it brings back) groups of its bets; pricing
a shoe is then one product of the 800 weights with those groups' indicators (float64 holds each
sum exactly: none passes the denominator, below ``2**53``), and each bet's return one ratio of
Python integers divided once: the float nearest the exact value.

**The first cards' pairs** come from the rank and card counts alone
(:func:`roads.odds._pair_weights`): the Player's and the Banker's first two cards pair with the
chances of any two cards of the shoe. The atoms are which hands pair (Player only, Banker only,
both) by rank, and (one hand, both hands) by rank and suit; a pair rule names a set of atoms.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm

import numpy as np

from roads.oddsmath import DRAWN_CELLS
from roads.paytables import Bet, PayTable, Rule

_CELL = np.arange(DRAWN_CELLS)
_DRAWN, _NATURAL = _CELL // 200, (_CELL // 100) % 2
_PLAYER, _BANKER = (_CELL // 10) % 10, _CELL % 10
_PLAYER_CARDS, _BANKER_CARDS = 2 + (_DRAWN >= 2), 2 + _DRAWN % 2
_WINNER = np.where(_PLAYER > _BANKER, "player", np.where(_BANKER > _PLAYER, "banker", "tie"))
#: Each condition of a round's end, as a value per cell.
_ATTRIBUTES: dict[str, np.ndarray] = {
    "winner": _WINNER,
    "natural": _NATURAL == 1,
    "total": np.maximum(_PLAYER, _BANKER),
    "player_total": _PLAYER,
    "banker_total": _BANKER,
    "player_cards": _PLAYER_CARDS,
    "banker_cards": _BANKER_CARDS,
    "cards": _PLAYER_CARDS + _BANKER_CARDS,
    "margin": np.abs(_PLAYER - _BANKER),
}
#: The main game's outcomes, as the odds' probabilities sum them (each a 0/1 column over the
#: cells): a plain win by each margin 1..9 for Player, then for Banker; a natural win for Player,
#: for Banker; a natural tie, a plain tie; a Banker win with 6. Every compiled pay table's groups
#: come after them, so one product gives both (:func:`sums`).
_PLAIN, _MARGIN = _NATURAL == 0, _PLAYER - _BANKER
MAIN_OUTCOMES = np.array(
    [_PLAIN & np.equal(_MARGIN, margin) for margin in range(1, 10)]
    + [_PLAIN & np.equal(_MARGIN, -margin) for margin in range(1, 10)]
    + [~_PLAIN & (_MARGIN > 0), ~_PLAIN & (_MARGIN < 0), ~_PLAIN & (_MARGIN == 0)]
    + [_PLAIN & (_MARGIN == 0), (_MARGIN < 0) & (_BANKER == 6)],
    dtype=np.float64,
)
_MAIN = len(MAIN_OUTCOMES)

#: The pair atoms of each kind, and which of them each value of a pair rule names.
_ATOMS = {"pair": ("player_only", "banker_only", "both"), "perfect": ("one", "both")}
_NAMES = {
    "pair": {
        "player": ("player_only", "both"),
        "banker": ("banker_only", "both"),
        "either": ("player_only", "banker_only", "both"),
        "both": ("both",),
        "one": ("player_only", "banker_only"),
    },
    "perfect": {"either": ("one", "both"), "both": ("both",), "one": ("one",)},
}


@dataclass(frozen=True, slots=True)
class Compiled:
    """A pay table ready to price: ``groups`` (800 x (23 + G) indicators: the
    :data:`MAIN_OUTCOMES`, then the round bets' cell sets), and per bet its ``kind``, its
    denominator and its (group or atom, numerator) terms: what it brings back is the sum of
    numerator x weight over denominator x total weight (a group's index counts from the first
    of the bets' own)."""

    groups: np.ndarray
    exact: np.ndarray  # groups as Python integers, for shoes beyond float64's exact sums
    bets: tuple[tuple[str, str, int, tuple[tuple[int | str, int], ...]], ...]


@lru_cache(maxsize=64)
def compiled(table: PayTable) -> Compiled:
    """``table`` compiled (once per pay table)."""
    masks: list[bytes] = []
    index: dict[bytes, int] = {}
    bets = []
    for bet in table.bets:
        shares = _round_shares(bet) if bet.kind == "round" else _pair_shares(bet)
        scale = lcm(*(back.denominator for _, back in shares)) if shares else 1
        terms = []
        for where, back in shares:
            if isinstance(where, np.ndarray):
                key = where.tobytes()
                where = index.setdefault(key, len(masks))
                if where == len(masks):
                    masks.append(key)
            terms.append((where, int(back * scale)))
        bets.append((bet.name, bet.kind, scale, tuple(terms)))
    groups = [np.frombuffer(mask, dtype=bool) for mask in masks]
    # Fortran order: the product with the weights reads each group's cells in a row.
    matrix = np.asfortranarray(np.vstack([MAIN_OUTCOMES, *groups]).T.astype(np.float64))
    return Compiled(matrix, matrix.astype(np.int64).astype(object), tuple(bets))


def _matches(rule: Rule) -> np.ndarray:
    """The cells where ``rule``'s conditions all hold."""
    where = np.ones(DRAWN_CELLS, dtype=bool)
    for name, value in rule.when:
        values = value if isinstance(value, tuple) else (value,)
        where &= np.isin(_ATTRIBUTES[name], values)
    return where


def _round_shares(bet: Bet) -> list[tuple[np.ndarray, Fraction]]:
    """Each rule's cells not taken by a rule before it, with what it brings back (at least the
    stake: a pay of 0 to 1 is a push; cells no rule takes bring nothing back)."""
    taken = np.zeros(DRAWN_CELLS, dtype=bool)
    shares = []
    for rule in bet.rules:
        mine = _matches(rule) & ~taken
        taken |= mine
        if mine.any():
            shares.append((mine, rule.back))
    return shares


def _pair_shares(bet: Bet) -> list[tuple[str, Fraction]]:
    """Each pair atom the bet's rules take first, with what it brings back."""
    taken: set[str] = set()
    shares = []
    for rule in bet.rules:
        ((_, value),) = rule.when
        for atom in _NAMES[bet.kind][value]:
            if atom not in taken:
                taken.add(atom)
                shares.append((atom, rule.back))
    return shares


def sums(plan: Compiled, drawn: np.ndarray) -> list[int]:
    """The weights of :data:`MAIN_OUTCOMES`, then of each of ``plan``'s groups, as Python
    integers: ``drawn`` from :func:`roads.oddsmath.drawn_weights` summed by one product. Each
    sum is an integer below ``2**53``, exact in float64 (beyond, the weights are Python integers
    and so is the product)."""
    groups = plan.exact if drawn.dtype == object else plan.groups
    return list(map(int, (drawn @ groups).tolist()))


def returns(
    plan: Compiled, found: list[int], denominator: int, atoms: PairAtoms
) -> dict[str, float]:
    """Every bet's return, stake included, in the order of the pay table ``plan`` was
    compiled from (:func:`compiled`): ``found`` from :func:`sums`,
    ``denominator`` from :func:`roads.oddsmath.drawn_weights`, ``atoms`` from
    :func:`pair_atoms`."""
    groups = found[_MAIN:]
    rtp = {}
    for name, kind, scale, terms in plan.bets:
        if kind == "round":
            back = sum([numerator * groups[group] for group, numerator in terms])
            rtp[name] = back / (scale * denominator)
        else:
            weights, total = atoms[kind]
            back = sum([numerator * weights[atom] for atom, numerator in terms])
            rtp[name] = back / (scale * total)
    return rtp


#: Each pair kind's atoms with their weights, and the weights' denominator.
PairAtoms = dict[str, tuple[dict[str, int], int]]


def pair_atoms(pairs: tuple[tuple[int, int], tuple[int, int], int, int]) -> PairAtoms:
    """The atoms' weights over four cards' denominator ``N (N-1) (N-2) (N-3)``, from
    :func:`roads.odds._pair_weights`' ``pairs``: Player's first two cards pair in ``pair`` of
    ``N (N-1)`` orders, so in ``pair (N-2)(N-3)`` of the four cards', less those where
    Banker's pair too (the one place this algebra is written: the odds' probabilities read it
    too)."""
    (pair, both_pairs), (perfect, both_perfect), two, four = pairs
    rest = four // two
    only = pair * rest - both_pairs
    return {
        "pair": ({"player_only": only, "banker_only": only, "both": both_pairs}, four),
        "perfect": ({"one": 2 * (perfect * rest - both_perfect), "both": both_perfect}, four),
    }
