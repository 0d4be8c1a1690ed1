"""Scorecard behaviour: bare letters, voids, corrections, the card limit, statistics, streaks,
previews, the canonical shape and the saved state."""

import pytest

from roads import Round, RoundError, Scorecard, ShoeError, StateError
from roads.simulator import deal_shoe
from tests.helpers import marks


def test_add_accepts_rounds_and_bare_letters():
    scorecard = Scorecard()
    scorecard.add("B")
    scorecard.add(Round.from_result("P", player_pair=True))
    scorecard.add(Round.from_cards(["9H", "8D"], ["8S", "9C"]))
    assert [bead["result"] for bead in scorecard.as_dict()["bead_plate"]] == ["B", "P", "T"]
    assert len(scorecard) == 3


@pytest.mark.parametrize("value", ["X", "b", "", None, 1, ["B"]])
def test_add_refuses_anything_else(value):
    scorecard = Scorecard.from_rounds("BP")
    before = scorecard.to_bytes()
    with pytest.raises(RoundError):
        scorecard.add(value)
    assert scorecard.to_bytes() == before


def test_bead_plate_is_column_major_with_ties():
    scorecard = Scorecard.from_rounds("BPTBBPPT")
    beads = scorecard.as_dict()["bead_plate"]
    assert [(b["col"], b["row"]) for b in beads] == [(i // 6, i % 6) for i in range(8)]
    assert [b["round"] for b in beads] == list(range(1, 9))


def test_bead_keeps_totals_pairs_and_natural():
    round = Round.from_cards(["4S", "4S"], ["KH", "7C"])
    bead = Scorecard.from_rounds([round]).as_dict()["bead_plate"][0]
    assert bead == {
        "round": 1,
        "result": "P",
        "col": 0,
        "row": 0,
        "player_pair": True,
        "banker_pair": False,
        "natural": True,
        "winning_total": 8,
        "player_total": 8,
        "banker_total": 7,
    }


def test_big_road_cells_keep_round_ties_pairs():
    rounds = [Round.from_result("B", banker_pair=True), "T", "T", "B", "P"]
    columns = Scorecard.from_rounds(rounds).as_dict()["big_road"]["columns"]
    assert columns[0][0] == {
        "round": 1,
        "result": "B",
        "ties": 2,
        "col": 0,
        "row": 0,
        "player_pair": False,
        "banker_pair": True,
        "natural": False,
    }
    assert columns[0][1]["round"] == 4 and columns[1][0]["round"] == 5


def test_void_leaves_every_road_and_keeps_its_number():
    scorecard = Scorecard.from_rounds("BPPB")
    scorecard.void(2)
    assert scorecard == Scorecard.from_rounds(["B", Round("P", void=True), "P", "B"])
    shape = scorecard.as_dict()
    assert [b["round"] for b in shape["bead_plate"]] == [1, 3, 4]
    assert shape["rounds"] == 3 and shape["stats"]["void_rounds"] == 1
    assert len(scorecard.rounds) == 4 and scorecard.rounds[1].void
    scorecard.void(2)  # voiding twice changes nothing
    assert scorecard.as_dict() == shape


def test_a_void_round_can_be_added():
    scorecard = Scorecard.from_rounds("BP")
    scorecard.add(Round("B", void=True))
    scorecard.add("P")
    assert marks(scorecard, "big_eye_boy") == marks(Scorecard.from_rounds("BPP"), "big_eye_boy")
    assert scorecard.as_dict()["bead_plate"][-1]["round"] == 4


def test_replace_rebuilds_like_the_corrected_list():
    scorecard = Scorecard.from_rounds("BBPPB")
    scorecard.replace(3, "B")
    assert scorecard == Scorecard.from_rounds("BBBPB")
    scorecard.add("P")
    assert scorecard == Scorecard.from_rounds("BBBPBP")


@pytest.mark.parametrize("number", [0, 6, -1, True, "1", 1.0])
def test_unknown_round_numbers_are_refused(number):
    scorecard = Scorecard.from_rounds("BBPPB")
    with pytest.raises(ShoeError):
        scorecard.replace(number, "B")
    with pytest.raises(ShoeError):
        scorecard.void(number)
    assert scorecard == Scorecard.from_rounds("BBPPB")


def nine_aces_of_spades():
    # Player A+A = 2 draws, Banker K+K = 0 draws: AS AS AS / KH KH + a 9th AS somewhere.
    return Round.from_cards(["AS", "AS", "AS"], ["KH", "KH", "KH"])


def test_the_ninth_copy_of_a_card_is_refused_and_changes_nothing():
    scorecard = Scorecard()
    scorecard.add(nine_aces_of_spades())
    scorecard.add(nine_aces_of_spades())
    before = scorecard.to_bytes()
    with pytest.raises(ShoeError, match="AS would be dealt for the 9th time"):
        scorecard.add(nine_aces_of_spades())
    assert scorecard.to_bytes() == before
    assert scorecard.composition.dealt(nine_aces_of_spades().player_cards[0]) == 6
    with pytest.raises(ShoeError, match="9th"):
        Scorecard.from_rounds([nine_aces_of_spades()] * 3)
    # A smaller shoe holds fewer copies.
    with pytest.raises(ShoeError, match="3rd time"):
        Scorecard.from_rounds([nine_aces_of_spades()], decks=2)


def test_a_correction_over_the_card_limit_changes_nothing():
    scorecard = Scorecard.from_rounds([nine_aces_of_spades(), nine_aces_of_spades(), "B"])
    before = scorecard.to_bytes()
    with pytest.raises(ShoeError):
        scorecard.replace(3, nine_aces_of_spades())
    assert scorecard.to_bytes() == before


def test_cards_of_a_void_round_stay_dealt():
    scorecard = Scorecard.from_rounds([nine_aces_of_spades(), nine_aces_of_spades()])
    scorecard.void(1)
    with pytest.raises(ShoeError):
        scorecard.add(nine_aces_of_spades())


def test_stats():
    rounds = [
        Round.from_cards(["2H", "3D", "10C"], ["3S", "3C"]),  # B with 6, banker pair
        Round.from_cards(["4S", "4S"], ["KH", "7C"]),  # P natural, player pair
        "T",
        Round("B", void=True),
        *"BBBBBB",
    ]
    stats = Scorecard.from_rounds(rounds).stats()
    assert stats["rounds"] == 9 and stats["void_rounds"] == 1
    assert stats["counts"] == {
        "banker": 7,
        "player": 1,
        "tie": 1,
        "player_pair": 1,
        "banker_pair": 1,
        "natural": 1,
        "banker_six": 1,
    }
    assert stats["percentages"]["banker"] == round(700 / 9, 2)
    assert stats["longest_streak"] == {"banker": 6, "player": 1}
    assert stats["dragons"] == 1
    assert Scorecard().stats()["percentages"]["tie"] == 0.0


def test_streaks():
    scorecard = Scorecard.from_rounds("BBBPPPPBB")
    streaks = scorecard.streaks()
    assert streaks["big_road"] == {
        "current": {"side": "B", "length": 2},
        "longest": {"side": "P", "length": 4},
    }
    # Equal longest runs: the earliest counts.
    assert Scorecard.from_rounds("BBPP").streaks()["big_road"]["longest"]["side"] == "B"
    eye = streaks["big_eye_boy"]
    assert eye["current"]["side"] in ("red", "blue")
    colors = marks(scorecard, "big_eye_boy")
    assert eye["current"]["length"] == len(colors) - len(colors.rstrip(colors[-1]))


def test_preview_equals_adding_and_changes_nothing():
    scorecard = Scorecard.from_rounds("BPPBBBP")
    before = scorecard.to_bytes()
    for result in "BPT":
        expected = Scorecard.from_rounds("BPPBBBP" + result)
        assert scorecard.preview(result).as_dict() == expected.as_dict()
    assert scorecard.to_bytes() == before


def test_canonical_shape_keys():
    shape = Scorecard.from_rounds(deal_shoe(7)).as_dict()
    assert set(shape) >= {
        "rounds",
        "bead_plate",
        "big_road",
        "big_eye_boy",
        "small_road",
        "cockroach_road",
        "probe",
        "streaks",
        "stats",
    }
    assert set(shape["big_road"]) == {"leading_ties", "columns"}
    for name in ("big_eye_boy", "small_road", "cockroach_road"):
        assert set(shape[name]) == {"marks", "columns"}
        assert set(shape[name]["columns"][0][0]) == {"color", "col", "row"}
        assert set(shape["streaks"][name]) == {"current", "longest"}
    assert set(shape["probe"]) == {"B", "P"}
    assert set(shape["streaks"]) == {"big_road", "big_eye_boy", "small_road", "cockroach_road"}


def test_state_round_trip_keeps_cards_and_flags():
    rounds = deal_shoe(11)
    rounds[3] = rounds[3].voided()
    scorecard = Scorecard.from_rounds(rounds)
    restored = Scorecard.from_bytes(scorecard.to_bytes())
    assert restored.rounds == scorecard.rounds
    assert restored.as_dict() == scorecard.as_dict()
    assert restored.composition == scorecard.composition
    assert len(scorecard.to_bytes()) <= 4096


@pytest.mark.parametrize("tail", ["stay", "drop"])
def test_state_keeps_the_tail_convention(tail):
    scorecard = Scorecard.from_rounds("B" * 9 + "P" * 9 + "BP", tail=tail)
    restored = Scorecard.from_bytes(scorecard.to_bytes())
    assert restored.tail == tail
    restored.add("P")
    assert restored == Scorecard.from_rounds("B" * 9 + "P" * 9 + "BPP", tail=tail)


@pytest.mark.parametrize(
    "data",
    [b"", b"XX", b"BR\x02", b"BR\x01\x00\x08", b"BR\x01\x05\x08\x00\x00\x00\x00"],
)
def test_bad_state_is_a_state_error(data):
    with pytest.raises(StateError):
        Scorecard.from_bytes(data)


def test_every_truncation_of_a_state_is_refused():
    data = Scorecard.from_rounds(deal_shoe(5)[:20]).to_bytes()
    for end in range(len(data)):
        with pytest.raises(StateError):
            Scorecard.from_bytes(data[:end])
    with pytest.raises(StateError):
        Scorecard.from_bytes(data + b"\x00")


def test_bad_options():
    with pytest.raises(ValueError):
        Scorecard(tail="down")
    with pytest.raises(ShoeError):
        Scorecard(decks=0)
