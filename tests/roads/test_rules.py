"""Cards, the drawing rules and rounds built from cards or from a reported result."""

import re

import pytest

from roads import CARDS, CardError, Round, RoundError, RuleError, parse_card
from roads.rules import banker_draws, hand_total, is_natural, player_draws

# The Banker's third-card table as seed 003 prints it: rows are the Banker's two-card total,
# columns the Player's third card ("-" = the Player stood), D = draw, S = stand.
BANKER_TABLE = """
     -  0 1 2 3 4 5 6 7 8 9
0    D  D D D D D D D D D D
1    D  D D D D D D D D D D
2    D  D D D D D D D D D D
3    D  D D D D D D D D S D
4    D  S S D D D D D D S S
5    D  S S S S D D D D S S
6    S  S S S S S S D D S S
7    S  S S S S S S S S S S
"""


def banker_table_cells():
    rows = BANKER_TABLE.strip().splitlines()
    columns = rows[0].split()
    for line in rows[1:]:
        total, *marks = line.split()
        for column, mark in zip(columns, marks, strict=True):
            third = None if column == "-" else int(column)
            yield int(total), third, mark == "D"


@pytest.mark.parametrize(("banker_total", "player_third", "draws"), list(banker_table_cells()))
def test_every_cell_of_the_banker_table(banker_total, player_third, draws):
    assert banker_draws(banker_total, player_third) is draws


@pytest.mark.parametrize(("total", "draws"), [(t, t <= 5) for t in range(8)])
def test_player_draws_on_0_to_5_and_stands_on_6_7(total, draws):
    assert player_draws(total) is draws


def test_naturals_are_8_and_9():
    assert [t for t in range(10) if is_natural(t)] == [8, 9]


@pytest.mark.parametrize(
    ("text", "rank", "suit", "points"),
    [
        ("AS", 1, "S", 1),
        ("as", 1, "S", 1),
        ("10d", 10, "D", 0),
        ("TD", 10, "D", 0),
        ("th", 10, "H", 0),
        ("9C", 9, "C", 9),
        ("KH", 13, "H", 0),
        (" qc ", 12, "C", 0),
        ("js", 11, "S", 0),
    ],
)
def test_parse_card(text, rank, suit, points):
    card = parse_card(text)
    assert (card.rank, card.suit, card.points) == (rank, suit, points)
    assert card is CARDS[card.index]


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "AX", "ZZ", "10", "S A", "AAS", "0S"])
def test_bad_cards_are_named(text):
    with pytest.raises(CardError, match=re.escape(repr(text))):
        parse_card(text)


@pytest.mark.parametrize("value", [None, 12, ["AS"], b"AS"])
def test_a_card_must_be_a_string(value):
    with pytest.raises(CardError):
        parse_card(value)


def test_cards_print_as_they_are_written():
    assert [str(parse_card(t)) for t in ("as", "td", "10h")] == ["AS", "10D", "10H"]
    assert len({card.index for card in CARDS}) == 52


def test_hand_total_is_modulo_ten():
    assert hand_total([parse_card(t) for t in ("9S", "8D", "7C")]) == 4
    assert hand_total([parse_card(t) for t in ("KS", "QD")]) == 0


def test_natural_stops_both_hands():
    with pytest.raises(RuleError, match=r"Player has a natural 8.*Banker drew"):
        Round.from_cards(["4S", "4S"], ["KH", "7C", "2S"])
    round = Round.from_cards(["4S", "4S"], ["KH", "7C"])
    assert round.result == "P"
    assert (round.player_total, round.banker_total) == (8, 7)
    assert round.natural and round.player_pair and round.player_perfect_pair
    assert not round.banker_pair and round.margin == 1


def test_banker_wins_with_six():
    # Player 2+3 = 5 draws a 10 (0) -> 5; Banker 3+3 = 6 stands on a third card 0 -> 6.
    round = Round.from_cards(["2H", "3D", "10C"], ["3S", "3C"])
    assert round.result == "B"
    assert round.banker_six and round.banker_pair and not round.banker_perfect_pair
    assert round.winning_total == 6 and round.margin == 1 and not round.natural


def test_tie_and_winning_total():
    round = Round.from_cards(["9H", "8D"], ["8S", "9C"])  # both 7: both stand
    assert round.result == "T" and round.winning_total == 7 and round.margin == 0


@pytest.mark.parametrize(
    ("player", "banker", "message"),
    [
        (["2H", "3D"], ["KS", "7C"], "Player stood on 5; the Player draws on 0-5"),
        (["3H", "3D", "AC"], ["KS", "7C"], "Player drew on 6; the Player stands on 6-7"),
        (["2H", "3D", "7C"], ["2S", "AC"], "Banker stood on 3 after the Player's third card"),
        (["2H", "3D", "8C"], ["2S", "AC", "5D"], "unless the Player's third card is worth 8"),
        (["3H", "3D"], ["KS", "5C"], "with the Player standing, the Banker draws on 0-5"),
        (["3H", "3D"], ["KS", "6C", "AD"], "Banker drew on 6"),
        (["2H", "3D", "AC"], ["4S", "KC", "AD"], "2-7"),
        (["AH"], ["KS", "6C"], "Player hand must have 2 or 3 cards, not 1"),
        (["AH", "2H", "3H", "4H"], ["KS", "6C"], "not 4"),
        (["KH", "9D"], ["2S", "2C", "2D"], "Player has a natural 9"),
    ],
)
def test_a_broken_drawing_rule_is_named(player, banker, message):
    with pytest.raises(RuleError, match=message):
        Round.from_cards(player, banker)


def test_bad_card_in_a_round_is_named():
    with pytest.raises(CardError, match="'1S'"):
        Round.from_cards(["1S", "2D"], ["3C", "4H"])
    with pytest.raises(CardError, match="list of cards"):
        Round.from_cards("AS 2D", ["3C", "4H"])


def test_result_only_rounds():
    round = Round.from_result("B", banker_pair=True, natural=True, player_total=3, banker_total=9)
    assert round.banker_pair and round.natural and round.winning_total == 9
    assert not round.has_cards and not round.banker_perfect_pair
    bare = Round.from_result("T")
    assert bare.winning_total is None and bare.margin is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"result": "X"}, "result must be"),
        ({"result": "b"}, "result must be"),
        ({"result": "P", "player_total": 3, "banker_total": 5}, "mean 'B'"),
        ({"result": "T", "player_total": 3, "banker_total": 5}, "mean 'B'"),
        ({"result": "B", "player_total": 4, "banker_total": 4}, "mean 'T'"),
        ({"result": "B", "player_total": 10}, "0 to 9"),
        ({"result": "B", "player_total": True}, "0 to 9"),
        ({"result": "B", "banker_total": "7"}, "0 to 9"),
        ({"result": "B", "player_pair": 1}, "player_pair must be true or false"),
        ({"result": "B", "natural": "yes"}, "natural must be"),
        ({"result": "B", "natural": True, "player_total": 2, "banker_total": 7}, "natural"),
    ],
)
def test_inconsistent_reported_rounds_are_refused(kwargs, message):
    result = kwargs.pop("result")
    with pytest.raises(RoundError, match=message):
        Round.from_result(result, **kwargs)


def test_round_as_dict():
    shape = Round.from_cards(["4S", "4S"], ["KH", "7C"]).as_dict()
    assert shape["player_cards"] == ["4S", "4S"] and shape["player_perfect_pair"]
    assert shape["result"] == "P" and shape["natural"] and not shape["void"]
    assert Round.from_result("P").as_dict()["player_cards"] is None
