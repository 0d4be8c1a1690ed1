"""Benchmark of the roads core on realistic 8-deck shoes dealt by the simulator.

Prints, for shoes of about 80 rounds:
- median time to append one round to a Scorecard with everything kept up to date (probe,
  streaks and stats included), per shoe averaged over its rounds, then the median over shoes;
- median time to build a whole shoe's Scorecard from its rounds (``Scorecard.from_rounds``);
- median and largest serialized state size (``Scorecard.to_bytes``);
- the naive alternative measured in the same run, rebuilding the whole scorecard from the shoe's
  rounds after every round, per round, and the ratio naive / incremental;
- load and dump of the state, and the service's read-modify-write path: load the state of a
  shoe, append its next round, dump the state again.

Run: ``python benchmarks/roads_bench.py [--shoes N]``. Targets (issue "roads core", CPython 3.11,
2 cores): append <= 15 us, whole shoe <= 300 us, state <= 4096 bytes, ratio >= 8.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
from pathlib import Path
from time import perf_counter_ns

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roads import Scorecard
from roads.simulator import iter_shoes


def best_of(repeats: int, action) -> float:
    """The fastest of ``repeats`` runs of ``action``, in nanoseconds (the least disturbed run)."""
    best = float("inf")
    for _ in range(repeats):
        start = perf_counter_ns()
        action()
        best = min(best, perf_counter_ns() - start)
    return best


def append_shoe(rounds) -> Scorecard:
    scorecard = Scorecard()
    add = scorecard.add
    for round in rounds:
        add(round)
    return scorecard


def resume(state: bytes, round) -> bytes:
    scorecard = Scorecard.from_bytes(state)
    scorecard.add(round)
    return scorecard.to_bytes()


def naive_shoe(rounds) -> None:
    for end in range(1, len(rounds) + 1):
        Scorecard.from_rounds(rounds[:end])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5, help="runs per shoe; the best counts")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    shoes = list(iter_shoes(args.shoes, args.seed))
    append_us, build_us, naive_us, load_us, dump_us, sizes = [], [], [], [], [], []
    resume_us = []
    gc.disable()  # collections would land on random shoes; the code makes no cycles
    for rounds in shoes:
        n = len(rounds)
        append_us.append(best_of(args.repeats, lambda r=rounds: append_shoe(r)) / n / 1000)
        build_us.append(best_of(args.repeats, lambda r=rounds: Scorecard.from_rounds(r)) / 1000)
        naive_us.append(best_of(1, lambda r=rounds: naive_shoe(r)) / n / 1000)
        scorecard = Scorecard.from_rounds(rounds)
        state = scorecard.to_bytes()
        sizes.append(len(state))
        load_us.append(best_of(args.repeats, lambda s=state: Scorecard.from_bytes(s)) / 1000)
        dump_us.append(best_of(args.repeats, scorecard.to_bytes) / 1000)
        before = Scorecard.from_rounds(rounds[:-1]).to_bytes()
        resume_us.append(best_of(args.repeats, lambda s=before, r=rounds[-1]: resume(s, r)) / 1000)
    gc.enable()

    rounds_per_shoe = [len(rounds) for rounds in shoes]
    append = statistics.median(append_us)
    naive = statistics.median(naive_us)
    build = statistics.median(build_us)
    size = statistics.median(sizes)
    print(
        f"python {sys.version.split()[0]}, {len(shoes)} shoes, "
        f"{statistics.median(rounds_per_shoe):.0f} rounds per shoe (median)"
    )
    rows = [
        ("append one round (incremental)", f"{append:8.2f} us", "<= 15 us", append <= 15),
        ("build a whole shoe (batch)", f"{build:8.1f} us", "<= 300 us", build <= 300),
        ("state size (median)", f"{size:8.0f} B", "<= 4096 B", size <= 4096),
        ("state size (largest)", f"{max(sizes):8d} B", "<= 4096 B", max(sizes) <= 4096),
        ("naive rebuild per round", f"{naive:8.2f} us", "baseline", None),
        ("ratio naive / incremental", f"{naive / append:8.1f} x", ">= 8", naive / append >= 8),
        ("load state (from_bytes)", f"{statistics.median(load_us):8.1f} us", "", None),
        ("dump state (to_bytes)", f"{statistics.median(dump_us):8.1f} us", "", None),
        ("load + append + dump", f"{statistics.median(resume_us):8.1f} us", "", None),
    ]
    for name, value, target, met in rows:
        verdict = "" if met is None else ("met" if met else "MISSED")
        print(f"{name:34s} {value:>12s}   target {target:10s} {verdict}")


if __name__ == "__main__":
    main()
