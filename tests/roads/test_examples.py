"""The worked examples of the roads issue, pinned exactly."""

import pytest

from roads import Scorecard
from tests.helpers import big_road_rows, marks, probe_letters


def both_ways(results: str) -> list[Scorecard]:
    incremental = Scorecard()
    for result in results:
        incremental.add(result)
    return [incremental, Scorecard.from_rounds(results)]


@pytest.mark.parametrize("scorecard", both_ways("TTBPPBBBBBBBBPPPPPPPBP"))
def test_dragon_blocked_by_an_earlier_tail(scorecard):
    big_road = scorecard.as_dict()["big_road"]
    assert big_road["leading_ties"] == 2
    assert [len(c) for c in big_road["columns"]] == [1, 2, 8, 7, 1, 1]
    assert big_road_rows(scorecard) == ("BPBPBP / .PBP.. / ..BP.. / ..BP.. / ..BPPP / ..BBB.")
    assert marks(scorecard, "big_eye_boy") == "bbrbrrrrrbrrrrrrbb"
    assert marks(scorecard, "small_road") == "brrrrrrbrbrrrrbb"
    assert marks(scorecard, "cockroach_road") == "brrrrrbb"
    assert probe_letters(scorecard, "B") == "rbb"
    assert probe_letters(scorecard, "P") == "brr"


@pytest.mark.parametrize("scorecard", both_ways("BBBBBBBBPPPPPPPPPBPB"))
def test_two_dragons(scorecard):
    assert big_road_rows(scorecard) == ("BPBPB. / BP.... / BP.... / BP.... / BPPPPP / BBB...")
    assert marks(scorecard, "big_eye_boy") == "rrrrrrrbbbr"
    assert marks(scorecard, "small_road") == "bb"
    assert marks(scorecard, "cockroach_road") == "b"


@pytest.mark.parametrize("scorecard", both_ways("BPPBBBP"))
def test_short_shoe_marks_and_probe(scorecard):
    assert marks(scorecard, "big_eye_boy") == "bbrbb"
    assert marks(scorecard, "small_road") == "brb"
    assert marks(scorecard, "cockroach_road") == ""
    assert probe_letters(scorecard, "B") == "bbr"
    assert probe_letters(scorecard, "P") == "rrb"


@pytest.mark.parametrize(
    "scorecard", both_ways("B" * 12 + "P" * 11 + "B" * 10 + "P" * 9 + "B" * 8 + "P" * 7 + "BBP")
)
def test_tail_on_the_top_row_pushes_the_next_column_right(scorecard):
    # The issue counts grid columns from 1 ("starts at grid column 13", "columns 7 to 12");
    # the JSON's col is 0-based, so those are cols 12 and 6..11.
    columns = scorecard.as_dict()["big_road"]["columns"]
    p7 = columns[5]
    assert [(c["col"], c["row"]) for c in p7] == [(5, 0)] + [(col, 0) for col in range(6, 12)]
    assert (columns[6][0]["col"], columns[6][0]["row"]) == (12, 0)
    assert (columns[7][0]["col"], columns[7][0]["row"]) == (13, 0)


def test_derived_roads_start_where_the_rule_says():
    # Big Eye Boy starts at the 2nd cell of column 2 (1-based) ...
    assert marks(Scorecard.from_rounds("BP"), "big_eye_boy") == ""
    assert marks(Scorecard.from_rounds("BPP"), "big_eye_boy") == "b"
    # ... or at the 1st cell of column 3 when column 2 stays one long.
    assert marks(Scorecard.from_rounds("BPB"), "big_eye_boy") == "r"
    # Small Road one column later, Cockroach Road two columns later.
    assert marks(Scorecard.from_rounds("BPBB"), "small_road") == "b"
    assert marks(Scorecard.from_rounds("BPB"), "small_road") == ""
    assert marks(Scorecard.from_rounds("BPBP"), "small_road") == "r"
    assert marks(Scorecard.from_rounds("BPBPP"), "cockroach_road") == "b"
    assert marks(Scorecard.from_rounds("BPBPB"), "cockroach_road") == "r"
    assert marks(Scorecard.from_rounds("BPBP"), "cockroach_road") == ""


def test_ties_take_no_cell():
    scorecard = Scorecard.from_rounds("TBTTPT")
    big_road = scorecard.as_dict()["big_road"]
    assert big_road["leading_ties"] == 1
    assert [[(c["result"], c["ties"]) for c in col] for col in big_road["columns"]] == [
        [("B", 2)],
        [("P", 1)],
    ]
    assert len(scorecard.as_dict()["bead_plate"]) == 6


def test_only_ties():
    scorecard = Scorecard.from_rounds("TTT")
    shape = scorecard.as_dict()
    assert shape["big_road"] == {"leading_ties": 3, "columns": []}
    assert shape["probe"]["B"] == {"big_eye_boy": None, "small_road": None, "cockroach_road": None}
    assert shape["streaks"]["big_road"]["current"] == {"side": None, "length": 0}


def test_drop_tail_goes_down_again():
    # Worked by hand: under "stay" the P tail keeps row 4; under "drop" it steps down to row 5
    # as soon as the B tail below it ends.
    results = "B" * 8 + "P" * 8
    stay = Scorecard.from_rounds(results)
    drop = Scorecard.from_rounds(results, tail="drop")
    assert big_road_rows(stay) == "BP... / BP... / BP... / BP... / BPPPP / BBB.."
    assert big_road_rows(drop) == "BP.. / BP.. / BP.. / BP.. / BPPP / BBBP"
    results = "B" * 7 + "P" * 9 + "B" + "P" * 4
    stay = Scorecard.from_rounds(results)
    drop = Scorecard.from_rounds(results, tail="drop")
    assert big_road_rows(stay) == "BPBP.. / BP.P.. / BP.P.. / BP.P.. / BPPPPP / BB...."
    assert big_road_rows(drop) == "BPBP. / BP.P. / BP.P. / BP.P. / BPP.. / BBPPP"
