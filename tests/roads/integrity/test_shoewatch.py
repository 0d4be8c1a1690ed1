"""A write's part of the watch (watch_append) agrees with the whole shoe's checks."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round, Scorecard
from roads.badshoes import maker_order
from roads.integrity import repeats
from roads.integrity.dealing import dealt_cards
from roads.integrity.shoewatch import WatchSettings, observed, shoe_report, watch_append
from roads.integrity.shuffle import rounds_test
from roads.integrity.sidebets import ClosePolicy
from roads.odds import fresh_odds, shoe_odds
from roads.simulator import deal_rounds, shuffled_shoe

DEFAULT = WatchSettings()


def appended(rounds, settings=DEFAULT, odds=None):
    """Each round's watch part, appending the rounds one by one."""
    card, parts = Scorecard(), []
    for number, round in enumerate(rounds, start=1):
        card.add(round)
        after = Scorecard.from_bytes(card.to_bytes())  # as the service holds it between writes
        found = odds(after) if odds else {"composition_known": False, "probabilities": PROBS}
        parts.append(watch_append(after, number, round, found, fresh_odds(), settings))
    return parts


PROBS = fresh_odds()["probabilities"]


def test_maker_order_is_found_once_at_the_round_the_whole_shoe_test_crosses():
    rounds = list(deal_rounds(maker_order()))[:10]
    parts = appended(rounds)
    found = [(n, f) for n, p in enumerate(parts, 1) for f in p.findings if f.kind == "unshuffled"]
    ((number, finding),) = found
    crossing = next(
        n for n in range(1, 11) if rounds_test([dealt_cards([r])[0] for r in rounds[:n]]).unshuffled
    )
    assert number == finding.data["round"] == crossing
    assert finding.data["chance"] < 1e-6


@settings(max_examples=20, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_anchors_of_each_write_are_the_anchors_of_the_whole_shoe(rng):
    rounds = list(deal_rounds(shuffled_shoe(rng)))[:30]
    written = {fp: number for part in appended(rounds) for fp, number in part.anchors}
    cards, numbers = dealt_cards(rounds)
    whole = {a.fingerprint: numbers[a.position] for a in repeats.anchors(cards)}
    assert written == whole


def test_the_first_round_past_the_cut_card_is_found_once():
    rounds = [Round(result) for result in "BPBPBPBP"]
    parts = appended(rounds, WatchSettings(behind=400))  # the last hand starts by card 16
    found = [(n, f.data) for n, p in enumerate(parts, 1) for f in p.findings]
    assert [(n, d["check"], d["cards_used"]) for n, d in found] == [(6, "past_cut_card", 20)]


def test_an_exposed_side_bet_is_named_while_the_policy_keeps_it_open():
    tens = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"] * 8
    rounds = [
        Round.from_cards(tens[6 * n : 6 * n + 6 : 2], tens[6 * n + 1 : 6 * n + 6 : 2])
        for n in range(21)
    ]
    policy = ClosePolicy.parse("player_pair=15")
    parts = appended(rounds, WatchSettings(close=policy), odds=shoe_odds)
    named = {(n, bet) for n, p in enumerate(parts, 1) for bet, _ in p.exposed}
    assert any(bet == "banker_pair" for _, bet in named)
    assert all(n + 1 <= 15 for n, bet in named if bet == "player_pair")
    for part in parts:
        for bet, finding in part.exposed:
            assert finding.data["rtp"] > 1 and finding.data["bet"] == bet


def test_a_round_without_cards_leaves_its_pairs_and_natural_unknown():
    assert observed(Round("B")) == (1, 0, 0, -1, -1, -1)
    with_cards = Round.from_cards(["9S", "9H"], ["2D", "3C"])
    assert observed(with_cards) == (0, 1, 0, 1, 1, 0)


def test_the_report_of_a_shoe():
    rounds = list(deal_rounds(shuffled_shoe(random.Random(1))))
    report = shoe_report(Scorecard.from_rounds(rounds), WatchSettings())
    assert report["rounds"] == len(rounds) and report["cards_known"]
    assert report["cards_used"] == sum(len(r.cards()) for r in rounds)
    assert not report["shuffle"]["unshuffled"]
    assert report["shuffle"]["cards"] == report["cards_used"]
    unknown = shoe_report(Scorecard.from_rounds(["B", "P"]), WatchSettings())
    assert unknown["shuffle"] is None and unknown["cards_used"] == 8
