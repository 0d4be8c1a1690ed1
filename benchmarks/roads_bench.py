"""Benchmark of the roads core on realistic 8-deck shoes dealt by the simulator.

Prints, for shoes of about 80 rounds:
- median time to append one round to a Scorecard with everything kept up to date (probe,
  streaks and stats included), per shoe averaged over its rounds, then the median over shoes;
- median time to build a whole shoe's Scorecard from its rounds (``Scorecard.from_rounds``);
- median and largest serialized state size (``Scorecard.to_bytes``);
- the naive alternative measured in the same run, rebuilding the whole scorecard from the shoe's
  rounds after every round, per round, and the ratio naive / incremental;
- load and dump of the state, and the service's read-modify-write path: load the state of a
  shoe, append its next round, dump the state again;
- add + the served document per round (issue 44): over ``--held-out`` shoes dealt from a seed
  no other row uses, ``Scorecard.add`` and then ``as_dict()`` after every round, per round,
  against the most used public peer, npm ``baccarat-engine`` 1.1.5, recomputing its roads (bead
  plate, Big Road, Big Eye Boy, Small Road, Cockroach Pig) from the shoe's results after every
  round as its README's sample does, timed in node on the same shoes in the same run. The bench
  installs the peer with npm into a temporary prefix; without node or npm it says so and skips
  the row.

Run: ``python benchmarks/roads_bench.py [--shoes N]``. Targets (issue "roads core", CPython 3.11,
2 cores): append <= 15 us, whole shoe <= 300 us, state <= 4096 bytes, ratio >= 8; issue 44:
add + the served document under a fifth of the peer's recompute.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter_ns

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roads import Scorecard
from roads.simulator import iter_shoes

PEER = "baccarat-engine@1.1.5"
HELD_OUT_SEED = 4_404_404  # the held-out shoes' (the other rows': --seed)
# The peer's own recompute of its roads after each round, as its sample-usage.js makes it, timed
# in node: per shoe the best of REPEATS passes, per round; the median over shoes.
PEER_SCRIPT = r"""
const fs = require('fs');
const {BaccaratResultsEngine, Card, Hand, RoadmapGenerator} = require('baccarat-engine');
const {shoes, repeats} = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const engine = new BaccaratResultsEngine();
const roads = new RoadmapGenerator();
const SUITS = {S: 'spade', H: 'heart', D: 'diamond', C: 'club'};
const card = (text) => new Card(SUITS[text.slice(-1)], text.slice(0, -1));
let kept = 0;
const perRound = shoes.map((rounds) => {
  const games = rounds.map(([player, banker]) =>
    engine.calculateGameResult(new Hand(player.map(card), banker.map(card))));
  let best = Infinity;
  for (let pass = 0; pass < repeats; pass += 1) {
    const start = process.hrtime.bigint();
    const results = [];
    for (const game of games) {
      results.push(game);
      const beadPlate = roads.beadPlate(results, {columns: 20, rows: 6});
      const bigRoad = roads.bigRoad(results);
      const bigEye = roads.bigEyeRoad(bigRoad);
      const small = roads.smallRoad(bigRoad);
      const cockroach = roads.cockroachPig(bigRoad);
      kept += beadPlate.length + bigEye.length + small.length + cockroach.length;
    }
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return best / games.length / 1000;
});
perRound.sort((a, b) => a - b);
const middle = perRound.length >> 1;
const median = perRound.length % 2
  ? perRound[middle] : (perRound[middle - 1] + perRound[middle]) / 2;
console.log(JSON.stringify({median_us: median, node: process.version, kept}));
"""


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


def add_and_serve(rounds) -> None:
    scorecard = Scorecard()
    for round in rounds:
        scorecard.add(round)
        scorecard.as_dict()


def peer_per_round(shoes, repeats: int) -> tuple[float, str] | str:
    """The peer's median microseconds a round over ``shoes`` and its node version, or why it
    could not be measured."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return "node or npm is not on PATH"
    with tempfile.TemporaryDirectory(prefix="roads-bench-peer-") as temp:
        prefix = Path(temp)
        install = [npm, "install", "--prefix", temp, "--no-audit", "--no-fund", PEER]
        try:
            subprocess.run(install, capture_output=True, text=True, check=True, timeout=300)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            return f"npm could not install {PEER} (registry unreachable?): {error}"
        cards = [
            [[[str(c) for c in r.player_cards], [str(c) for c in r.banker_cards]] for r in shoe]
            for shoe in shoes
        ]
        (prefix / "shoes.json").write_text(json.dumps({"shoes": cards, "repeats": repeats}))
        (prefix / "peer.js").write_text(PEER_SCRIPT)
        done = subprocess.run(
            [node, "peer.js", "shoes.json"], cwd=temp, capture_output=True, text=True, check=False
        )
        if done.returncode:
            return f"the peer's script failed: {done.stderr.strip()[-500:]}"
        answer = json.loads(done.stdout)
        return answer["median_us"], answer["node"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5, help="runs per shoe; the best counts")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--held-out", type=int, default=200, help="shoes for add + document")
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
    served_row(args.held_out, args.repeats)


def served_row(count: int, repeats: int) -> None:
    """Add + the served document per round, ours against the peer's recompute (issue 44)."""
    shoes = list(iter_shoes(count, HELD_OUT_SEED))
    ours = statistics.median(
        best_of(repeats, lambda r=rounds: add_and_serve(r)) / len(rounds) / 1000 for rounds in shoes
    )
    print(f"\nadd + the served document per round ({count} held-out shoes)")
    print(f"{'ours: Scorecard.add + as_dict()':34s} {ours:9.2f} us")
    peer = peer_per_round(shoes, repeats)
    if isinstance(peer, str):
        print(f"{'peer ' + PEER:34s} skipped: {peer}")
        return
    theirs, node = peer
    verdict = "met" if ours < theirs / 5 else "MISSED"
    print(f"{'peer ' + PEER:34s} {theirs:9.2f} us  (its roads recomputed; node {node})")
    print(f"{'ratio ours / peer':34s} {ours / theirs:9.3f}     target < 0.2 (a fifth)  {verdict}")


if __name__ == "__main__":
    main()
