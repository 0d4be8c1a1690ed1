"""The odds' kernel (roads/oddsmath.py) in exact integers, against an independent enumeration."""

from fractions import Fraction
from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from roads.odds import odds, pair_probabilities, points_of, round_distribution
from roads.oddsmath import EXACT_FLOAT_CARDS, _kernel, drawn_weights, joint_weights
from roads.rules import banker_draws, player_draws


def enumerated_weights(points: tuple[int, ...]) -> list[int]:
    """:func:`enumerated_drawn_weights`, whoever drew."""
    drawn = enumerated_drawn_weights(points)
    return [sum(drawn[group * 200 + cell] for group in range(4)) for cell in range(200)]


def enumerated_drawn_weights(points: tuple[int, ...]) -> list[int]:
    """Every deal of the next round by point class, card by card, each weighed by the ordered
    ways to take those cards (a falling product), then by the ways to take the cards a shorter
    round leaves undealt, so that all share the denominator N (N-1) ... (N-5); filed by which
    hands drew (200 cells each: Player drew 2, Banker 1)."""
    counts = list(points)
    cells = [0] * 800

    def ways(sequence: tuple[int, ...]) -> int:
        left, weight = list(counts), 1
        for card in sequence:
            weight *= left[card]
            left[card] -= 1
        rest = sum(left)
        for _ in range(6 - len(sequence)):
            weight *= rest
            rest -= 1
        return weight

    for a, b, c, d in product(range(10), repeat=4):
        player, banker = (a + c) % 10, (b + d) % 10
        if player >= 8 or banker >= 8:
            cells[100 + player * 10 + banker] += ways((a, b, c, d))
        elif player_draws(player):
            for e in range(10):
                if banker_draws(banker, e):
                    for f in range(10):
                        final = ((player + e) % 10) * 10 + (banker + f) % 10
                        cells[600 + final] += ways((a, b, c, d, e, f))
                else:
                    cells[400 + ((player + e) % 10) * 10 + banker] += ways((a, b, c, d, e))
        elif banker_draws(banker, None):
            for f in range(10):
                cells[200 + player * 10 + (banker + f) % 10] += ways((a, b, c, d, f))
        else:
            cells[player * 10 + banker] += ways((a, b, c, d))
    return cells


small_points = st.lists(st.integers(0, 3), min_size=10, max_size=10).filter(
    lambda points: 6 <= sum(points) <= 16
)


@settings(max_examples=15, deadline=None)
@given(small_points)
def test_the_integer_weights_equal_an_enumeration_of_every_deal(points):
    points = tuple(points)
    expected = enumerated_weights(points)
    weights, denominator = joint_weights(points)
    assert [int(weight) for weight in weights] == expected
    assert sum(expected) == denominator
    # By who drew, too; the Python-integer path (for shoes beyond float64's exact range) gives
    # the same integers.
    drawn, _ = drawn_weights(points)
    assert [int(weight) for weight in drawn] == enumerated_drawn_weights(points)
    exact = _kernel(np.array((*points, sum(points) - 4), dtype=object))
    assert exact.tolist() == enumerated_drawn_weights(points)
    # Each probability is the float nearest the exact ratio.
    joint = round_distribution(points).ravel()
    assert joint.tolist() == [float(Fraction(weight, denominator)) for weight in expected]


def test_a_worked_example_the_smallest_shoe():
    # Six cards: four 0s and two 9s. Player and Banker each get two cards; any 9 makes a natural.
    # No 9 in the first four (4 * 3 * 2 * 1 ways, then 2 * 1 for the two 9s left, of 720): 0-0
    # against 0-0, both draw, Player's third then Banker's third are the two 9s: a plain 9-9 tie.
    weights, denominator = joint_weights((4, 0, 0, 0, 0, 0, 0, 0, 0, 2))
    assert denominator == 720
    assert int(weights[99]) == 48  # plain, Player 9, Banker 9
    assert sum(int(weights[cell]) for cell in range(100, 200)) == 720 - 48


def test_big_shoes_are_summed_in_python_integers_and_still_add_up():
    points = points_of((9,) * 52)  # nine decks: 468 cards, beyond float64's exact sums
    assert sum(points) > EXACT_FLOAT_CARDS
    weights, denominator = joint_weights(points)
    assert weights.dtype == object and sum(weights) == denominator
    eight = round_distribution(points_of((8,) * 52))
    assert np.abs(round_distribution(points) - eight).max() < 1e-3


def test_pairs_are_exact_ratios():
    cards_left = [0] * 52
    cards_left[0], cards_left[1], cards_left[4], cards_left[50] = 3, 1, 2, 1  # AS AS AS AH 2S 2S KD
    # Ordered pairs of distinct cards: 7 * 6 = 42. Same rank: aces 4*3, twos 2*1. Same card:
    # AS 3*2, 2S 2*1.
    pairs = pair_probabilities(tuple(cards_left))
    assert pairs["pair"] == float(Fraction(14, 42))
    assert pairs["perfect"] == float(Fraction(8, 42))
    # Both hands: four ordered distinct cards (7*6*5*4 = 840), cards 1 and 3 a pair, 2 and 4 too.
    both = both_perfect = 0
    deck = [index for index, count in enumerate(cards_left) for _ in range(count)]
    for one, two, three, four in product(range(7), repeat=4):
        if len({one, two, three, four}) == 4:
            p, b = (deck[one], deck[three]), (deck[two], deck[four])
            both += p[0] // 4 == p[1] // 4 and b[0] // 4 == b[1] // 4
            both_perfect += p[0] == p[1] and b[0] == b[1]
    assert pairs["both_pairs"] == float(Fraction(both, 840))
    assert pairs["both_perfect"] == float(Fraction(both_perfect, 840))


def test_returns_are_exact_ratios():
    # A fresh 8-deck shoe: the standard Banker return is (1.95 banker + tie), divided once.
    weights, denominator = joint_weights(points_of((8,) * 52))
    cells = [int(weight) for weight in weights]
    banker = sum(
        cells[n * 100 + p * 10 + b] for n in (0, 1) for p in range(10) for b in range(p + 1, 10)
    )
    tie = sum(cells[n * 100 + p * 11] for n in (0, 1) for p in range(10))
    expected = Fraction(195 * banker + 100 * tie, 100 * denominator)
    assert odds((8,) * 52).rtp["banker"] == float(expected)
