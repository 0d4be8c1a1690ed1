"""The chance of a run or a Good Road: the exact chains against every sequence of a short shoe
summed by brute force and against a seeded simulation of whole shoes through the real roads; the
derived roads' table against an independent simulation through the real scorecard; each
pattern's stated reach against the whole road."""

import doctest
import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads import PATTERNS, Round, Scorecard, parse_expression, rarity
from roads.rarity import (
    RarityError,
    lobby_chance,
    outcome_probabilities,
    pattern_chance,
    run_chance,
    wilson,
)

Z = 3.5  # the seeded samples below are fixed; this bound leaves them a wide margin


def test_the_worked_values_in_the_docstring():
    assert doctest.testmod(rarity).failed == 0


def ever(results: str, test) -> bool:
    """Whether ``test`` held on the whole road after some hand (a tie changes nothing)."""
    sides: list[str] = []
    lengths: list[int] = []
    for result in results.replace("T", ""):
        if sides and sides[-1] == result:
            lengths[-1] += 1
        else:
            sides.append(result)
            lengths.append(1)
        if test(sides, lengths):
            return True
    return False


def brute_force(hands: int, test) -> float:
    """The chance of ``test`` holding by ``hands``, summed over every sequence of results."""
    weights = dict(zip("BPT", outcome_probabilities(), strict=True))
    return sum(
        math.prod(weights[r] for r in results)
        for results in map("".join, itertools.product("BPT", repeat=hands))
        if ever(results, test)
    )


def longest_run(sides, lengths, side):
    return max((n for s, n in zip(sides, lengths, strict=True) if side in (s, "either")), default=0)


@pytest.mark.parametrize(
    "side,length,hands", [("B", 1, 1), ("B", 3, 7), ("P", 2, 6), ("either", 4, 8)]
)
def test_a_big_road_run_sums_as_every_sequence_does(side, length, hands):
    def test(sides, lengths):
        return bool(sides) and longest_run(sides[-1:], lengths[-1:], side) >= length

    expected = brute_force(hands, test)
    assert run_chance("big_road", side, length, hands).value == pytest.approx(expected, abs=1e-12)


def test_a_run_of_two_bankers_in_two_hands_is_banker_squared():
    banker = outcome_probabilities()[0]
    assert run_chance("big_road", "B", 2, 2).value == pytest.approx(banker**2, abs=1e-15)


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.id)
def test_each_good_road_sums_as_every_sequence_does(pattern):
    expected = brute_force(8, pattern.test)
    assert pattern_chance(pattern, 8).value == pytest.approx(expected, abs=1e-12)


roads = st.lists(st.integers(1, 9), min_size=1, max_size=14)


@settings(max_examples=300)
@given(roads, st.sampled_from("BP"))
def test_each_pattern_reads_no_more_of_the_road_than_its_reach(lengths, last):
    other = "P" if last == "B" else "B"
    sides = [last if (len(lengths) - 1 - i) % 2 == 0 else other for i in range(len(lengths))]
    for pattern in PATTERNS:
        reach = pattern.reach
        kept = [min(n, reach.cap) for n in lengths[-reach.columns :]]
        assert pattern.test(sides, lengths) == pattern.test(sides[-len(kept) :], kept), pattern.id


def shoes(count: int, hands: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices("BPT", outcome_probabilities(), k=hands)) for _ in range(count)]


def within(observed: int, trials: int, chance: float, z: float = Z) -> bool:
    return abs(observed / trials - chance) <= z * math.sqrt(chance * (1 - chance) / trials)


def test_big_road_runs_match_a_simulation_of_80_hand_shoes_through_the_scorecard():
    sample = shoes(6000, 80, seed=31)
    longest = []
    for results in sample:
        stats = Scorecard.from_rounds([Round(r) for r in results]).stats()
        longest.append(stats["longest_streak"])
    for side, key in (("B", "banker"), ("P", "player")):
        for length in (5, 8, 11):
            seen = sum(runs[key] >= length for runs in longest)
            assert within(seen, len(sample), run_chance("big_road", side, length, 80).value)
    seen = sum(max(runs.values()) >= 6 for runs in longest)
    assert within(seen, len(sample), run_chance("big_road", "either", 6, 80).value)


def test_good_roads_match_a_simulation_of_80_hand_shoes():
    sample = shoes(4000, 80, seed=32)
    for pattern in PATTERNS:
        seen = sum(ever(results, pattern.test) for results in sample)
        assert within(seen, len(sample), pattern_chance(pattern, 80).value), pattern.id


def colour_runs(marks: list[str]) -> dict[str, int]:
    longest = {"red": 0, "blue": 0}
    for colour, group in itertools.groupby(marks):
        longest[colour] = max(longest[colour], len(list(group)))
    return longest


def test_the_derived_roads_table_matches_an_independent_simulation_through_the_scorecard():
    sample = shoes(3000, 80, seed=33)
    documents = [Scorecard.from_rounds([Round(r) for r in results]).as_dict() for results in sample]
    for road in ("big_eye_boy", "small_road", "cockroach_road"):
        runs = [colour_runs(document[road]["marks"]) for document in documents]
        for colour in ("red", "blue", "either"):
            for length in (4, 6, 9):
                seen = sum(
                    max(r.values()) >= length if colour == "either" else r[colour] >= length
                    for r in runs
                )
                table = run_chance(road, colour, length, 80)
                assert table.method == "simulated" and table.low <= table.value <= table.high
                # both are samples: the difference's spread is the two spreads together
                spread = math.sqrt(
                    table.value * (1 - table.value) * (1 / len(sample) + 1 / table.shoes)
                )
                assert abs(seen / len(sample) - table.value) <= Z * spread, (road, colour, length)


def test_runs_grow_rarer_with_length_and_commoner_with_hands():
    for road, side in (("big_road", "B"), ("big_eye_boy", "red")):
        by_length = [run_chance(road, side, length, 80).value for length in range(1, 16)]
        assert by_length == sorted(by_length, reverse=True)
        by_hands = [run_chance(road, side, 6, hands).value for hands in range(1, 105)]
        assert by_hands == sorted(by_hands)
    either = run_chance("big_road", "either", 7, 80).value
    assert either >= max(run_chance("big_road", side, 7, 80).value for side in "BP")


def test_a_run_longer_than_the_shoe_has_no_chance():
    assert run_chance("big_road", "B", 81, 80).value == 0
    assert run_chance("big_road", "either", 500, 104).value == 0
    never = run_chance("small_road", "red", 150, 80)
    assert never.value == 0 and 0 < never.high < 1e-5


def test_the_lobby_figure_is_one_minus_the_chance_no_table_shows_it():
    assert lobby_chance(0.135, 1) == pytest.approx(0.135)
    assert lobby_chance(0.135, 0) == 0
    assert lobby_chance(0.135, 40) == pytest.approx(1 - 0.865**40)
    assert lobby_chance(1.0, 3) == 1.0
    assert lobby_chance(1e-12, 1000) == pytest.approx(1e-9, rel=1e-6)


def test_a_custom_pattern_with_a_small_reach_is_summed_and_a_large_one_refused():
    custom = parse_expression("X1 Y2 X1 Y2")
    assert pattern_chance(custom, 8).value == pytest.approx(brute_force(8, custom.test), abs=1e-12)
    with pytest.raises(RarityError, match="too much"):
        pattern_chance(parse_expression("X1 Y1 X1 Y1 X1 Y1 X1 Y1 X1 Y9"))


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: run_chance("big_road", "red", 3), "side B, P or either"),
        (lambda: run_chance("small_road", "B", 3), "red, blue or either"),
        (lambda: run_chance("bead_plate", "B", 3), "road is one of"),
        (lambda: run_chance("big_road", "B", 0), "1 or more"),
        (lambda: run_chance("big_road", "B", 3, 105), "1 to 104 hands"),
        (lambda: pattern_chance("no_such"), "no built-in pattern"),
        (lambda: lobby_chance(0.5, -1), "0 tables or more"),
    ],
)
def test_what_cannot_be_answered_is_refused_by_name(call, message):
    with pytest.raises(RarityError, match=message):
        call()


def test_the_wilson_interval_holds_its_share_and_stays_in_zero_to_one():
    low, high = wilson(0, 1000)
    assert low == 0 and 0.003 < high < 0.004
    low, high = wilson(500, 1000)
    assert low < 0.5 < high and high - low == pytest.approx(
        2 * 1.96 * math.sqrt(0.25 / 1000), rel=0.01
    )


def test_the_shipped_table_is_a_million_shoes_of_this_model():
    import json

    from roads.derivedsim import TABLE

    shipped = json.loads(TABLE.read_text())
    assert shipped["shoes"] >= 1_000_000 and shipped["hands"] == 104
    assert tuple(shipped["probabilities"].values()) == pytest.approx(outcome_probabilities())
