"""Invariants of the scorecard over random shoes (Hypothesis).

References here are written plainly from the rules' text, independently of the library's
incremental and batch code: a set-of-cells grid placer and the classical derived-road rule.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from roads import ROWS, GridLayout, Round, Scorecard
from roads.columns import Columns
from roads.grid import layout_cells
from tests.strategies import dealt_shoes, results, tails

ROADS = ("big_eye_boy", "small_road", "cockroach_road")


def reference_grid(lengths: list[int], tail: str) -> list[tuple[int, int]]:
    """The display rule, cell by cell, with a set of taken cells."""
    taken: set[tuple[int, int]] = set()
    cells = []
    start = -1
    for length in lengths:
        col = start + 1
        while (col, 0) in taken:
            col += 1
        start = col
        cell, turned = (col, 0), False
        for index in range(length):
            if index:
                col, row = cell
                can_go_down = row + 1 < ROWS and (col, row + 1) not in taken
                if can_go_down and (tail == "drop" or not turned):
                    cell = (col, row + 1)
                else:
                    turned = True
                    cell = (col + 1, row)
                    while cell in taken:
                        cell = (cell[0] + 1, row)
            taken.add(cell)
            cells.append(cell)
    return cells


def reference_marks(results: str, k: int) -> str:
    """Road k from the logical columns: a new column compares the lengths of the two columns
    before it that are k apart; a cell further down looks at column n-k: red if that column has
    a cell on this row, or has none on the row above either; blue if it ended on the row above."""
    lengths: list[int] = []
    marks = []
    last = None
    for result in results.replace("T", ""):
        if last == result:
            row = lengths[-1]
            lengths[-1] += 1
        else:
            lengths.append(1)
            row = 0
        last = result
        n = len(lengths) - 1
        if row == 0:
            if n - k - 1 >= 0:
                marks.append("r" if lengths[n - 1] == lengths[n - 1 - k] else "b")
        elif n - k >= 0:
            has_cell_here = lengths[n - k] > row
            has_none_above = lengths[n - k] < row
            marks.append("r" if has_cell_here or has_none_above else "b")
    return "".join(marks)


def build_incrementally(rounds, tail="stay") -> Scorecard:
    scorecard = Scorecard(tail=tail)
    for round in rounds:
        scorecard.add(round)
    return scorecard


def letters(scorecard: Scorecard, road: str) -> str:
    return "".join(mark[0] for mark in scorecard.road(road).marks())


@given(results, tails)
def test_incremental_equals_batch(results, tail):
    incremental = build_incrementally(results, tail)
    batch = Scorecard.from_rounds(results, tail=tail)
    assert incremental.to_bytes() == batch.to_bytes()
    assert incremental.as_dict() == batch.as_dict()


@settings(max_examples=40, deadline=None)
@given(dealt_shoes())
def test_dealt_shoes_incremental_equals_batch(rounds):
    incremental = build_incrementally(rounds)
    batch = Scorecard.from_rounds(rounds)
    assert incremental.to_bytes() == batch.to_bytes()
    assert incremental.as_dict() == batch.as_dict()


@settings(max_examples=30, deadline=None)
@given(dealt_shoes(), st.data())
def test_a_scorecard_saved_after_every_append_equals_the_batch(rounds, data):
    # The service keeps a scorecard and saves it after each round (its round log then stays
    # encoded); reading the rounds back at any point must not disturb that.
    kept = Scorecard()
    peek = data.draw(st.integers(0, len(rounds)))
    for number, round in enumerate(rounds, start=1):
        kept.add(round)
        saved = kept.to_bytes()
        if number == peek:
            assert kept.rounds == tuple(rounds[:number])
        assert saved == Scorecard.from_rounds(rounds[:number]).to_bytes()
    assert kept.rounds == tuple(rounds)
    assert kept.as_dict() == Scorecard.from_rounds(rounds).as_dict()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("BBBPPPT"), max_size=120).map("".join), st.data())
def test_good_roads_carried_round_by_round_equal_finding_them_afresh(results, data):
    # The lobby asks after every round, and the answer is then carried forward from the last
    # one; here it is also asked after random gaps (then found afresh), and from copies.
    asked = set(data.draw(st.lists(st.integers(1, max(1, len(results))), max_size=len(results))))
    scorecard = Scorecard()
    for number, result in enumerate(results, start=1):
        scorecard.add(result)
        if number in asked:
            fresh = Scorecard.from_rounds(results[:number])
            assert scorecard.good_roads() == fresh.good_roads()
            assert scorecard.copy().good_roads() == fresh.good_roads()
    assert scorecard.good_roads() == Scorecard.from_rounds(results).good_roads()


@given(results, st.data(), tails)
def test_saved_state_then_append_equals_appending(results, data, tail):
    split = data.draw(st.integers(0, len(results)))
    resumed = Scorecard.from_bytes(Scorecard.from_rounds(results[:split], tail=tail).to_bytes())
    for result in results[split:]:
        resumed.add(result)
    direct = Scorecard.from_rounds(results, tail=tail)
    assert resumed.to_bytes() == direct.to_bytes()
    assert resumed.as_dict() == direct.as_dict()


@settings(max_examples=30, deadline=None)
@given(dealt_shoes(), st.data())
def test_saved_dealt_shoe_round_trips(rounds, data):
    split = data.draw(st.integers(0, len(rounds)))
    resumed = Scorecard.from_bytes(Scorecard.from_rounds(rounds[:split]).to_bytes())
    for round in rounds[split:]:
        resumed.add(round)
    assert resumed.rounds == tuple(rounds)
    assert resumed.to_bytes() == Scorecard.from_rounds(rounds).to_bytes()


@given(results)
def test_probe_equals_appending(results):
    scorecard = Scorecard()
    for result in results + "B":
        probe = scorecard.probe()
        for side in "BP":
            after = scorecard.preview(side)
            for road in ROADS:
                before_marks = letters(scorecard, road)
                mark = probe[side][road]
                expected = before_marks + (mark[0] if mark else "")
                assert letters(after, road) == expected
        scorecard.add(result)


@given(results, tails)
def test_no_two_items_share_a_cell(results, tail):
    shape = Scorecard.from_rounds(results, tail=tail).as_dict()
    roads = {"big_road": shape["big_road"]["columns"]}
    roads.update({name: shape[name]["columns"] for name in ROADS})
    for columns in roads.values():
        cells = [(cell["col"], cell["row"]) for column in columns for cell in column]
        assert len(cells) == len(set(cells))
        assert all(0 <= row < ROWS and col >= 0 for col, row in cells)
    beads = [(bead["col"], bead["row"]) for bead in shape["bead_plate"]]
    assert beads == [(i // ROWS, i % ROWS) for i in range(len(beads))]


@given(results, tails)
def test_grid_follows_the_rule(results, tail):
    scorecard = Scorecard.from_rounds(results, tail=tail)
    roads = [scorecard.big_road.columns] + [road.columns for road in scorecard.derived]
    for columns in roads:
        assert layout_cells(columns.lengths, tail) == reference_grid(columns.lengths, tail)


@given(st.lists(st.integers(1, 15), max_size=30), tails)
def test_placing_cell_by_cell_equals_placing_columns(lengths, tail):
    layout = GridLayout(tail)
    cells = []
    for length in lengths:
        cells.append(layout.new_column())
        cells.extend(layout.extend() for _ in range(length - 1))
    batch = GridLayout(tail)
    batch.place_columns(lengths)
    assert cells == layout_cells(lengths, tail)
    assert (layout.occupancy(), layout.cursor()) == (batch.occupancy(), batch.cursor())


@given(results)
def test_counts_add_up(results):
    scorecard = Scorecard.from_rounds(results)
    shape = scorecard.as_dict()
    big_road = shape["big_road"]
    cells = [cell for column in big_road["columns"] for cell in column]
    assert len(cells) == len(results) - results.count("T")
    assert big_road["leading_ties"] + sum(cell["ties"] for cell in cells) == results.count("T")
    lengths = [len(column) for column in big_road["columns"]]
    for k, road in enumerate(ROADS, start=1):
        # One mark per Big Road cell from the start rule on: rows >= 1 of columns k.., and the
        # first row of columns k+1..
        expected = sum(length - 1 for length in lengths[k:]) + len(lengths[k + 1 :])
        assert len(shape[road]["marks"]) == expected
        assert letters(scorecard, road) == reference_marks(results, k)
    assert shape["stats"]["counts"]["tie"] == results.count("T")
    assert shape["rounds"] == len(results)


@given(results)
def test_streaks_follow_the_columns(results):
    scorecard = Scorecard.from_rounds(results)
    streaks = scorecard.streaks()
    roads = [("big_road", scorecard.big_road.columns)]
    roads += [(road.name, road.columns) for road in scorecard.derived]
    for name, columns in roads:
        lengths = columns.lengths
        current = streaks[name]["current"]
        longest = streaks[name]["longest"]
        if not lengths:
            assert current == longest == {"side": None, "length": 0}
            continue
        assert current == {"side": columns.sides[-1], "length": lengths[-1]}
        first_longest = lengths.index(max(lengths))
        assert longest == {"side": columns.sides[first_longest], "length": max(lengths)}


@given(results.filter(bool), st.data())
def test_corrections_equal_building_the_corrected_list(results, data):
    number = data.draw(st.integers(1, len(results)))
    corrected = data.draw(st.sampled_from("BPT"))
    scorecard = Scorecard.from_rounds(results)
    scorecard.replace(number, corrected)
    fixed = results[: number - 1] + corrected + results[number:]
    assert scorecard == Scorecard.from_rounds(fixed)
    scorecard.void(number)
    voided = [*fixed[: number - 1], Round(corrected, void=True), *fixed[number:]]
    assert scorecard == build_incrementally(voided)


@given(results, tails)
def test_next_cells_are_the_cells_a_next_banker_or_player_adds(results, tail):
    card = Scorecard.from_rounds(results, tail=tail)
    document = card.as_dict()
    for side in "BP":
        after = card.preview(side).as_dict()
        for road in ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road"):

            def cells(doc, road=road):
                if road == "bead_plate":
                    return {(item["col"], item["row"]) for item in doc[road]}
                return {(i["col"], i["row"]) for column in doc[road]["columns"] for i in column}

            added = cells(after) - cells(document)
            expected = [list(cell) for cell in added] or [None]
            assert [document["next_cells"][side][road]] == expected


@given(st.lists(st.tuples(st.sampled_from("BBBP"), st.booleans()), max_size=150))
def test_the_longest_runs_kept_as_the_road_grows_are_the_ones_read_afresh(pushes):
    # Asked after some pushes only (and on a copy now and then): what was kept from the last
    # answer must carry over however many rounds came in between.
    columns = Columns()
    for side, ask in pushes:
        columns.push(side)
        if ask:
            lengths = columns.lengths
            long = sum(length >= 3 for length in lengths)
            assert columns.longest_each(3) == (
                max(lengths[0::2]),
                max(lengths[1::2], default=0),
                long,
            )
            if len(lengths) % 3 == 0:
                columns = columns.copy()
