"""The shoe's numbers (roads.shoe) hold together with the shoes the simulator deals by them."""

import json
import statistics

from roads.cards import CARDS
from roads.derivedsim import TABLE
from roads.shoe import DECK_CARDS, HANDS, MAX_ROUNDS, SHOE_HANDS
from roads.simulator import iter_shoes


def test_a_deck_is_each_card_once_and_the_most_hands_fit_the_state_and_the_shipped_table():
    assert len(CARDS) == DECK_CARDS
    assert HANDS < MAX_ROUNDS
    assert json.loads(TABLE.read_text())["hands"] == HANDS  # made for as many hands


def test_the_usual_shoe_is_what_the_cut_card_leaves_on_average():
    """SHOE_HANDS is the hands (ties included) of a shoe of DEFAULT_DECKS decks with the cut card
    DEFAULT_CUT_CARD cards from the back, on average (80.4, whole hands counted): the simulator's
    default shoe."""
    hands = [len(rounds) for rounds in iter_shoes(400, seed=48)]
    assert SHOE_HANDS <= statistics.mean(hands) < SHOE_HANDS + 1  # 80.6 for these shoes
    assert max(hands) <= HANDS
