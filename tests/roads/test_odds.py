"""Exact odds (roads/odds.py): the published figures, a brute-force reference, the simulator."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads.cards import CARDS
from roads.odds import (
    PUBLISHED_NO_COMMISSION,
    PUBLISHED_STANDARD_BANKER,
    cards_left_by_rank,
    fresh_shoe,
    odds,
    pair_probabilities,
    points_of,
    round_distribution,
)
from roads.rules import banker_draws, deal_hands, player_draws
from roads.variants import OFFERED


@pytest.mark.parametrize(("bet", "percent"), PUBLISHED_NO_COMMISSION.items())
def test_a_fresh_shoe_reproduces_the_published_no_commission_table(bet, percent):
    # The published figures are rounded to 0.01 points: the exact value is within half of that.
    assert abs(100 * odds(fresh_shoe(), "no_commission").rtp[bet] - percent) <= 0.005


def test_a_fresh_shoe_reproduces_the_standard_banker_return():
    banker = odds(fresh_shoe(), "standard").rtp["banker"]
    assert abs(100 * banker - PUBLISHED_STANDARD_BANKER) <= 0.005
    assert odds(fresh_shoe(), "speed").rtp == odds(fresh_shoe(), "standard").rtp


def test_fresh_shoe_probabilities_are_the_well_known_ones():
    p = odds(fresh_shoe()).probabilities
    assert p["banker"] == pytest.approx(0.458597, abs=1e-6)
    assert p["player"] == pytest.approx(0.446247, abs=1e-6)
    assert p["tie"] == pytest.approx(0.095156, abs=1e-6)
    assert p["banker"] + p["player"] + p["tie"] == pytest.approx(1, abs=1e-12)
    assert odds(fresh_shoe()).favourable == []


# -- a brute-force reference: every deal of a small shoe, card by card, in exact fractions ----


def brute_force(counts: dict[int, int]) -> dict:
    """Every way the next round can be dealt from ``counts`` (card index -> copies), weighed
    exactly; returns the joint distribution and the pair chances."""
    joint: dict[tuple[int, int, int], Fraction] = {}
    pairs = {"player_pair": Fraction(0), "banker_pair": Fraction(0), "both_pairs": Fraction(0)}
    pairs |= {"player_perfect": Fraction(0), "both_perfect": Fraction(0)}
    left = dict(counts)

    def draws():
        total = sum(left.values())
        for index, count in list(left.items()):
            if count:
                yield index, Fraction(count, total)

    def take(index):
        left[index] -= 1

    def put(index):
        left[index] += 1

    def finish(weight, player, banker):
        pt = sum(CARDS[i].points for i in player) % 10
        bt = sum(CARDS[i].points for i in banker) % 10
        natural = len(player) == len(banker) == 2 and (pt >= 8 or bt >= 8)
        key = (int(natural), pt, bt)
        joint[key] = joint.get(key, Fraction(0)) + weight

    def one_more(weight, cards):
        """Every next card, each with its chance, then on with the deal."""
        for index, chance in draws():
            take(index)
            deal(weight * chance, [*cards, index])
            put(index)

    def deal(weight, cards):
        if len(cards) < 4:
            return one_more(weight, cards)
        p1, b1, p2, b2 = cards[:4]
        if len(cards) == 4:
            player_pair = CARDS[p1].rank == CARDS[p2].rank
            banker_pair = CARDS[b1].rank == CARDS[b2].rank
            pairs["player_pair"] += weight * player_pair
            pairs["banker_pair"] += weight * banker_pair
            pairs["both_pairs"] += weight * (player_pair and banker_pair)
            pairs["player_perfect"] += weight * (p1 == p2)
            pairs["both_perfect"] += weight * (p1 == p2 and b1 == b2)
        pt = (CARDS[p1].points + CARDS[p2].points) % 10
        bt = (CARDS[b1].points + CARDS[b2].points) % 10
        if pt >= 8 or bt >= 8:
            return finish(weight, [p1, p2], [b1, b2])
        if player_draws(pt):
            if len(cards) == 4:
                return one_more(weight, cards)
            p3 = cards[4]
            if banker_draws(bt, CARDS[p3].points):
                if len(cards) == 5:
                    return one_more(weight, cards)
                return finish(weight, [p1, p2, p3], [b1, b2, cards[5]])
            return finish(weight, [p1, p2, p3], [b1, b2])
        if banker_draws(bt, None):
            if len(cards) == 4:
                return one_more(weight, cards)
            return finish(weight, [p1, p2], [b1, b2, cards[4]])
        return finish(weight, [p1, p2], [b1, b2])

    deal(Fraction(1), [])
    return {"joint": joint, **pairs}


small_shoes = st.dictionaries(st.integers(0, 51), st.integers(1, 3), min_size=3, max_size=6).filter(
    lambda counts: 6 <= sum(counts.values()) <= 11
)


@settings(max_examples=40, deadline=None)
@given(small_shoes)
def test_the_exact_odds_equal_a_brute_force_enumeration(counts):
    cards_left = [counts.get(index, 0) for index in range(52)]
    expected = brute_force(counts)
    joint = round_distribution(points_of(cards_left))
    for natural in (0, 1):
        for player in range(10):
            for banker in range(10):
                exact = expected["joint"].get((natural, player, banker), Fraction(0))
                assert joint[natural, player, banker] == pytest.approx(float(exact), abs=1e-12)
    pairs = pair_probabilities(tuple(cards_left))
    assert pairs["pair"] == pytest.approx(float(expected["player_pair"]), abs=1e-12)
    assert pairs["pair"] == pytest.approx(float(expected["banker_pair"]), abs=1e-12)
    assert pairs["both_pairs"] == pytest.approx(float(expected["both_pairs"]), abs=1e-12)
    assert pairs["perfect"] == pytest.approx(float(expected["player_perfect"]), abs=1e-12)
    assert pairs["both_perfect"] == pytest.approx(float(expected["both_perfect"]), abs=1e-12)


@given(st.lists(st.integers(0, 8), min_size=52, max_size=52).filter(lambda c: sum(c) >= 6))
def test_probabilities_add_up_for_any_composition(cards_left):
    result = odds(cards_left, "no_commission")
    p = result.probabilities
    assert p["banker"] + p["player"] + p["tie"] == pytest.approx(1, abs=1e-9)
    assert 0 <= p["banker_six"] <= p["banker"] + 1e-12
    bonus = p["player_bonus"]
    assert bonus["natural_win"] + sum(bonus[f"win_by_{m}"] for m in range(1, 10)) == (
        pytest.approx(p["player"], abs=1e-9)
    )
    assert set(result.rtp) == set(OFFERED["no_commission"])
    assert all(rtp >= 0 for rtp in result.rtp.values())


def test_a_shoe_rich_in_pairs_favours_the_pair_bets():
    # Only two ranks left: every other two cards pair.
    cards_left = [0] * 52
    for index in range(4):
        cards_left[index] = 8  # aces
        cards_left[4 + index] = 8  # twos
    result = odds(cards_left)
    assert result.rtp["player_pair"] > 1 and "player_pair" in result.favourable


def test_the_simulator_agrees_with_the_exact_odds_of_a_depleted_shoe():
    # An independent check: deal the next round many times from shuffles of the cards left.
    rng = random.Random(5)
    cards_left = [8] * 52
    for index in rng.sample(range(52), 30):  # deplete a few kinds, the big cards more
        cards_left[index] -= rng.randint(2, 8)
    for index in range(32, 36):  # 9s
        cards_left[index] = 1
    cards = [CARDS[i] for i, count in enumerate(cards_left) for _ in range(count)]
    exact = odds(cards_left).probabilities
    trials = 20_000
    seen = {"B": 0, "P": 0, "T": 0, "pair": 0}
    for _ in range(trials):
        deck = rng.sample(cards, 6)
        player, banker = deal_hands(iter(deck).__next__)
        pt = sum(c.points for c in player) % 10
        bt = sum(c.points for c in banker) % 10
        seen["B" if bt > pt else "P" if pt > bt else "T"] += 1
        seen["pair"] += player[0].rank == player[1].rank
    for key, p in (("B", exact["banker"]), ("P", exact["player"]), ("T", exact["tie"])):
        se = (p * (1 - p) / trials) ** 0.5
        assert abs(seen[key] / trials - p) < 4 * se, key
    p = exact["player_pair"]
    assert abs(seen["pair"] / trials - p) < 4 * (p * (1 - p) / trials) ** 0.5


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="variant"):
        odds(fresh_shoe(), "mini")
    with pytest.raises(ValueError, match="52"):
        odds([8] * 51)
    with pytest.raises(ValueError, match="6 cards"):
        odds([1] * 5 + [0] * 47)


def test_cards_left_by_rank():
    assert cards_left_by_rank(fresh_shoe()) == dict.fromkeys(
        ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"], 32
    )


@pytest.mark.parametrize("variant", ["standard", "speed"])
def test_super_6_is_a_no_commission_bet_only(variant):
    # A shoe of sixes and court cards: a Banker win with six is likely, and Super 6 would pay.
    sixes = [8 if card.rank in (6, 10, 11, 12, 13) else 0 for card in CARDS]
    assert "super_6" in odds(sixes, "no_commission").favourable
    offered = odds(sixes, variant)
    assert "super_6" not in offered.rtp and "super_6" not in offered.favourable
    assert set(offered.rtp) == set(OFFERED[variant]) == set(OFFERED["no_commission"]) - {"super_6"}
