"""Cards burned from a shoe (Scorecard.burn): out of the cards left as dealt cards are, kept in
the scorecard's state, refused past the shoe's copies with nothing changed; the roads untouched."""

from __future__ import annotations

import pytest

from roads import Scorecard
from roads.cards import parse_card
from roads.errors import ShoeError
from roads.odds import shoe_odds
from roads.simulator import deal_shoe


def test_burned_cards_leave_the_cards_left_and_the_roads_as_they_were():
    rounds = deal_shoe(3)[:10]
    scorecard = Scorecard.from_rounds(rounds)
    roads, left = scorecard.as_dict(), scorecard.cards_left()
    scorecard.burn(["AS", "10d", parse_card("KH")])
    after = scorecard.cards_left()
    for text in ("AS", "10D", "KH"):
        index = parse_card(text).index
        assert left[index] - after[index] == 1
    assert sum(left) - sum(after) == 3
    assert scorecard.as_dict() == roads
    again = Scorecard.from_bytes(scorecard.to_bytes())
    assert again.cards_left() == after
    assert shoe_odds(again) == shoe_odds(scorecard) != shoe_odds(Scorecard.from_rounds(rounds))


def test_a_burn_past_the_shoes_copies_changes_nothing():
    scorecard = Scorecard.from_rounds(deal_shoe(4)[:3])
    left = scorecard.cards_left()
    with pytest.raises(ShoeError, match="AC"):
        scorecard.burn(["2D"] + ["AC"] * 9)
    assert scorecard.cards_left() == left
