"""Benchmark of the exact odds (roads/odds.py).

Prints:
- the check that a fresh 8-deck shoe reproduces seed 000's published no-commission returns and
  seed 004's standard Banker return, to 0.01 percentage points;
- the median time to compute everything (probabilities, every bet's return) for an arbitrary
  composition not seen before: compositions left in real shoes after each round, dealt by the
  simulator, with the memo cleared before each one; and the time of a memoized repeat;
- the whole answer the service serves (:func:`roads.odds.shoe_odds`) for shoes at compositions
  never seen before, against the algorithm of commit 48eb24d (its ``roads/odds.py``, loaded from
  git into a temporary module in this run), alternately, three runs, and the ratio; and the
  largest relative difference between the two answers' numbers;
- the same main-game distribution computed by a plain recursive enumeration over the next
  round's cards (the obvious exact method, in Python), in the same run, on a few of those
  compositions: its time, the ratio plain / ours, and the largest difference between the two;
- pay tables: a never-seen composition priced under each preset (:mod:`roads.presets`), against
  the three variants as the odds priced them before pay tables (``roads/odds.py`` and
  ``roads/oddsmath.py`` of :data:`BEFORE_PAY_TABLES`, loaded from git), alternately, three runs:
  each median and its ratio to the old ``standard`` (target: the largest preset <= 2x).

Run: ``python benchmarks/odds_bench.py``. Target (issue "exact odds", 2 cores): median <= 50 ms.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from roads import Scorecard
from roads import odds as ours
from roads.odds import (
    PUBLISHED_NO_COMMISSION,
    PUBLISHED_STANDARD_BANKER,
    fresh_shoe,
    odds,
    points_of,
    round_distribution,
    shoe_odds,
)
from roads.presets import PRESETS
from roads.rules import banker_draws, player_draws
from roads.simulator import iter_shoes


def check_published() -> bool:
    no_commission = odds(fresh_shoe(), "no_commission").rtp
    standard = odds(fresh_shoe(), "standard").rtp["banker"]
    print("fresh 8-deck shoe against the published returns (percent):")
    ok = True
    for bet, published in PUBLISHED_NO_COMMISSION.items():
        mine = 100 * no_commission[bet]
        match = abs(mine - published) <= 0.005
        ok &= match
        print(
            f"  {bet:<14} {mine:8.4f}   published {published:6.2f}   "
            + ("equal" if match else "DIFFERENT")
        )
    match = abs(100 * standard - PUBLISHED_STANDARD_BANKER) <= 0.005
    ok &= match
    print(
        f"  {'banker (std)':<14} {100 * standard:8.4f}   published  98.94   "
        + ("equal" if match else "DIFFERENT")
    )
    return ok


def compositions(shoes: int) -> list[tuple[int, ...]]:
    """What is left in real shoes after each round (every round of ``shoes`` simulated shoes)."""
    found = []
    for rounds in iter_shoes(shoes, 21):
        scorecard = Scorecard()
        for round in rounds:
            scorecard.add(round)
            found.append(scorecard.cards_left())
    return found


def clear_memo() -> None:
    round_distribution.cache_clear()
    ours._drawn.cache_clear()


BASELINE = "48eb24d"
BEFORE_PAY_TABLES = "7c22f0b"
BEFORE_VARIANTS = ("standard", "no_commission", "speed")  # the ones that commit had


def from_git(commit: str, path: str, name: str) -> Any:
    """The module at ``path`` as of ``commit``, loaded from git as module ``name``."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=root, check=True, capture_output=True
    ).stdout
    file = Path(tempfile.mkdtemp()) / f"{name}.py"
    file.write_bytes(source)
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def baseline_odds() -> Any:
    """``roads/odds.py`` as of :data:`BASELINE`, loaded from git into a temporary module."""
    return from_git(BASELINE, "roads/odds.py", "baseline_odds")


def before_pay_tables() -> Any:
    """``roads/odds.py`` as of :data:`BEFORE_PAY_TABLES`, with that commit's kernel."""
    kernel = from_git(BEFORE_PAY_TABLES, "roads/oddsmath.py", "before_oddsmath")
    module = from_git(BEFORE_PAY_TABLES, "roads/odds.py", "before_odds")
    module.joint_weights = kernel.joint_weights  # its own kernel, not today's
    return module


def pay_table_costs(lefts: list[tuple[int, ...]], runs: int = 3) -> None:
    """Each preset's cost for a never-seen composition, against the variants before pay
    tables, alternately: medians (us) and the ratio to the old ``standard``."""
    old = before_pay_tables()
    print(f"\npay tables, {len(lefts)} never-seen compositions each, against {BEFORE_PAY_TABLES}:")
    largest = max(PRESETS, key=lambda name: len(PRESETS[name].bets))
    ratios = []
    for run in range(runs):
        times: dict[str, list[float]] = {}
        for left in lefts:
            for variant in BEFORE_VARIANTS:
                old.round_distribution.cache_clear()
                old._outcomes.cache_clear()
                start = time.perf_counter()
                old.odds(left, variant)
                times.setdefault(f"old {variant}", []).append(time.perf_counter() - start)
            for preset in PRESETS:
                clear_memo()
                start = time.perf_counter()
                odds(left, preset)
                times.setdefault(preset, []).append(time.perf_counter() - start)
        base = statistics.median(times["old standard"])
        shown = ", ".join(
            f"{name} {statistics.median(t) * 1e6:.0f} us ({statistics.median(t) / base:.2f}x)"
            for name, t in times.items()
        )
        print(f"  run {run + 1}: {shown}")
        ratios.append(statistics.median(times[largest]) / base)
    ratio = statistics.median(ratios)
    print(
        f"  the largest preset ({largest}, {len(PRESETS[largest].bets)} bets): median "
        f"{ratio:.2f}x the old standard   target <= 2x  {'met' if ratio <= 2 else 'MISSED'}"
    )


def largest_difference(a: Any, b: Any) -> float:
    """The largest relative difference between two answers' numbers (same keys, same order)."""
    if isinstance(a, dict):
        if list(a) != list(b):
            raise SystemExit(f"the answers' keys differ: {list(a)} / {list(b)}")
        return max((largest_difference(a[key], b[key]) for key in a), default=0.0)
    if isinstance(a, float):
        return abs(a - b) / abs(a) if a != b else 0.0
    if a != b:
        raise SystemExit(f"the answers differ: {a!r} / {b!r}")
    return 0.0


def against_baseline(shoes: int, runs: int = 3) -> None:
    """The whole answer for never-seen compositions, ours and the baseline's, alternately."""
    old = baseline_odds()
    scorecards = []
    for rounds in iter_shoes(shoes, 77):
        scorecard = Scorecard()
        for round in rounds:
            scorecard.add(round)
            scorecards.append(scorecard.copy())
    difference = 0.0
    for scorecard in scorecards:
        for variant in ("standard", "no_commission"):
            mine, theirs = shoe_odds(scorecard, variant), old.shoe_odds(scorecard, variant)
            difference = max(difference, largest_difference(theirs, mine))
    print(f"\nshoe_odds, {len(scorecards)} never-seen compositions, against {BASELINE}:")
    for run in range(runs):
        new_times, old_times = [], []
        for scorecard in scorecards:
            clear_memo()
            start = time.perf_counter()
            shoe_odds(scorecard)
            new_times.append(time.perf_counter() - start)
            old.round_distribution.cache_clear()
            old.pair_probabilities.cache_clear()
            start = time.perf_counter()
            old.shoe_odds(scorecard)
            old_times.append(time.perf_counter() - start)
        new, before = statistics.median(new_times) * 1e6, statistics.median(old_times) * 1e6
        print(
            f"  run {run + 1}: ours {new:7.1f} us   {BASELINE} {before:7.1f} us   "
            f"ratio {before / new:4.1f}x   target <= 40 us  {'met' if new <= 40 else 'MISSED'}"
        )
    print(f"  largest relative difference between the two answers: {difference:.1e}")


def plain_distribution(points: tuple[int, ...]) -> np.ndarray:
    """The main game's joint distribution by direct recursion over the cards dealt (exact, the
    textbook way): the baseline."""
    counts = list(points)
    joint = np.zeros((2, 10, 10))

    def draw(weight: float, then) -> None:
        total = sum(counts)
        for value in range(10):
            if counts[value]:
                chance = counts[value] / total
                counts[value] -= 1
                then(weight * chance, value)
                counts[value] += 1

    def four(weight, p1, b1, p2, b2):
        player, banker = (p1 + p2) % 10, (b1 + b2) % 10
        if player >= 8 or banker >= 8:
            joint[1, player, banker] += weight
        elif player_draws(player):

            def third(w, p3):
                final = (player + p3) % 10
                if banker_draws(banker, p3):
                    draw(
                        w,
                        lambda w6, b3: joint.__setitem__(
                            (0, final, (banker + b3) % 10), joint[0, final, (banker + b3) % 10] + w6
                        ),
                    )
                else:
                    joint[0, final, banker] += w

            draw(weight, third)
        elif banker_draws(banker, None):
            draw(
                weight,
                lambda w, b3: joint.__setitem__(
                    (0, player, (banker + b3) % 10), joint[0, player, (banker + b3) % 10] + w
                ),
            )
        else:
            joint[0, player, banker] += weight

    draw(
        1.0,
        lambda w1, p1: draw(
            w1,
            lambda w2, b1: draw(
                w2, lambda w3, p2: draw(w3, lambda w4, b2: four(w4, p1, b1, p2, b2))
            ),
        ),
    )
    return joint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shoes", type=int, default=20)
    parser.add_argument("--plain", type=int, default=5, help="compositions for the baseline")
    parser.add_argument("--against", type=int, default=6, help="shoes timed against 48eb24d")
    parser.add_argument("--pay-tables", type=int, default=300, help="compositions per preset")
    args = parser.parse_args()

    ok = check_published()
    left = compositions(args.shoes)
    timings = []
    for counts in left:
        clear_memo()
        start = time.perf_counter()
        odds(counts, "no_commission")
        timings.append((time.perf_counter() - start) * 1000)
    start = time.perf_counter()
    for _ in range(1000):
        odds(left[-1], "no_commission")
    memo_us = (time.perf_counter() - start) * 1000
    median = statistics.median(timings)
    print(
        f"\nall odds of one composition, {len(left)} compositions left in {args.shoes} dealt shoes:"
    )
    print(
        f"  median {median:.3f} ms, p95 {sorted(timings)[int(0.95 * (len(timings) - 1))]:.3f} ms, "
        f"max {max(timings):.3f} ms   target <= 50 ms  {'met' if median <= 50 else 'MISSED'}"
    )
    print(f"  memoized repeat: {memo_us:.1f} us")

    against_baseline(args.against)

    plain_times, ours_times, difference = [], [], 0.0
    for counts in left[:: max(1, len(left) // args.plain)][: args.plain]:
        points = points_of(counts)
        start = time.perf_counter()
        reference = plain_distribution(points)
        plain_times.append((time.perf_counter() - start) * 1000)
        clear_memo()
        start = time.perf_counter()
        mine = round_distribution(points)
        ours_times.append((time.perf_counter() - start) * 1000)
        difference = max(difference, float(np.abs(reference - mine).max()))
    plain, ours = statistics.median(plain_times), statistics.median(ours_times)
    print(f"\nmain-game distribution, {len(plain_times)} compositions, same run:")
    print(
        f"  plain recursive enumeration {plain:9.1f} ms   ours {ours:.3f} ms   "
        f"ratio {plain / ours:,.0f}x"
    )
    print(f"  largest difference between the two: {difference:.1e}")
    pay_table_costs(left[:: max(1, len(left) // args.pay_tables)][: args.pay_tables])
    if not ok:
        raise SystemExit("the fresh-shoe figures differ from the published table")


if __name__ == "__main__":
    main()
