"""Rounds past the cut card's last hand, and cards withdrawn by a correction."""

from roads.integrity.cutcard import cards_withdrawn, last_start, past_cut_card


def test_the_last_hand_starts_by_the_card_in_front_of_the_cut_card():
    assert last_start(8, 52) == 364


def test_the_first_round_past_it_is_found_once():
    assert past_cut_card(364, 359, decks=8, behind=52) is None
    found = past_cut_card(369, 364, decks=8, behind=52)
    assert found["check"] == "past_cut_card" and found["cards_used"] == 369
    assert found["limit"] == 364 and "364" in found["why"]
    assert past_cut_card(374, 369, decks=8, behind=52) is None  # already found


def test_cards_withdrawn_only_when_a_round_loses_its_cards():
    assert cards_withdrawn(True, False)["check"] == "cards_withdrawn"
    assert cards_withdrawn(True, True) is None
    assert cards_withdrawn(False, False) is None
