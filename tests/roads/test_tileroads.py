"""A tile's roads (roads.tileroads) hold exactly the cells of the roads document in the newest
columns, as a picture of the same width shows them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from roads import GridLayout, Round, Scorecard
from roads.tileroads import TILE_COLUMNS, tile_roads
from tests.strategies import dealt_shoes, results, tails

LETTER = {"B": "B", "P": "P", "red": "r", "blue": "b"}


def cells_of(road: dict) -> set[tuple[int, int, str]]:
    """The cells a tile road names, read back from its ``cols`` form."""
    texts = road["cols"].split(",") if road["cols"] else []
    return {
        (road["from"] + index, row, letter)
        for index, text in enumerate(texts)
        for row, letter in enumerate(text)
        if letter != "."
    }


def shown_in_document(document: dict, road: str) -> tuple[int, list[dict]]:
    """The first column a view of TILE_COLUMNS shows, and its items, from the roads document."""
    items = [item for column in document[road]["columns"] for item in column]
    last = max((item["col"] for item in items), default=0)
    first = max(0, last + 1 - TILE_COLUMNS)
    return first, [item for item in items if item["col"] >= first]


def check(card: Scorecard) -> None:
    document, tile = card.as_dict(), tile_roads(card)
    for road in ("big_road", "big_eye_boy", "small_road", "cockroach_road"):
        first, items = shown_in_document(document, road)
        key = "result" if road == "big_road" else "color"
        assert tile[road]["from"] == first
        assert cells_of(tile[road]) == {(i["col"], i["row"], LETTER[i[key]]) for i in items}
    _, items = shown_in_document(document, "big_road")
    extras = [
        [i["col"], i["row"], i["ties"], i["banker_pair"] + 2 * i["player_pair"]]
        for i in items
        if i["ties"] or i["banker_pair"] or i["player_pair"]
    ]
    assert tile["big_road"].get("extras", []) == sorted(extras)
    assert tile["big_road"].get("lead", 0) == document["big_road"]["leading_ties"]


@given(results, tails)
def test_a_tile_shows_the_documents_newest_cells(results, tail):
    check(Scorecard.from_rounds(results, tail=tail))


@given(dealt_shoes(), st.integers(0, 120))
def test_pairs_ties_and_voids_show_as_in_the_document(rounds, count):
    check(Scorecard.from_rounds(rounds[:count]))


def test_a_long_dragon_runs_along_the_bottom_row_of_the_shown_columns():
    card = Scorecard.from_rounds("B" * 40 + "PB" * 10)
    road = tile_roads(card)["big_road"]
    # 40 Bankers: column 0 down, then the tail along row 5 to column 34; the 20 short columns
    # start on the top row of columns 1 to 20.
    assert road["from"] == 21
    assert road["cols"] == ",".join([".....B"] * 14)
    assert tile_roads(Scorecard())["big_road"] == {"from": 0, "cols": ""}


def test_ties_and_pairs_are_extras_and_leading_ties_the_lead():
    rounds = [
        Round.from_result("T"),
        Round.from_result("T"),
        Round.from_result("B", banker_pair=True),
    ]
    rounds += [Round.from_result("T"), Round.from_result("P", player_pair=True, banker_pair=True)]
    road = tile_roads(Scorecard.from_rounds(rounds))["big_road"]
    assert road == {"from": 0, "cols": "B,P", "extras": [[0, 0, 1, 1], [1, 0, 0, 3]], "lead": 2}


# -- kept as rounds are added ---------------------------------------------------------------


def tile_from_document(card: Scorecard) -> dict:
    """The tile's roads worked out from scratch: from the roads document's cells (every cell
    placed again, roads.grid.layout_cells) in the module doc's form, field for field."""
    document = card.as_dict()
    every = {}
    for road in ("big_road", "big_eye_boy", "small_road", "cockroach_road"):
        first, items = shown_in_document(document, road)
        if not items:
            every[road] = {"from": 0, "cols": ""}
            continue
        last = max(item["col"] for item in items)
        grid = [["."] * 6 for _ in range(first, last + 1)]
        for item in items:
            letter = LETTER[item["result"] if road == "big_road" else item["color"]]
            grid[item["col"] - first][item["row"]] = letter
        every[road] = {"from": first, "cols": ",".join("".join(r).rstrip(".") for r in grid)}
    extras = sorted(
        [i["col"], i["row"], i["ties"], i["banker_pair"] + 2 * i["player_pair"]]
        for i in shown_in_document(document, "big_road")[1]
        if i["ties"] or i["banker_pair"] or i["player_pair"]
    )
    if extras:
        every["big_road"]["extras"] = extras
    if document["big_road"]["leading_ties"]:
        every["big_road"]["lead"] = document["big_road"]["leading_ties"]
    return every


def same_tile(card: Scorecard) -> None:
    expected = tile_from_document(card)
    assert tile_roads(card) == expected
    assert tile_roads(card) == expected  # asked again: the kept state read, not spent


@settings(max_examples=60, deadline=None)  # a scorecard read after every round
@given(dealt_shoes(), st.data())
def test_the_kept_tile_equals_one_from_scratch_after_every_round(rounds, data):
    card = Scorecard()
    for round in rounds[: data.draw(st.integers(0, len(rounds)))]:
        card.add(round)
        same_tile(card)


@settings(max_examples=60, deadline=None)  # a scorecard read after every round
@given(results)
def test_the_kept_tile_of_long_dragons_equals_one_from_scratch(results):
    card = Scorecard()
    for result in results:
        card.add(result)
        same_tile(card)


@settings(max_examples=60, deadline=None)  # a scorecard read after every round
@given(dealt_shoes(), st.data())
def test_a_copy_a_restored_and_a_rebuilt_card_keep_their_tile(rounds, data):
    cut = data.draw(st.integers(0, len(rounds)))
    card = Scorecard.from_rounds(rounds[:cut])
    same_tile(card)
    restored, copied = Scorecard.from_bytes(card.to_bytes()), card.copy()
    for round in rounds[cut : cut + 10]:
        for each in (card, restored, copied):
            each.add(round)
            same_tile(each)
    if len(card.rounds):
        number = data.draw(st.integers(1, len(card.rounds)))
        restored.void(number)
        same_tile(restored)
        copied.replace(number, Round.from_result(data.draw(st.sampled_from("BPT"))))
        same_tile(copied)
        for round in rounds[cut + 10 : cut + 14]:
            copied.add(round)
            same_tile(copied)


@given(st.lists(st.integers(1, 14), max_size=30), st.data())
def test_a_layout_keeps_the_spans_of_its_columns_placed_whole(lengths, data):
    """Cell by cell or whole columns at once: the same spans, tails and pictures."""
    cut = data.draw(st.integers(0, len(lengths)))
    whole, cells = GridLayout("stay"), GridLayout("stay")
    whole.place_columns(lengths[:cut])
    whole.place_columns(lengths[cut:])
    for length in lengths:
        cells.new_column()
        for _ in range(length - 1):
            cells.extend()
    restored = GridLayout.restore("stay", cells.occupancy(), cells.cursor())
    restored.kept_spans(lengths)
    kept = [layout.spans for layout in (whole, cells, restored)]
    assert len({(k.cells, k.last, tuple(k.spans), tuple(k.tails)) for k in kept}) == 1
    assert len({tuple(k.picture(0, max(k.last, 0))) for k in kept}) == 1
    assert kept[0].cells == sum(lengths)
