"""The shuffle test: maker's order, riffled decks and a shoe given three or four riffles are
called unshuffled in their first rounds; fair shoes are not, each card's ratio has mean 1 under a
fair shuffle, and the round-by-round test equals the batch."""

import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from roads.badshoes import (
    NEW_DECK,
    maker_order,
    perfect_riffle,
    riffled,
    riffled_once,
    shoe_riffled_once,
)
from roads.integrity.dealing import dealt_cards
from roads.integrity.shuffle import (
    _LATELY,
    ALARM,
    DIRECTIONS,
    RATES,
    SUCCESSORS,
    ShuffleWatch,
    _card_logs,
    alarm_round,
    last_round_tests,
    rounds_test,
    rounds_tests,
    shuffle_test,
)
from roads.simulator import deal_rounds, shuffled_shoe


def detection_round(shoe) -> int | None:
    """The round at whose end the test first calls the shoe unshuffled."""
    return alarm_round(dealt_cards([round])[0] for round in deal_rounds(shoe))


def test_each_card_but_a_suits_last_has_a_successor_of_its_suit_one_rank_on():
    ace_of_spades, two_of_spades, king_of_spades, queen_of_spades = 0, 4, 48, 44
    assert SUCCESSORS[ace_of_spades] == (two_of_spades, None)
    assert SUCCESSORS[king_of_spades] == (None, queen_of_spades)
    for index, (up, down) in enumerate(SUCCESSORS):
        assert up is None or (up % 4 == index % 4 and up // 4 == index // 4 + 1)
        assert down is None or (down % 4 == index % 4 and down // 4 == index // 4 - 1)
    assert len(set(DIRECTIONS)) == 16


def test_a_new_deck_is_in_order_and_one_riffle_interleaves_its_halves():
    assert [str(card) for card in NEW_DECK[:3]] == ["AS", "2S", "3S"]
    assert [str(card) for card in NEW_DECK[-2:]] == ["2H", "AH"]
    riffled_deck = perfect_riffle(list(NEW_DECK))
    assert riffled_deck[:4] == [NEW_DECK[0], NEW_DECK[26], NEW_DECK[1], NEW_DECK[27]]
    assert sorted(map(str, riffled_deck)) == sorted(map(str, NEW_DECK))


@pytest.mark.parametrize(
    ("shoe", "within"),
    [
        (maker_order(), 2),
        (riffled_once(), 3),
        (shoe_riffled_once(random.Random(3)), 4),
    ],
    ids=["maker's order", "each deck riffled once", "the shoe riffled once"],
)
def test_an_unshuffled_shoe_is_caught_within_its_first_rounds(shoe, within):
    assert detection_round(shoe) <= within


@pytest.mark.parametrize(("riffles", "within"), [(2, 6), (3, 9), (4, 16)])
def test_a_lazy_shuffle_of_new_decks_is_caught_within_16_rounds(riffles, within):
    """Eight new decks stacked and given two, three or four Gilbert-Shannon-Reeds riffles: every
    one of 20 seeded stacks is named (the benchmark counts the rates over many more)."""
    rounds = [detection_round(riffled(random.Random(seed), riffles)) for seed in range(20)]
    assert None not in rounds and max(rounds) <= within


def test_five_riffles_leave_less_to_see_than_four():
    """More riffles, fewer cards following their run: the evidence falls with each riffle."""
    evidence = []
    for riffles in (3, 4, 5):
        shoe = riffled(random.Random(11), riffles)
        rounds = [dealt_cards([r])[0] for r in list(deal_rounds(shoe))[:16]]
        evidence.append(rounds_test(rounds).log_evidence)
    assert evidence == sorted(evidence, reverse=True)


def test_the_chance_of_maker_order_falls_with_every_card():
    cards = [card.index for card in maker_order()[:12]]
    chances = [shuffle_test(cards[:n]).chance for n in range(3, 13)]
    assert chances == sorted(chances, reverse=True)
    assert chances[-1] < ALARM < chances[0]


@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=51))
def test_each_cards_ratio_has_mean_one_under_a_fair_shuffle(rng, seen):
    """What makes Ville's bound hold: for every way of the suits and every rate, the ratio of
    the next card averaged over every card the shoe may deal next (each as likely as its
    copies left) is exactly 1, whatever was dealt before (a one-deck shoe, so that cards run
    out and heads point at cards all dealt)."""
    cards = [card.index for card in shuffled_shoe(rng, decks=1)][:seen]
    left = [1] * 52
    for card in cards:
        left[card] -= 1
    mean = np.zeros(len(DIRECTIONS) * len(RATES))
    for card in (c for c in range(52) if left[c]):
        watch = ShuffleWatch(decks=1).see([*cards, card])
        logs, _ = _card_logs(np.array([watch._rows[-1]], dtype=float))
        mean += np.exp(logs[0]) / sum(left)
    assert np.allclose(mean, 1.0, atol=1e-12)


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
    batch = rounds_tests([dealt_cards([round])[0] for round in rounds])
    assert stepped.cards == batch[-1].cards and stepped.chained == batch[-1].chained
    assert math.isclose(stepped.log_evidence, batch[-1].log_evidence, abs_tol=1e-9)


def test_checkpoints_must_ascend_within_the_cards_seen():
    watch = ShuffleWatch().see([0, 4, 8])
    with pytest.raises(ValueError, match="ascend"):
        watch.checkpoints([2, 1])
    with pytest.raises(ValueError, match="ascend"):
        watch.checkpoints([4])
    watch.checkpoints([2])
    with pytest.raises(ValueError, match="ascend"):
        watch.checkpoints([1])


def test_a_card_the_shoe_no_longer_holds_is_refused():
    with pytest.raises(ValueError, match="no copy left"):
        ShuffleWatch(decks=1).see([0, 0])


def test_evidence_taken_with_no_new_card_stands_as_it_was():
    watch = ShuffleWatch()
    assert watch.checkpoint().log_evidence == 0 and watch.checkpoint().cards == 0
    cards = [card.index for card in maker_order()[:12]]
    first = watch.see(cards).checkpoint()
    assert watch.checkpoint() == first
    assert rounds_test([]).log_evidence == 0 and shuffle_test([]).chance == 1


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=16))
def test_going_on_from_the_last_rounds_watch_equals_testing_the_rounds_afresh(seed, count):
    """A write per round goes on from the watch the round before left (two shoes interleaved,
    one of them from a lazy shuffle); a shoe this process never saw is tested from its start:
    both give the tests of the rounds afresh."""
    rng = random.Random(seed)
    shoes = [
        [dealt_cards([r])[0] for r in list(deal_rounds(shuffled_shoe(rng)))[:count]],
        [dealt_cards([r])[0] for r in list(deal_rounds(riffled(rng, 3)))[:count]],
    ]
    for n in range(1, count + 1):
        for rounds in shoes:
            last_round_tests(rounds[:n])  # the round planned twice: a write's retry
            previous, test = last_round_tests(rounds[:n])
            afresh = rounds_tests(rounds[:n])
            assert test.cards == afresh[-1].cards and test.chained == afresh[-1].chained
            assert math.isclose(test.log_evidence, afresh[-1].log_evidence, abs_tol=1e-9)
            assert (previous is None) == (n == 1)
            if previous is not None:
                assert math.isclose(previous.log_evidence, afresh[-2].log_evidence, abs_tol=1e-9)
    _LATELY.clear()
    cold_previous, cold = last_round_tests(shoes[1])
    assert (cold_previous is None) == (count == 1)
    assert cold == rounds_tests(shoes[1])[-1]
