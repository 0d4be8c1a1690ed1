"""Benchmark of the chance beside a run or a Good Road (roads/rarity.py).

Prints:
- what the chances cost: each exact chain summed once (a Big Road run, every built-in pattern),
  the derived roads' table loaded once, then a lookup as a write makes one;
- what they add to a write's plan: ``plan_append`` over simulated shoes with the tile's figures
  and without, alternating, three runs each, and the ratio; every timed batch is shoes this
  process never planned (the odds' memo never holds their rounds: what a write pays);
- how far the model (independent hands) is from real shoes: in shoes dealt card by card by the
  simulator (burn, cut card), the share that showed each run or pattern, with its 95% interval,
  against the model's chance mixed over the hands those shoes dealt.

Run: ``python benchmarks/rarity_bench.py [--shoes 100000]``. The issue names no speed target;
the write path's cost is printed so that it is known.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from plan_bench import plan_shoes  # benchmarks/, this script's folder

from roads import PATTERNS
from roads.rarity import LobbyFigures, pattern_chance, run_chance, wilson
from roads.simulator import deal_shoe

PLAN_SEED = 5_044_000_000  # the plan's timed shoes count up from here (the model check's: 1e6+)
PLAN_WARM_SEED = 5_043_999_999


def costs() -> None:
    print("== what a chance costs (this process, first and then kept)")
    start = time.perf_counter()
    run_chance("big_road", "B", 8, 80)
    print(
        f"  a Big Road run, its chain summed:       {1e3 * (time.perf_counter() - start):8.2f} ms"
    )
    start = time.perf_counter()
    for pattern in PATTERNS:
        pattern_chance(pattern, 80)
    took = 1e3 * (time.perf_counter() - start)
    print(f"  all {len(PATTERNS)} built-in patterns' chains:       {took:8.2f} ms")
    start = time.perf_counter()
    run_chance("small_road", "red", 6, 80)
    print(
        f"  the derived roads' table loaded:         {1e3 * (time.perf_counter() - start):8.2f} ms"
    )
    figures, count = LobbyFigures(80, 40), 20_000
    start = time.perf_counter()
    for length in range(count):
        figures.of_run("big_road", "B", 1 + length % 12)
        figures.of_run("cockroach_road", "red", 1 + length % 12)
    each = 1e6 * (time.perf_counter() - start) / (2 * count)
    print(f"  a run's figures, kept chains:            {each:8.2f} us")


def plan_costs(shoes: int, runs: int) -> None:
    print(f"\n== a write's plan, with the tile's figures and without ({shoes} fresh shoes a run)")
    _plan_shoes([PLAN_WARM_SEED], None)  # imports and the fresh shoe's odds, on a shoe not timed
    timings: dict[str, list[float]] = {"without": [], "with": []}
    batch = 0
    for run in range(runs):
        order = [("without", None), ("with", LobbyFigures(80, 40))]
        for name, figures in order if run % 2 == 0 else order[::-1]:
            # Shoes no earlier batch dealt: the odds' memo never holds a timed shoe's rounds.
            seeds = range(PLAN_SEED + batch * shoes, PLAN_SEED + (batch + 1) * shoes)
            timings[name].append(_plan_shoes(seeds, figures))
            batch += 1
    for name, values in timings.items():
        shown = ", ".join(f"{value:.0f}" for value in values)
        print(f"  {name:<8} figures: {shown} us a round (median {statistics.median(values):.0f})")
    ratio = statistics.median(timings["with"]) / statistics.median(timings["without"])
    print(f"  with / without (medians): {ratio:.3f}")


def _plan_shoes(seeds: Iterable[int], figures: LobbyFigures | None) -> float:
    """Microseconds ``plan_append`` takes a round over the shoes dealt from ``seeds`` (the loop
    of plan_bench, with the tile's figures or without)."""
    spent, rounds = plan_shoes(seeds, with_figures=figures is not None)
    return 1e6 * spent / rounds


def dealt_against_model(shoes: int) -> None:
    print(f"\n== the model against {shoes:,} shoes dealt card by card")
    questions = [
        ("a Banker run of 8+", lambda d: d["longest"]["B"] >= 8, lambda n: _run("B", 8, n)),
        ("a Player run of 8+", lambda d: d["longest"]["P"] >= 8, lambda n: _run("P", 8, n)),
        (
            "a run of 6+, either side",
            lambda d: max(d["longest"].values()) >= 6,
            lambda n: _run("either", 6, n),
        ),
        (
            "Double Jump",
            lambda d: "double_jump" in d["seen"],
            lambda n: pattern_chance("double_jump", n).value,
        ),
        (
            "双跳 (shuang_tiao)",
            lambda d: "shuang_tiao" in d["seen"],
            lambda n: pattern_chance("shuang_tiao", n).value,
        ),
    ]
    hands, seen = Counter(), [0] * len(questions)
    for seed in range(shoes):
        shoe = [round.result for round in deal_shoe(1_000_000 + seed)]
        hands[len(shoe)] += 1
        found = _shoe_facts(shoe)
        for index, (_, test, _) in enumerate(questions):
            seen[index] += test(found)
    for (name, _, model), count in zip(questions, seen, strict=True):
        low, high = wilson(count, shoes)
        mixed = sum(number * model(n) for n, number in hands.items()) / shoes
        inside = "inside" if low <= mixed <= high else "OUTSIDE"
        print(
            f"  {name:<26} dealt {count / shoes:.4f} [{low:.4f}, {high:.4f}]   "
            f"model {mixed:.4f}  ({inside} the interval)"
        )
    mean = sum(n * c for n, c in hands.items()) / shoes
    print(f"  hands a shoe dealt: {min(hands)} to {max(hands)}, mean {mean:.1f}")


def _run(side: str, length: int, hands: int) -> float:
    return run_chance("big_road", side, length, hands).value


def _shoe_facts(results: list[str]) -> dict:
    """The longest run of each side, and the patterns matched after some hand, of one shoe."""
    sides: list[str] = []
    lengths: list[int] = []
    longest = {"B": 0, "P": 0}
    seen = set()
    wanted = [pattern for pattern in PATTERNS if pattern.id in ("double_jump", "shuang_tiao")]
    for result in results:
        if result == "T":
            continue
        if sides and sides[-1] == result:
            lengths[-1] += 1
        else:
            sides.append(result)
            lengths.append(1)
        longest[result] = max(longest[result], lengths[-1])
        seen.update(pattern.id for pattern in wanted if pattern.test(sides, lengths))
    return {"longest": longest, "seen": seen}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--shoes", type=int, default=100_000, help="dealt shoes for the model check"
    )
    parser.add_argument("--plan-shoes", type=int, default=40, help="shoes planned a run")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    costs()
    plan_costs(args.plan_shoes, args.runs)
    dealt_against_model(args.shoes)


if __name__ == "__main__":
    main()
