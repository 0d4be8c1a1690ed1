"""Benchmark of a card round's write plan (issue 44): ``api.plan.planner.plan_append`` per round,
with the tile's figures, over simulated shoes no process planned before, against the same loop
at an earlier commit in the same run.

Prints:
- for this tree and for ``--against REF`` (default 48eb24d, before issue 44), alternating run by
  run, ``--runs`` runs each: microseconds a round over ``--shoes`` fresh shoes, each run in its
  own process (the odds' memo starts empty) on seeds no earlier run used (the two trees get the
  same seeds in the same run); the medians, the ratio, and the target (median <= 150 us);
- each part's cost in this tree, as the issue lists them (odds, road patch, tile roads, good
  roads, the state's bytes, the rest), in another fresh process on other fresh seeds: each part's
  functions (:data:`PARTS`) wrapped with a timer that counts a call's own time (a part called
  inside another counts to itself only), so the parts sum to the whole.

``--watch``: the same with the integrity watch on, as the service runs by default
(``ROADS_INTEGRITY``; each tree with its own default :class:`WatchSettings`): the shuffle test
of a shoe's first rounds, the cut card, the side bets' exposure and the drift's tallies. The
issue's target is for the plan without it (the default here).

REF's tree comes from ``git archive REF`` (a full clone is needed) into a temporary directory
and runs this file there, with this interpreter. Each process first plans one shoe on a seed
outside the timed ones, untimed: what a service's worker pays once (imports, the fresh shoe's
odds, the figures' chains), not a write.

Run: ``python benchmarks/plan_bench.py [--shoes 20] [--runs 3] [--against REF] [--watch]``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_US = 150.0
WARM_SEED = 7_044_000_000  # the untimed shoe's; timed seeds count up from --seed

#: The parts of a write the issue names, each the functions it is spent in, as
#: ``module:attribute[.attribute]`` where the plan looks them up (adjust as the code moves;
#: a name not found is reported and its time falls to "the rest").
PARTS: dict[str, tuple[str, ...]] = {
    "odds": ("api.plan.planner:shoe_odds",),
    "road patch": ("api.plan.planner:append_events", "roads.delta:Tails.of"),
    "tile roads": ("roads.lobby:tile_roads",),
    "good roads": ("roads.scorecard:Scorecard.good_roads",),
    "state's bytes": ("roads.scorecard:Scorecard.to_bytes",),
    "add (Scorecard.add)": ("roads.scorecard:Scorecard.add",),
    "integrity watch": ("api.plan.planner:append_part",),
}


# -- the worker: runs in the tree it times --------------------------------------------------


def plan_shoes(
    seeds: Iterable[int], with_figures: bool = True, watched: bool = False
) -> tuple[float, int]:
    """Plan every round of the shoes dealt from ``seeds``, one ``plan_append`` at a time as the
    writer makes them, with the tile's figures (or without) and the integrity watch (or
    without); the seconds spent in ``plan_append`` and the rounds planned."""
    from api.plan.plan import Base
    from api.plan.planner import plan_append
    from roads import Scorecard
    from roads.integrity.shoewatch import WatchSettings
    from roads.rarity import LobbyFigures
    from roads.shoe import ShoeHead
    from roads.simulator import deal_shoe

    figures = LobbyFigures(80, 40) if with_figures else None
    watch = WatchSettings() if watched else None
    spent, rounds = 0.0, 0
    for seed in seeds:
        scorecard = Scorecard()
        for number, round in enumerate(deal_shoe(seed), start=1):
            head = ShoeHead("s1", number - 1, "s1" if number > 1 else None)
            base = Base(head, number - 1, "standard", scorecard)
            start = time.perf_counter()
            plan = plan_append("t1", "s1", number, round, base, watch=watch, figures=figures)
            spent += time.perf_counter() - start
            scorecard, rounds = plan.scorecard, rounds + 1
    return spent, rounds


class PartTimer:
    """Wraps each part's functions; a call's time goes to its part, less the time of the wrapped
    calls inside it (which go to theirs)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.missing: list[str] = []
        self._children: list[float] = []

    def install(self, parts: dict[str, tuple[str, ...]]) -> None:
        for part, names in parts.items():
            self.spent[part] = 0.0
            for name in names:
                if not self._wrap(part, name):
                    self.missing.append(name)

    def _wrap(self, part: str, name: str) -> bool:
        module_name, _, path = name.partition(":")
        try:
            owner: Any = importlib.import_module(module_name)
            *outer, attribute = path.split(".")
            for step in outer:
                owner = getattr(owner, step)
            raw = owner.__dict__[attribute] if isinstance(owner, type) else None
            function = getattr(owner, attribute)
        except (ImportError, AttributeError, KeyError):
            return False
        if isinstance(raw, classmethod):
            setattr(owner, attribute, classmethod(self._timed(part, raw.__func__)))
        elif isinstance(raw, staticmethod):
            setattr(owner, attribute, staticmethod(self._timed(part, raw.__func__)))
        else:
            setattr(owner, attribute, self._timed(part, raw if raw is not None else function))
        return True

    def _timed(self, part: str, function: Callable) -> Callable:
        spent, children = self.spent, self._children

        def timed(*args: Any, **kwargs: Any) -> Any:
            children.append(0.0)
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                took = time.perf_counter() - start
                inner = children.pop()
                spent[part] += took - inner
                if children:
                    children[-1] += took

        return timed


def worker(seeds: list[int], parts: bool, watched: bool) -> dict[str, Any]:
    plan_shoes([WARM_SEED], watched=watched)
    timer = PartTimer()
    if parts:
        timer.install(PARTS)
    spent, rounds = plan_shoes(seeds, watched=watched)
    import roads

    return {
        "roads": roads.__file__,
        "us": 1e6 * spent / rounds,
        "rounds": rounds,
        "parts": {part: 1e6 * took / rounds for part, took in timer.spent.items()},
        "missing": timer.missing,
    }


# -- the driver -----------------------------------------------------------------------------


def tree_of(ref: str, into: Path) -> Path:
    """``ref``'s tree (``git archive``), with this file in it to run there."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    shutil.copy(__file__, into / "benchmarks" / "plan_bench_worker.py")
    return into


def run_in(
    tree: Path, script: Path, seeds: list[int], parts: bool = False, watched: bool = False
) -> dict[str, Any]:
    command = [sys.executable, str(script), "--worker", ",".join(map(str, seeds))]
    if parts:
        command.append("--parts")
    if watched:
        command.append("--watch")
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the worker in {tree} failed:\n{done.stderr}")
    result = json.loads(done.stdout.splitlines()[-1])
    if not Path(result["roads"]).is_relative_to(tree):  # the tree it meant to time
        raise SystemExit(f"the worker in {tree} imported {result['roads']}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shoes", type=int, default=20, help="fresh shoes a run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", default="48eb24d", help="the commit to compare with")
    parser.add_argument("--seed", type=int, default=44_000_000, help="the first timed seed")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # seeds, comma-separated
    parser.add_argument("--parts", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--watch", action="store_true", help="with the integrity watch on")
    args = parser.parse_args()
    if args.worker is not None:
        sys.path.insert(0, str(Path.cwd()))
        seeds = [int(seed) for seed in args.worker.split(",")]
        print(json.dumps(worker(seeds, args.parts, args.watch)))
        return

    def seeds(batch: int) -> list[int]:
        return [args.seed + batch * args.shoes + index for index in range(args.shoes)]

    with tempfile.TemporaryDirectory(prefix="plan-bench-") as temp:
        old = tree_of(args.against, Path(temp))
        trees = {
            "this tree": (ROOT, Path(__file__).resolve()),
            args.against: (old, old / "benchmarks" / "plan_bench_worker.py"),
        }
        print(
            f"python {sys.version.split()[0]}; plan_append with LobbyFigures(80, 40), "
            f"{'with' if args.watch else 'without'} the integrity watch, "
            f"{args.shoes} fresh shoes a run, each run a fresh process"
        )
        timings: dict[str, list[float]] = {name: [] for name in trees}
        for run in range(args.runs):
            order = list(trees) if run % 2 == 0 else list(reversed(trees))
            for name in order:
                tree, script = trees[name]
                result = run_in(tree, script, seeds(run), watched=args.watch)
                timings[name].append(result["us"])
                print(
                    f"  run {run + 1}  {name:<10} {result['us']:8.1f} us a round "
                    f"({result['rounds']} rounds)"
                )
        medians = {name: statistics.median(values) for name, values in timings.items()}
        for name, median in medians.items():
            print(f"median      {name:<10} {median:8.1f} us a round")
        now, before = medians["this tree"], medians[args.against]
        verdict = "met" if now <= TARGET_US else "MISSED"
        if args.watch:
            verdict += " (the target is for the plan without the watch)"
        print(f"ratio this tree / {args.against}: {now / before:.3f} ({before / now:.2f}x faster)")
        print(f"target: median <= {TARGET_US:.0f} us a round: {now:.1f} us, {verdict}")
        parted = run_in(
            ROOT, Path(__file__).resolve(), seeds(args.runs), parts=True, watched=args.watch
        )
        print(
            f"\nthis tree's parts (another fresh process and shoes; {parted['us']:.1f} us a round)"
        )
        rest = parted["us"] - sum(parted["parts"].values())
        for part, spent in [*parted["parts"].items(), ("the rest", rest)]:
            print(f"  {part:<22} {spent:8.1f} us  {100 * spent / parted['us']:5.1f}%")
        for name in parted["missing"]:
            print(f"  (not found, counted in the rest: {name})")


if __name__ == "__main__":
    main()
