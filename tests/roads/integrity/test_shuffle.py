"""The shuffle test: maker's order and riffled decks are called unshuffled in their first
rounds; fair shoes are not, and the chance it states is a true bound."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roads.badshoes import NEW_DECK, maker_order, perfect_riffle, riffled_once, shoe_riffled_once
from roads.integrity.dealing import dealt_cards
from roads.integrity.shuffle import (
    ALARM,
    NEIGHBOURS,
    ShuffleWatch,
    alarm_round,
    rounds_test,
    shuffle_test,
)
from roads.simulator import deal_rounds, shuffled_shoe


def detection_round(shoe) -> int | None:
    """The round at whose end the test first calls the shoe unshuffled."""
    return alarm_round(dealt_cards([round])[0] for round in deal_rounds(shoe))


def test_every_card_has_two_neighbours_of_its_suit_one_rank_away():
    ace_of_spades, king_of_spades, two_of_spades = 0, 48, 4
    assert set(NEIGHBOURS[ace_of_spades]) == {king_of_spades, two_of_spades}
    for index, (down, up) in enumerate(NEIGHBOURS):
        assert down % 4 == up % 4 == index % 4
        assert {(index // 4 - down // 4) % 13, (up // 4 - index // 4) % 13} == {1}


def test_a_new_deck_is_in_order_and_one_riffle_interleaves_its_halves():
    assert [str(card) for card in NEW_DECK[:3]] == ["AS", "2S", "3S"]
    assert [str(card) for card in NEW_DECK[-2:]] == ["2H", "AH"]
    riffled = perfect_riffle(list(NEW_DECK))
    assert riffled[:4] == [NEW_DECK[0], NEW_DECK[26], NEW_DECK[1], NEW_DECK[27]]
    assert sorted(map(str, riffled)) == sorted(map(str, NEW_DECK))


@pytest.mark.parametrize(
    ("shoe", "within"),
    [
        (maker_order(), 2),
        (riffled_once(), 3),
        (shoe_riffled_once(random.Random(3)), 8),
    ],
    ids=["maker's order", "each deck riffled once", "the shoe riffled once"],
)
def test_an_unshuffled_shoe_is_caught_within_its_first_rounds(shoe, within):
    assert detection_round(shoe) <= within


def test_the_chance_of_maker_order_falls_with_every_card():
    cards = [card.index for card in maker_order()[:12]]
    chances = [shuffle_test(cards[:n]).chance for n in range(2, 13)]
    assert chances == sorted(chances, reverse=True)
    assert chances[-1] < ALARM < chances[0]


def test_a_fair_sample_never_alarms_and_its_evidence_averages_about_one():
    """The evidence is a likelihood-ratio mixture with mean 1 under a fair shuffle: over a seeded
    sample its mean at a fixed card stays near 1 and no shoe comes near the alarm."""
    rng = random.Random(20261126)
    worst, evidence = 1.0, []
    for _ in range(400):
        cards = [card.index for card in shuffled_shoe(rng)][:300]
        watch = ShuffleWatch().see(cards[:40])
        evidence.append(math.exp(watch.checkpoint().log_evidence))
        worst = min(worst, watch.see(cards[40:]).checkpoint().chance)
    assert worst > 1e-3
    # max-so-far evidence is at least the current one; a fair sample keeps it small
    assert sum(evidence) / len(evidence) < 3


@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=20))
def test_the_test_round_by_round_equals_the_test_of_the_rounds(rng, count):
    rounds = list(deal_rounds(shuffled_shoe(rng)))[:count]
    watch = ShuffleWatch()
    for round in rounds:
        stepped = watch.see(dealt_cards([round])[0]).checkpoint()
    assert stepped == rounds_test([dealt_cards([round])[0] for round in rounds])


def test_a_card_the_shoe_no_longer_holds_is_refused():
    with pytest.raises(ValueError, match="no copy left"):
        ShuffleWatch(decks=1).see([0, 0])
