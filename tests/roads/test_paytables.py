"""Pay tables (roads/paytables.py, roads/presets.py) and their exact prices (roads/pricing.py):
every preset's fresh 8-deck returns equal the figures published for it; every bet of every
preset equals a brute force over small shoes, exactly; a shoe flags exactly the bets whose
exact return passes 100%; a pay table that cannot be is refused, naming where."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads.cards import CARDS
from roads.odds import fresh_shoe, odds
from roads.paytables import PayTableError, pay_table
from roads.presets import DOCUMENTS, PRESETS, PUBLISHED, PUBLISHED_SIX_DECKS
from tests.roads.paybrute import Shoe, brute_returns

SUITS = "SHDC"
SIX = {"winner": "banker", "banker_total": 6}
PAIR = {"pair": "player"}


@pytest.mark.parametrize(
    ("preset", "bet", "decks"),
    [(p, b, 8) for p, bets in PUBLISHED.items() for b in bets]
    + [(p, b, 6) for p, bets in PUBLISHED_SIX_DECKS.items() for b in bets],
)
def test_a_fresh_shoe_returns_what_is_published(preset, bet, decks):
    published, decimals, _ = (PUBLISHED if decks == 8 else PUBLISHED_SIX_DECKS)[preset][bet]
    assert round(odds(fresh_shoe(decks), preset).rtp[bet] - 1, decimals) == published


def test_every_preset_has_a_source_and_a_published_figure():
    assert set(PUBLISHED) == set(PRESETS)
    for table in PRESETS.values():
        assert table.source and pay_table(table.as_dict()) == table  # it reads back as it is


def test_the_three_variants_price_as_they_always_did():
    """Seed 000's published no-commission returns and seed 004's Banker (tests/roads/test_odds.py
    holds the rest), through the pay tables."""
    fresh = fresh_shoe(8)
    assert round(odds(fresh, "standard").rtp["banker"] * 100, 2) == 98.94
    no_commission = odds(fresh, "no_commission").rtp
    assert round(no_commission["super_6"] * 100, 2) == 86.18
    assert round(no_commission["perfect_pair"] * 100, 2) == 91.95
    assert list(odds(fresh, "speed").rtp) == list(odds(fresh, "standard").rtp)


def small_shoe_to_counts(shoe: Shoe) -> list[int]:
    return [shoe.get((card.rank, card.suit), 0) for card in CARDS]


small_shoes = st.builds(
    lambda ranks, copies: {
        (rank, suit): copy
        for rank, row in zip(ranks, copies, strict=False)
        for suit, copy in zip(SUITS, row, strict=False)
    },
    st.lists(st.integers(1, 13), min_size=2, max_size=3, unique=True),
    st.lists(st.lists(st.integers(0, 2), min_size=4, max_size=4), min_size=3, max_size=3),
).filter(lambda shoe: sum(shoe.values()) >= 6)


@settings(max_examples=25, deadline=None)
@given(small_shoes, st.sampled_from(sorted(PRESETS)))
def test_every_bet_equals_a_brute_force_of_every_deal(shoe, preset):
    """From a small shoe (two or three ranks, up to two copies of each card), every bet's
    return is the float nearest the brute force's exact fraction."""
    table = PRESETS[preset]
    expected = brute_returns(table, shoe)
    found = odds(small_shoe_to_counts(shoe), table).rtp
    assert found == {bet: float(value) for bet, value in expected.items()}


TENS_FIVES_A_SIX = {**{(10, suit): 2 for suit in SUITS}, (5, "H"): 1, (5, "C"): 2, (6, "C"): 1}
EIGHTS_FOURS_SEVENS = {(8, "S"): 2, (8, "D"): 2, (4, "H"): 2, (4, "C"): 1, (7, "S"): 1, (7, "D"): 1}
FIVES_SIXES_AN_EIGHT = {
    (5, "H"): 1,
    (5, "D"): 1,
    (5, "C"): 2,
    (8, "D"): 1,
    (6, "S"): 2,
    (6, "H"): 1,
    (6, "D"): 1,
}
#: For each preset, a small shoe where its own side bet passes 100% (found by a search).
FLAGGING = {
    "standard": (TENS_FIVES_A_SIX, "banker_bonus"),
    "no_commission": (TENS_FIVES_A_SIX, "super_6"),
    "lucky_6": (TENS_FIVES_A_SIX, "lucky_6"),
    "super_6_12": (TENS_FIVES_A_SIX, "super_6"),
    "asian": (TENS_FIVES_A_SIX, "big_tiger"),
    "speed": (EIGHTS_FOURS_SEVENS, "player_bonus"),
    "ez_baccarat": (FIVES_SIXES_AN_EIGHT, "panda_8"),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_shoe_flags_exactly_the_bets_that_pass_100_percent(preset):
    """A small shoe where the preset's own side bet has the edge: the bets flagged are those
    whose brute force return passes 1, that bet among them."""
    shoe, own = FLAGGING[preset]
    table = PRESETS[preset]
    expected = sorted(bet for bet, value in brute_returns(table, shoe).items() if value > 1)
    assert own in expected
    assert sorted(odds(small_shoe_to_counts(shoe), table).favourable) == expected


def test_a_pay_table_of_its_own_is_priced_like_a_preset():
    own = pay_table(
        {
            "name": "house_rules",
            "bets": {
                "banker": [
                    {"when": {"winner": "banker", "banker_total": 6}, "pays": 0.5},
                    {"when": {"winner": "banker"}, "pays": 1},
                    {"when": {"winner": "tie"}, "pays": "push"},
                ],
                "lucky_6": [
                    {
                        "when": {"winner": "banker", "banker_total": 6, "banker_cards": 2},
                        "pays": 12,
                    },
                    {
                        "when": {"winner": "banker", "banker_total": 6, "banker_cards": 3},
                        "pays": 23,
                    },
                ],
            },
        }
    )
    rtp = odds(fresh_shoe(8), own).rtp
    assert rtp["banker"] == odds(fresh_shoe(8), "no_commission").rtp["banker"]
    assert round(rtp["lucky_6"] - 1, 6) == -0.116985  # WoO's Las Vegas Lucky 6: 11.70%


@pytest.mark.parametrize(
    ("document", "names"),
    [
        ({"name": "x", "bets": {"banker": [{"when": {"winner": "banker"}, "pays": -1}]}}, "pays"),
        ({"name": "x", "bets": {"b": [{"when": {"colour": "red"}, "pays": 1}]}}, "'colour'"),
        ({"name": "x", "bets": {"b": [{"when": {"cards": 7}, "pays": 1}]}}, "cards: 7"),
        ({"name": "x", "bets": {"b": [{"when": {"natural": 1}, "pays": 1}]}}, "natural: 1"),
        ({"name": "x", "bets": {"Big Bet": [{"when": {"cards": 4}, "pays": 1}]}}, "snake_case"),
        ({"name": "x", "bets": {"b": []}}, "bets.b: a list"),
        (
            {
                "name": "x",
                "bets": {
                    "b": [
                        {"when": {"pair": "player"}, "pays": 11},
                        {"when": {"winner": "tie"}, "pays": 1},
                    ]
                },
            },
            "apart",
        ),
        (
            {"name": "x", "bets": {"b": [{"when": {"pair": "player", "cards": 4}, "pays": 1}]}},
            "alone",
        ),
        ({"name": "x", "bets": {"b": [{"when": {"winner": "tie"}, "pays": "half"}]}}, "push"),
        ({"name": "x", "bets": {"b": [{"when": {"winner": "tie"}, "pays": 0.12345}]}}, "four"),
        ({"name": "x", "bets": {}}, "bets: an object"),
        ({"bets": {"b": [{"when": {"cards": 4}, "pays": 1}]}}, "name"),
    ],
)
def test_a_pay_table_that_cannot_be_is_refused_naming_where(document, names):
    with pytest.raises(PayTableError, match=names):
        pay_table(document)


def test_a_preset_document_is_what_its_table_says():
    for name, document in DOCUMENTS.items():
        assert PRESETS[name].offered == tuple(document["bets"])
