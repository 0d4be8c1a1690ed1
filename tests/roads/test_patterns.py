"""Good Roads: each pattern on worked roads, custom expressions, and since-when."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads import PATTERNS, PROFILES, PatternError, Round, Scorecard, parse_expression
from roads.expressions import EXPRESSION_SYNTAX, MAX_TERMS
from roads.goodroads import good_roads_of, matching, since
from roads.patterns import PATTERNS_BY_ID, Thresholds, build_patterns
from roads.patternstates import BUILT_IN, group_of
from tests.strategies import dealt_shoes, results


def columns_of(results: str) -> tuple[list[str], list[int]]:
    columns = Scorecard.from_rounds(results).big_road.columns
    return columns.sides, columns.lengths


def matched(results: str) -> set[str]:
    return {pattern.id for pattern in matching(*columns_of(results))}


@pytest.mark.parametrize(
    ("results", "expected", "absent"),
    [
        ("PBBBB", {"banker_streak"}, {"player_streak"}),
        ("PBBB", set(), {"banker_streak"}),
        ("BTBTBB", {"banker_streak"}, set()),  # ties take no cell
        ("BBPBPB", {"banker_ping_pong"}, {"player_ping_pong"}),
        ("BBPBPBP", {"player_ping_pong"}, {"banker_ping_pong"}),
        ("BPPBPPB", {"banker_one_two"}, {"player_one_two"}),
        ("BPPBPP", {"banker_one_two"}, set()),
        ("BPPBPPBP", {"banker_one_two"}, set()),  # a Y column in progress with one may end it
        ("BPPBPPBPPP", set(), {"banker_one_two"}),
        ("PPBPPPBPB", {"banker_sandwich"}, set()),
        ("PPBPPPBPBB", set(), {"banker_sandwich"}),
        ("BPBBPBPBB", {"banker_separated"}, set()),  # B lengths 1, 2, 1, 2
        ("BBPBPBBPB", {"banker_separated"}, set()),  # B lengths 2, 1, 2, 1
        ("BPBPBBPBB", set(), {"banker_separated"}),  # B lengths 1, 1, 2, 2
        ("PPPPB", {"change_to_banker"}, {"change_to_player"}),
        ("PPPB", set(), {"change_to_banker"}),
        ("BBPPBBPP", {"double_jump", "sticky_pairs"}, set()),
        ("BBPPBBP", {"double_jump"}, {"sticky_pairs"}),  # the last may be in progress
        ("BBBPPBB", {"sticky_pairs"}, {"double_jump"}),
        ("", set(), {pattern.id for pattern in PATTERNS}),
    ],
)
def test_patterns_on_worked_roads(results, expected, absent):
    found = matched(results)
    assert expected <= found
    assert not (absent & found)


def test_the_patterns_are_served_with_ids_names_and_descriptions():
    assert [len(PROFILES["classic"]), len(PROFILES["asia"])] == [14, 12]
    assert len(PATTERNS) == len(PATTERNS_BY_ID) == 26  # every id its own
    assert [p.id for p in PATTERNS[:4]] == [
        "banker_streak",
        "player_streak",
        "banker_ping_pong",
        "player_ping_pong",
    ]
    assert all(p.name and p.description for p in PATTERNS)


# The Asian profile's rules (roads/patterns.py), each on roads that match it and roads that do
# not: (results dealt, the road's columns, whether it matches).
ASIA_EXAMPLES = {
    # 长庄 / 长闲: 4 or more of one side in a row.
    "chang_zhuang": [("PBBBB", True), ("BTBTBB", True), ("PBBB", False), ("BBBBP", False)],
    "chang_xian": [("BPPPP", True), ("BPPPPPPP", True), ("PPPB", False)],
    # 单跳: single columns alternate, 4 of them or more.
    "dan_tiao": [("BPBP", True), ("BBPBPB", True), ("BPB", False), ("BPBPP", False)],
    # 双跳: columns of exactly two, 4 of them.
    "shuang_tiao": [
        ("BBPPBBPP", True),
        ("PPBBPPBB", True),
        ("BBPPBBP", False),  # the last column has one so far
        ("BBPPBBPPP", False),
        ("BBBPPBBPPBB", True),  # 3 2 2 2 2: only the last 4 columns count
    ],
    # 一厅两房: one, two, one, two: BPP BPP or PBB PBB.
    "yi_ting_liang_fang": [
        ("BPPBPP", True),
        ("PBBPBB", True),
        ("BPPBP", False),
        ("BPPBPPB", False),
        ("BPPPBPP", False),
    ],
    # 逢庄跳 / 逢闲跳: the side's last 3 columns are single; the other side's any length.
    "feng_zhuang_tiao": [("BPPBPPPB", True), ("BPBP", False), ("BPBBPB", False)],
    "feng_xian_tiao": [("PBPBBBP", True), ("PBPBBBPP", False)],
    # 逢庄黐 / 逢闲黐: the side's two previous columns each 2+, and it appears again.
    "feng_zhuang_chi": [
        ("BBPBBPB", True),
        ("BBPBBPBBB", True),
        ("BBPBPB", False),
        ("BBPBBP", False),  # Banker has not appeared again yet
    ],
    "feng_xian_chi": [("PPBPPPBP", True), ("PPBPBP", False)],
    # 拍拍黐: the last 2 columns both 2+.
    "pai_pai_chi": [("BBPP", True), ("PBBBPP", True), ("BBP", False), ("BPP", False)],
    # 隔黐庄 / 隔黐闲: a single of the side turns into a 2+ column, twice.
    "ge_chi_zhuang": [
        ("BPBBPBPBB", True),
        ("BPBBPBPBBBP", True),  # Player after it: the Banker columns still read 1, 3, 1, 3
        ("BPBBPBB", False),
        ("BBPBPBBPB", False),  # 2, 1, 2, 1: the other way round
    ],
    "ge_chi_xian": [("PBPPBPBPP", True), ("PBPPBPP", False)],
}


@pytest.mark.parametrize(
    ("pattern", "results", "matches"),
    [
        (pattern, results, matches)
        for pattern, cases in ASIA_EXAMPLES.items()
        for results, matches in cases
    ],
)
def test_the_asian_good_roads_on_worked_roads(pattern, results, matches):
    assert PATTERNS_BY_ID[pattern].matches(*columns_of(results)) is matches


def test_every_asian_good_road_has_worked_examples_both_ways():
    assert set(ASIA_EXAMPLES) == {p.id for p in PROFILES["asia"]}
    for cases in ASIA_EXAMPLES.values():
        assert {matches for _, matches in cases} == {True, False}


def test_thresholds_are_configuration():
    patterns = {p.id: p for p in build_patterns(Thresholds(streak=6))}
    assert not patterns["banker_streak"].matches(*columns_of("BBBBB"))
    assert patterns["banker_streak"].matches(*columns_of("BBBBBB"))
    assert "6 or more" in patterns["banker_streak"].description


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "terms like"),
        ("   ", "terms like"),
        ("X1 X2", "alternate"),
        ("X0", "not a column"),
        ("Z1", "not a column"),
        ("X1Y2", "not a column"),
        ("X100", "not a column"),
        ("X2++", "not a column"),
        ("X1 " * 13, "at most 12"),
    ],
)
def test_bad_expressions_are_named(text, problem):
    with pytest.raises(PatternError, match=problem):
        parse_expression(text)


@given(st.from_regex(EXPRESSION_SYNTAX, fullmatch=True))
def test_every_expression_the_written_form_admits_is_read(text):
    assert parse_expression(text).name == text.upper()


TERM = st.tuples(st.integers(1, 99), st.booleans())


@given(st.sampled_from("XY"), st.lists(TERM, min_size=1, max_size=MAX_TERMS))
def test_every_expression_read_has_the_written_form(first, terms):
    sides = [first if i % 2 == 0 else "XY".replace(first, "") for i in range(len(terms))]
    text = " ".join(
        f"{s}{n}{'+' if more else ''}" for s, (n, more) in zip(sides, terms, strict=True)
    )
    assert parse_expression(text).name == text
    assert re.fullmatch(EXPRESSION_SYNTAX, text)


@pytest.mark.parametrize(
    "text", ["X1 X1", "X1  Y1", " X1", "X1\n", "X0", "X100", "Z1", "X1 Y1 " * 7]
)
def test_the_written_form_refuses(text):
    assert re.fullmatch(EXPRESSION_SYNTAX, text) is None


def test_expressions_read_case_and_spacing_loosely():
    pattern = parse_expression(" x1  y2+ ")
    assert pattern.id == "custom:X1 Y2+" and pattern.name == "X1 Y2+"
    assert pattern.matches(*columns_of("BPPP")) and pattern.matches(*columns_of("PBBB"))
    assert not pattern.matches(*columns_of("BPPPB"))


@given(results)
def test_expressions_equal_the_named_patterns(results):
    found = matched(results)
    columns = columns_of(results)
    assert parse_expression("X4+").matches(*columns) == bool(
        {"banker_streak", "player_streak"} & found
    )
    assert parse_expression("X1 Y1 X1 Y1").matches(*columns) == bool(
        {"banker_ping_pong", "player_ping_pong"} & found
    )
    assert parse_expression("X2+ Y2+ X2+").matches(*columns) == ("sticky_pairs" in found)
    assert parse_expression("X4+ Y1+").matches(*columns) == bool(
        {"change_to_banker", "change_to_player"} & found
    )


@given(results)
def test_since_is_where_the_current_run_of_matches_began(results):
    # Replay forwards, one Big Road cell at a time, remembering where each unbroken run began.
    cells = results.replace("T", "")
    began: dict[str, int | None] = {p.id: None for p in PATTERNS}
    for count in range(1, len(cells) + 1):
        now = matched(cells[:count])
        for pattern_id in began:
            if pattern_id not in now:
                began[pattern_id] = None
            elif began[pattern_id] is None:
                began[pattern_id] = count - 1
    sides, lengths = columns_of(results)
    for pattern in PATTERNS:
        back = since(pattern, sides, lengths)
        if began[pattern.id] is None:
            assert back is None
        else:
            assert back == len(cells) - 1 - began[pattern.id]


def test_scorecard_good_roads_report_the_round_they_hold_from():
    scorecard = Scorecard.from_rounds("BPPBPTPBP")  # columns B1 P2 B1 P2 B1 P1
    assert scorecard.good_roads() == [
        {"pattern": "banker_one_two", "name": "Banker One-Two", "since_round": 5},
        {"pattern": "banker_sandwich", "name": "Banker Sandwich", "since_round": 8},
        {"pattern": "feng_zhuang_tiao", "name": "Banker Always Jumps", "since_round": 8},
        {"pattern": "feng_xian_chi", "name": "Player Always Sticks", "since_round": 9},
    ]
    assert scorecard.good_roads([parse_expression("X1 Y2")]) == []
    assert Scorecard().good_roads() == []


# -- the built-in patterns matched by state (roads.patternstates) -------------------------------

# The same patterns in a tuple of their own: matched by each pattern's own test, as a player's
# patterns are (the reference for the states).
TESTED = tuple(PATTERNS)
LONG_RUNS = st.lists(st.tuples(st.sampled_from("BP"), st.integers(1, 9)), max_size=30).map(
    lambda runs: "".join(side * length for side, length in runs)
)


def reference(card: Scorecard) -> list[dict]:
    columns, cells = card.big_road.columns, card.big_road.cell_rounds
    return good_roads_of(columns.sides, columns.lengths, cells, TESTED)


@given(st.one_of(results, LONG_RUNS))
def test_the_states_match_what_each_pattern_tests(results):
    sides, lengths = columns_of(results)
    for count in range(len(lengths) + 1):
        prefix = sides[:count], lengths[:count]
        assert matching(*prefix) == [p for p in PATTERNS if p.test(*prefix)]
        assert matching(*prefix, TESTED) == matching(*prefix)


@settings(max_examples=60, deadline=None)  # a scorecard read after every round
@given(dealt_shoes(), st.data())
def test_the_good_roads_asked_after_every_round_equal_them_from_scratch(rounds, data):
    card = Scorecard()
    for round in rounds[: data.draw(st.integers(0, len(rounds)))]:
        card.add(round)
        assert card.good_roads() == reference(card)
        assert card.good_roads() == reference(card)  # asked again, no new cell


@settings(max_examples=60, deadline=None)  # a scorecard read after every round
@given(st.one_of(results, LONG_RUNS))
def test_the_good_roads_of_long_runs_equal_them_from_scratch(results):
    card = Scorecard()
    for result in results:
        card.add(result)
        assert card.good_roads() == reference(card)
    columns, cells = card.big_road.columns, card.big_road.cell_rounds
    assert good_roads_of(columns.sides, columns.lengths, cells) == reference(card)


@settings(max_examples=60, deadline=None)  # a scorecard read after every round
@given(dealt_shoes(), st.data())
def test_a_copy_a_restored_and_a_rebuilt_card_keep_their_good_roads(rounds, data):
    cut = data.draw(st.integers(0, len(rounds)))
    card = Scorecard.from_rounds(rounds[:cut])
    assert card.good_roads() == reference(card)
    restored, copied = Scorecard.from_bytes(card.to_bytes()), card.copy()
    for round in rounds[cut : cut + 6]:
        for each in (card, restored, copied):
            each.add(round)
            assert each.good_roads() == reference(each)
    if len(card.rounds):
        number = data.draw(st.integers(1, len(card.rounds)))
        restored.void(number)
        assert restored.good_roads() == reference(restored)
        copied.replace(number, Round.from_result(data.draw(st.sampled_from("BPT"))))
        assert copied.good_roads() == reference(copied)
        for round in rounds[cut + 6 : cut + 9]:
            copied.add(round)
            assert copied.good_roads() == reference(copied)


def test_each_built_in_pattern_is_matched_by_state():
    """Every built-in pattern's reach fits a state: none is tested on the road each time."""
    assert all(group_of(pattern.reach) is not None for pattern in PATTERNS)
    assert BUILT_IN.patterns == PATTERNS
