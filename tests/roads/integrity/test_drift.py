"""Drift: z-scores against exact chances, the runs test, Benjamini-Hochberg across tables."""

import math

import pytest

from roads.integrity.drift import (
    FIELDS,
    OUTCOMES,
    DayTally,
    benjamini_hochberg,
    report,
    runs_z,
    two_sided,
)


def tally(**values) -> DayTally:
    numbers = [0.0] * len(FIELDS)
    for name, value in values.items():
        numbers[FIELDS.index(name)] = value
    return DayTally(tuple(numbers))


def test_two_sided_p_values_of_the_normal_law():
    assert two_sided(0) == 1
    assert two_sided(1.959964) == pytest.approx(0.05, abs=1e-6)
    assert two_sided(-3) == two_sided(3)


def test_runs_z_of_a_perfect_alternation_and_a_clean_split():
    # BPBPBP...: 20 of each, 40 runs: far too many
    assert runs_z(20, 20, 40) > 5
    # BBBB...PPPP: 2 runs: far too few
    assert runs_z(20, 20, 2) < -5
    assert runs_z(0, 10, 1) is None


def test_a_fair_day_tests_clean_and_a_banker_day_does_not():
    fair = tally(
        rounds=100,
        observed_banker=46,
        expected_banker=45.86,
        variance_banker=24.8,
        banker_wins=46,
        player_wins=45,
        runs=46,
    )
    tests = fair.tests()
    assert set(tests) == {*OUTCOMES, "runs"}
    assert abs(tests["banker"]["z"]) < 0.1
    assert fair.p_value() > 0.5
    skewed = tally(rounds=100, observed_banker=80, expected_banker=45.86, variance_banker=24.8)
    assert skewed.tests()["banker"]["z"] == pytest.approx((80 - 45.86) / math.sqrt(24.8), 1e-3)
    assert skewed.p_value() < 1e-10


def test_benjamini_hochberg_matches_the_textbook_example():
    # p-values and adjusted values as R's p.adjust(method = "BH") gives them
    found = benjamini_hochberg({"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005})
    assert found == pytest.approx({"a": 0.02, "b": 0.04, "c": 0.04, "d": 0.02})


def test_only_tables_with_enough_rounds_are_tested_and_alerted():
    few = tally(rounds=10, observed_banker=10, expected_banker=4.6, variance_banker=2.5)
    many = tally(rounds=100, observed_banker=80, expected_banker=45.86, variance_banker=24.8)
    found = report({"few": few, "many": many})
    assert found["few"]["adjusted_p"] is None and not found["few"]["alert"]
    assert found["many"]["alert"] and found["many"]["discovery"]


def test_a_tally_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="numbers"):
        DayTally((1.0, 2.0, 3.0))


def test_rounds_are_folded_per_day_and_dealer_without_the_rounds_of_none():
    from roads.integrity.drift import RoundEntry, fold

    expect = (0.5, 0.4, 0.1, 0.3, 0.1, 0.1)
    entries = [
        RoundEntry("t1", "2026-11-26", (1, 0, 0, 1, 0, 0), 1, expect, "d-1"),
        RoundEntry("t2", "2026-11-26", (0, 1, 0, 0, 0, 0), 2, expect, "d-1"),
        RoundEntry("t2", "2026-11-26", (0, 1, 0, 0, 0, 0), 2, expect, ""),
        RoundEntry("t1", "2026-11-26", (0, 1, 0, 0, 0, 0), 2, expect, "d-2"),
    ]
    found = fold(entries, by_dealer=True)
    assert set(found) == {("2026-11-26", "d-1"), ("2026-11-26", "d-2")}
    values, sides = found[("2026-11-26", "d-1")]
    assert values[0] == 2 and sides == "12"  # across the tables the dealer dealt at
    assert fold(entries)[("2026-11-26", "t2")][0][0] == 2  # each table's: every round


def test_rounds_are_folded_per_day_and_table_in_order():
    from roads.integrity.drift import ADDED, RoundEntry, fold

    expect = (0.5, 0.4, 0.1, 0.3, 0.1, 0.1)
    entries = [
        RoundEntry("t1", "2026-11-26", (1, 0, 0, 1, 0, 0), 1, expect),
        RoundEntry("t1", "2026-11-26", (0, 0, 1, -1, -1, -1), 0, expect),
        RoundEntry("t1", "2026-11-26", (0, 1, 0, 0, 0, 1), 2, expect),
        RoundEntry("t2", "2026-11-25", (1, 0, 0, 0, 0, 0), 1, expect),
    ]
    found = fold(entries)
    values, sides = found[("2026-11-26", "t1")]
    assert sides == "12" and found[("2026-11-25", "t2")][1] == "1"
    named = dict(zip(ADDED, values, strict=True))
    assert named["rounds"] == 3
    assert named["observed_banker"] == 1 and named["observed_tie"] == 1
    assert named["expected_banker"] == pytest.approx(1.5)
    # the round without cards adds nothing to the naturals and pairs, known or expected
    assert named["expected_natural"] == pytest.approx(0.6)
    assert named["variance_tie"] == pytest.approx(3 * 0.09)
    assert named["banker_wins"] == 1 and named["player_wins"] == 1
