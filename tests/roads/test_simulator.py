"""The shoe simulator: dealing by the rules, burn and cut card, and its long-run frequencies."""

import math

import pytest

from roads import Scorecard, parse_card
from roads.simulator import deal_rounds, deal_shoe, iter_shoes

# Exact 8-deck probabilities of the next round from a full shoe (issue "roads core").
EXACT = {"B": 0.45860, "P": 0.44625, "T": 0.09516}


def test_same_seed_same_shoe():
    assert deal_shoe(42) == deal_shoe(42)
    assert deal_shoe(42) != deal_shoe(43)


def test_a_simulated_shoe_is_a_valid_shoe():
    for rounds in iter_shoes(20, seed=1):
        assert 60 <= len(rounds) <= 100
        Scorecard.from_rounds(rounds)  # raises for a card beyond 8 decks
        cards = sum(len(round.cards()) for round in rounds)
        assert 416 - 14 - 11 <= cards + 11 <= 416


def test_burn_and_cut_card_on_a_stacked_shoe():
    # Every card a king: both hands 0, both draw, a tie of 6 cards each round. The shown king
    # burns 10 more, so rounds start at cards 11, 17, ... The cut card lies 14 from the end of
    # 60 cards, before card 46: the round that starts at 41 brings it out and is the last.
    shoe = [parse_card("KH")] * 60
    rounds = list(deal_rounds(shoe, cut_card=14))
    assert len(rounds) == 6
    assert all(round.result == "T" and len(round.cards()) == 6 for round in rounds)
    assert len(list(deal_rounds(shoe, cut_card=14, burn=False))) == 8


@pytest.mark.parametrize("cut_card", [0, 5, 41])
def test_cut_card_must_leave_a_round(cut_card):
    with pytest.raises(ValueError):
        list(deal_rounds([parse_card("KH")] * 60, cut_card=cut_card))


def test_frequencies_match_the_exact_values():
    counts = dict.fromkeys("BPT", 0)
    for rounds in iter_shoes(3000, seed=2026):
        for round in rounds:
            counts[round.result] += 1
    total = sum(counts.values())
    for result, p in EXACT.items():
        standard_error = math.sqrt(p * (1 - p) / total)
        assert abs(counts[result] / total - p) < 3 * standard_error, (result, counts, total)
