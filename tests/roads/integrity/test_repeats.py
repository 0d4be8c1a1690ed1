"""Winnowed k-grams: exact fingerprints, the same anchors incrementally as at once, and every
replayed stretch of GUARANTEE cards shares an anchor with the shoe it replays."""

import random

from hypothesis import given
from hypothesis import strategies as st

from roads.integrity.repeats import GUARANTEE, K, W, anchors, fingerprint
from roads.simulator import shuffled_shoe


def fair_cards(rng, count=380):
    return [card.index for card in shuffled_shoe(rng)][:count]


def test_a_fingerprint_is_the_cards_themselves():
    assert fingerprint([0] * K) == "00" * K
    assert fingerprint([51, 1] + [0] * (K - 2)) == "3301" + "00" * (K - 2)
    assert GUARANTEE == K + W - 1 <= 16  # four rounds hold at least 16 cards


@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=6))
def test_anchors_found_round_by_round_are_the_anchors_of_the_whole(rng, step):
    cards = fair_cards(rng, 120)
    whole = anchors(cards)
    found = {}
    for end in range(step, len(cards) + step, step):
        end = min(end, len(cards))
        start = max(0, end - step)
        first = max(0, start - GUARANTEE + 1)
        for anchor in anchors(cards[first:end], start=start - first, offset=first):
            found[anchor.position] = anchor
    assert sorted(found.values(), key=lambda a: a.position) == whole


@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=360))
def test_every_replayed_stretch_of_guarantee_cards_holds_an_indexed_anchor(rng, at):
    cards = fair_cards(rng)
    indexed = {anchor.fingerprint for anchor in anchors(cards)}
    stretch = cards[at : at + GUARANTEE]
    assert {anchor.fingerprint for anchor in anchors(stretch)} & indexed


def test_about_two_in_w_plus_one_k_grams_are_anchors():
    rng = random.Random(7)
    counts = [len(anchors(fair_cards(rng))) for _ in range(50)]
    grams = 380 - K + 1
    assert 0.8 * 2 / (W + 1) < sum(counts) / (50 * grams) < 1.2 * 2 / (W + 1)


def test_two_fair_shoes_share_no_anchor():
    rng = random.Random(11)
    seen: set[int] = set()
    for _ in range(300):
        fingerprints = {anchor.fingerprint for anchor in anchors(fair_cards(rng))}
        assert not fingerprints & seen
        seen |= fingerprints
