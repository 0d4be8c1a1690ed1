"""Side bets exposed (return above 100%) and the operator's closing policy."""

import pytest

from roads.integrity.sidebets import ClosePolicy, exposed


def test_a_policy_for_every_side_bet_or_for_some():
    every = ClosePolicy.parse("44")
    assert every.is_open("super_6", 44) and not every.is_open("super_6", 45)
    some = ClosePolicy.parse("player_bonus=44,player_pair=60")
    assert not some.is_open("player_bonus", 45) and some.is_open("player_pair", 60)
    assert some.is_open("super_6", 90)  # not named: open
    assert ClosePolicy.parse("").closes_after("tie") is None


def test_a_policy_that_is_not_one_is_refused():
    with pytest.raises(ValueError, match="bet=ROUNDS"):
        ClosePolicy.parse("player_bonus=soon")


def test_only_side_bets_above_100_percent_with_known_cards_are_exposed():
    odds = {
        "composition_known": True,
        "rtp": {"player": 1.01, "tie": 1.2, "player_pair": 1.05, "super_6": 0.9},
    }
    assert exposed(odds) == {"player_pair": 1.05}
    assert exposed({**odds, "composition_known": False}) == {}
