"""A brute force for pay tables, independent of :mod:`roads.pricing` and :mod:`roads.oddsmath`:
every order the next round's cards can be dealt in from a small shoe, card by card by the
drawing rules, each weighed by the ordered ways to take those cards, and every bet's rules read
off each deal by a plain reading of :mod:`roads.paytables`' conditions. Exact, as fractions."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from roads.paytables import PayTable, Rule
from roads.rules import banker_draws, player_draws

Shoe = dict[tuple[int, str], int]  # (rank 1-13, suit) -> copies left


def point(rank: int) -> int:
    return rank if rank < 10 else 0


def _deals(shoe: Shoe, length: int) -> Iterator[tuple[tuple[tuple[int, str], ...], int]]:
    """Every ordered sequence of ``length`` cards from ``shoe``, with its number of ways."""
    if length == 0:
        yield (), 1
        return
    for card, copies in list(shoe.items()):
        if copies:
            shoe[card] -= 1
            for rest, ways in _deals(shoe, length - 1):
                yield (card, *rest), copies * ways
            shoe[card] += 1


def round_outcomes(shoe: Shoe) -> tuple[list[tuple[dict[str, Any], int]], int]:
    """Every end of the next round (its facts, as a rule reads them) with its weight over the
    common denominator ``N (N-1) ... (N-5)``, and that denominator."""
    total = sum(shoe.values())
    classes: Shoe = {}  # a round's end depends on the cards' points alone
    for (rank, _), copies in shoe.items():
        classes[(point(rank), "")] = classes.get((point(rank), ""), 0) + copies
    found: list[tuple[dict[str, Any], int]] = []
    for four, ways in _deals(dict(classes), 4):
        left = dict(classes)
        for card in four:
            left[card] -= 1
        after_four = sum(left.values())
        p1, b1, p2, b2 = (point(rank) for rank, _ in four)
        player, banker = (p1 + p2) % 10, (b1 + b2) % 10
        natural = player >= 8 or banker >= 8
        for more, more_ways in _draws(left, player, banker, natural):
            player_cards = 3 if more and more[0][0] == "P" else 2
            banker_cards = 3 if more and more[-1][0] == "B" else 2
            final_p = (player + sum(p for side, p in more if side == "P")) % 10
            final_b = (banker + sum(p for side, p in more if side == "B")) % 10
            rest = after_four - len(more)
            filler = 1
            for _ in range(2 - len(more)):
                filler *= rest
                rest -= 1
            facts = _facts(final_p, final_b, natural, player_cards, banker_cards)
            found.append((facts, ways * more_ways * filler))
    return found, _falling(total, 6)


def _draws(
    left: Shoe, player: int, banker: int, natural: bool
) -> Iterator[tuple[tuple[tuple[str, int], ...], int]]:
    """The third cards, by the rules: (side, point) each, with their ways."""
    if natural:
        yield (), 1
        return
    if player_draws(player):
        for card, copies in list(left.items()):
            if not copies:
                continue
            third = point(card[0])
            if banker_draws(banker, third):
                left[card] -= 1
                for other, others in left.items():
                    if others:
                        yield (("P", third), ("B", point(other[0]))), copies * others
                left[card] += 1
            else:
                yield (("P", third),), copies
    elif banker_draws(banker, None):
        for card, copies in left.items():
            if copies:
                yield (("B", point(card[0])),), copies
    else:
        yield (), 1


def _facts(player: int, banker: int, natural: bool, pc: int, bc: int) -> dict[str, Any]:
    winner = "player" if player > banker else "banker" if banker > player else "tie"
    return {
        "winner": winner,
        "natural": natural,
        "total": max(player, banker),
        "player_total": player,
        "banker_total": banker,
        "player_cards": pc,
        "banker_cards": bc,
        "cards": pc + bc,
        "margin": abs(player - banker),
    }


def pair_outcomes(shoe: Shoe) -> tuple[list[tuple[dict[str, bool], int]], int]:
    """Every deal of the first four cards (P, B, P, B): which hands pair by rank and by card,
    with its ways, over ``N (N-1) (N-2) (N-3)``."""
    found = []
    for (p1, b1, p2, b2), ways in _deals(dict(shoe), 4):
        found.append(
            (
                {
                    "player_pair": p1[0] == p2[0],
                    "banker_pair": b1[0] == b2[0],
                    "player_perfect": p1 == p2,
                    "banker_perfect": b1 == b2,
                },
                ways,
            )
        )
    return found, _falling(sum(shoe.values()), 4)


def _falling(n: int, k: int) -> int:
    product = 1
    for i in range(k):
        product *= n - i
    return product


def meets(rule: Rule, facts: dict[str, Any]) -> bool:
    """Whether a deal's facts meet every condition of ``rule`` (a pair rule: its reading of
    the four first cards)."""
    for name, value in rule.when:
        if name == "pair":
            p, b = facts["player_pair"], facts["banker_pair"]
            hit = {"player": p, "banker": b, "either": p or b, "both": p and b, "one": p != b}
            if not hit[value]:
                return False
        elif name == "perfect":
            p, b = facts["player_perfect"], facts["banker_perfect"]
            if not {"either": p or b, "both": p and b, "one": p != b}[value]:
                return False
        elif facts[name] not in (value if isinstance(value, tuple) else (value,)):
            return False
    return True


def brute_returns(table: PayTable, shoe: Shoe) -> dict[str, Fraction]:
    """Every bet's exact return, stake included, by brute force."""
    rounds, round_total = round_outcomes(shoe)
    pairs, pair_total = pair_outcomes(shoe)
    found = {}
    for bet in table.bets:
        deals, total = (rounds, round_total) if bet.kind == "round" else (pairs, pair_total)
        back = Fraction(0)
        for facts, ways in deals:
            rule = next((rule for rule in bet.rules if meets(rule, facts)), None)
            if rule is not None:
                back += rule.back * ways
        found[bet.name] = back / total
    return found
