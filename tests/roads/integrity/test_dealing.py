"""A shoe's cards in dealt order, and the fewest cards its rounds used, read from a scorecard
however it was made: incrementally (the cards' places kept up as rounds come), at once, or
restored from its state."""

from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round, Scorecard
from roads.cards import dealt_order
from roads.integrity.dealing import dealt_cards
from roads.simulator import deal_shoe


@st.composite
def rounds_with_gaps(draw) -> list[Round]:
    """Rounds of one dealt shoe, in order, with result-only and voided rounds among them: a shoe
    can never hold a card more often than its decks do, so the card rounds come from one shoe."""
    dealt = iter(deal_shoe(draw(st.integers(0, 2**32))))
    gaps = st.sampled_from([Round("B"), Round("P"), Round("T"), Round("B").voided()])
    kinds = draw(st.lists(st.booleans(), max_size=30))
    return [next(dealt) if with_cards else draw(gaps) for with_cards in kinds]


def test_a_round_deals_player_banker_player_banker_then_the_thirds():
    round = Round.from_cards(["2S", "3S", "4S"], ["5S", "6S", "7S"])
    assert [str(c) for c in dealt_order(round.player_cards, round.banker_cards)] == [
        "2S",
        "5S",
        "3S",
        "6S",
        "4S",
        "7S",
    ]


@settings(max_examples=60, deadline=None)
@given(rounds_with_gaps(), st.integers(1, 31))
def test_the_dealt_cards_are_the_same_however_the_scorecard_was_made(rounds, first):
    batch = Scorecard.from_rounds(rounds)
    stepped, restored = Scorecard(), Scorecard()
    for at, round in enumerate(rounds):
        stepped.add(round)
        stepped.dealt(1)  # the cards' places found midway, then kept up
        restored = Scorecard.from_bytes(restored.to_bytes()) if at % 3 else restored
        restored.add(round)
    first = min(first, len(rounds) + 1)
    tail = rounds[first - 1 :]
    expected = None if not all(r.player_cards for r in tail) else dealt_cards(tail, first)
    for card in (batch, stepped, restored, Scorecard.from_bytes(batch.to_bytes())):
        assert card.dealt(first) == expected
        assert card.cards_used() == sum(len(r.cards()) or (0 if r.void else 4) for r in rounds)
        for upto in (first - 1, len(rounds) // 2):
            used = sum(len(r.cards()) or (0 if r.void else 4) for r in rounds[:upto])
            assert card.cards_used(upto) == used
