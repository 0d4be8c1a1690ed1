"""Integrity watch benchmark: false alarms over fair shoes, rounds to detection of each kind of
bad shoe, and what the watch costs ingest.

1. **False alarms**, over ``--shoes`` simulated fair shoes (100,000 by default; two processes):
   the shuffle test as each write runs it (its first rounds) and over the whole shoe, the
   smallest chance it stated; repeated-shoe matches between different shoes (every anchor of
   every shoe against every other's); rounds past the cut card. Drift over ``--drift-tables``
   tables of ``--shoes-a-day`` shoes each (the chances of each round exact from its cards, then
   Benjamini-Hochberg across the tables): tables alerted, and discoveries.
2. **Rounds to detection** of: decks in maker's order; each deck given one perfect riffle; the
   whole shoe given one random riffle (``--riffles`` seeds: median and worst); a lazy shuffle,
   new decks given 1 to 5 riffles (``--riffles`` stacks each: the share named within 16
   rounds, and the rounds to alarm); a shoe replayed
   from its first round and from a random round; a result-only shoe run past the cut card.
3. **Ingest cost**: gunicorn (2 workers) on a private redis-server, wrk posting rounds *with
   their cards* (each table deals fresh simulated shoes) at full speed for ``--seconds``, with
   the watch on and off (``ROADS_INTEGRITY``), alternating, ``--runs`` each; the ratio of the
   best rates. Target: on >= 0.9x off.

Run: ``python benchmarks/integrity_bench.py [--shoes 100000] [--seconds 8] [--runs 3]`` (needs
Debian's ``wrk``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from serving import gunicorn, redis_server

from roads import Round, Scorecard
from roads.badshoes import maker_order, riffled, riffled_once, shoe_riffled_once
from roads.integrity import drift, repeats
from roads.integrity.cutcard import DEFAULT_BEHIND, last_start
from roads.integrity.dealing import dealt_cards
from roads.integrity.shoewatch import WatchSettings, observed, watch_append
from roads.integrity.shuffle import ALARM, alarm_round, rounds_tests
from roads.odds import fresh_odds, shoe_odds
from roads.simulator import deal_rounds, deal_shoe, shuffled_shoe

WRITE_ROUNDS = WatchSettings().rounds  # the rounds each write tests
KEY = "bench-key"


# -- 1. false alarms ---------------------------------------------------------------------------


def packed(fingerprint: str) -> int:
    """A k-gram's cards (0-51 each) in 6 bits each: the same cards, the same 60-bit number."""
    value = 0
    for card in bytes.fromhex(fingerprint):
        value = value << 6 | card
    return value


def fair_chunk(seeds: list[int]) -> dict:
    """The checks over the fair shoes of ``seeds``: alarms, the smallest chances, anchors."""
    write_alarms = shoe_alarms = past_cut = 0
    least = 1.0
    fingerprints: list[np.ndarray] = []
    limit = last_start(8, DEFAULT_BEHIND)
    for seed in seeds:
        rounds = deal_shoe(seed)
        used = 0
        for round in rounds:
            if used > limit:
                past_cut += 1
            used += len(round.player_cards) + len(round.banker_cards)
        # The test at each round's end; its evidence is the most so far, so the writes' test
        # (the first rounds) alarmed if it stands alarmed at the last of them.
        tests = rounds_tests(dealt_cards([round])[0] for round in rounds)
        write_alarms += tests[min(WRITE_ROUNDS, len(tests)) - 1].unshuffled
        shoe_alarms += tests[-1].unshuffled
        least = min(least, tests[-1].chance)
        found = {packed(a.fingerprint) for a in repeats.anchors(dealt_cards(rounds)[0])}
        fingerprints.append(np.fromiter(found, dtype=np.uint64, count=len(found)))
    return {
        "write_alarms": write_alarms,
        "shoe_alarms": shoe_alarms,
        "least": least,
        "past_cut": past_cut,
        "fingerprints": np.concatenate(fingerprints),
    }


def false_alarms(shoes: int, processes: int) -> None:
    seeds = list(range(1, shoes + 1))
    chunks = [seeds[at : at + 1000] for at in range(0, shoes, 1000)]
    started = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        results = pool.map(fair_chunk, chunks)
    fingerprints = np.sort(np.concatenate([r["fingerprints"] for r in results]))
    repeats_found = int(np.count_nonzero(fingerprints[1:] == fingerprints[:-1]))
    took = time.perf_counter() - started
    print(f"\n== false alarms over {shoes:,} fair shoes ({took:.0f} s, {processes} processes)")
    write_alarms = sum(r["write_alarms"] for r in results)
    print(
        f"  unshuffled, as the writes test (first {WRITE_ROUNDS} rounds): {write_alarms}"
        f"   target 0  {'met' if write_alarms == 0 else 'MISSED'}"
    )
    print(
        f"  unshuffled, over the whole shoe:                   "
        f"{sum(r['shoe_alarms'] for r in results)}"
    )
    least = min(r["least"] for r in results)
    print(f"  smallest chance stated for a fair shoe:            {least:.2e}", end="")
    print(f"  (alarm below {ALARM:.0e})")
    print(
        f"  repeated shoe: anchors indexed {len(fingerprints):,}, matches between shoes: "
        f"{repeats_found}"
    )
    print(
        f"  rounds past the cut card (at least {DEFAULT_BEHIND} behind): "
        f"{sum(r['past_cut'] for r in results)}"
    )


def drift_table(seeds: list[int]) -> tuple[float, ...]:
    """One table's day: its shoes' rounds tallied against their exact chances (as the integrity
    script adds them), the tally's numbers."""
    values = [0.0] * len(drift.FIELDS)
    n = len(drift.OUTCOMES)
    last = 0
    for seed in seeds:
        card = Scorecard()
        for round in deal_shoe(seed):
            chances = drift.chances(shoe_odds(card))
            card.add(round)
            values[0] += 1
            for i, (p, seen) in enumerate(zip(chances, observed(round), strict=True)):
                values[1 + i] += seen
                values[1 + n + i] += p
                values[1 + 2 * n + i] += p * (1 - p)
            side = {"B": 1, "P": 2}.get(round.result, 0)
            if side:
                values[1 + 3 * n + side - 1] += 1
                if side != last:
                    values[1 + 3 * n + 2] += 1
                    last = side
    values[-1] = last
    return tuple(values)


def drift_alarms(tables: int, shoes_a_day: int, processes: int) -> None:
    rng = random.Random(2026)
    days = [[rng.getrandbits(64) for _ in range(shoes_a_day)] for _ in range(tables)]
    started = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        tallies = pool.map(drift_table, days)
    found = drift.report({f"t{i}": drift.DayTally(values) for i, values in enumerate(tallies)})
    rounds = sum(entry["rounds"] for entry in found.values())
    smallest = min(entry["p"] for entry in found.values())
    print(
        f"\n== drift over {tables} fair tables, {shoes_a_day} shoes a day each "
        f"({rounds:,} rounds, {time.perf_counter() - started:.0f} s)"
    )
    print(
        f"  smallest table p-value: {smallest:.3g}; discoveries (BH, q = "
        f"{drift.FALSE_DISCOVERY}): {sum(e['discovery'] for e in found.values())}; "
        f"alerts (adjusted p < {drift.ALERT}): {sum(e['alert'] for e in found.values())}"
    )


# -- 2. rounds to detection --------------------------------------------------------------------


def unshuffled_round(shoe) -> int | None:
    return alarm_round(dealt_cards([round])[0] for round in deal_rounds(shoe))


def lazy_shuffles(stacks: int) -> None:
    """Eight new decks stacked, given 1 to 5 Gilbert-Shannon-Reeds riffles (``stacks`` seeds
    each) and dealt: the share named within 16 rounds (targets: 3 riffles >= 99%, 4 >= 90%)."""
    print(f"  a lazy shuffle: new decks given k riffles ({stacks} stacks each; 16 rounds)")
    for count in range(1, 6):
        rng = random.Random(1000 * count)
        found = [
            alarm_round(dealt_cards([r])[0] for r in list(deal_rounds(riffled(rng, count)))[:16])
            for _ in range(stacks)
        ]
        got = sorted(r for r in found if r is not None)
        share = len(got) / stacks
        middle = statistics.median(got) if got else "-"
        tail = got[max(0, int(0.9 * len(got)) - 1)] if got else "-"
        target = {3: 0.99, 4: 0.90}.get(count)
        verdict = (
            f"   target >= {target:.0%}  {'met' if share >= target else 'MISSED'}" if target else ""
        )
        print(
            f"    {count} riffle{'s' if count > 1 else ' '}: named in {share:7.2%}, rounds to "
            f"alarm median {middle}, 90th percentile {tail}, worst {got[-1] if got else '-'}"
            f"{verdict}"
        )


def replay_round(rounds, start: int) -> int | None:
    """The round of a replay (rounds ``start`` on of a shoe, dealt again as a shoe of their own)
    at which the watch, taking its rounds one by one as the writes do, finds an anchor the first
    shoe indexed."""
    indexed = {anchor.fingerprint for anchor in repeats.anchors(dealt_cards(rounds)[0])}
    cards: list[int] = []
    for number, round in enumerate(rounds[start - 1 :], start=1):
        new = dealt_cards([round])[0]
        cards += new
        if any(a.fingerprint in indexed for a in repeats.anchors(cards, len(cards) - len(new))):
            return number
    return None


def detection(riffles: int) -> None:
    print("\n== rounds to detection")
    print(f"  decks in maker's order:                  round {unshuffled_round(maker_order())}")
    print(f"  each deck riffled once (perfectly):      round {unshuffled_round(riffled_once())}")
    rounds = [unshuffled_round(shoe_riffled_once(random.Random(s))) for s in range(riffles)]
    missed = rounds.count(None)
    caught = sorted(r for r in rounds if r is not None)
    print(
        f"  the shoe riffled once ({riffles} seeds):     median round "
        f"{statistics.median(caught)}, worst {caught[-1]}, missed {missed}"
    )
    lazy_shuffles(riffles)
    rng = random.Random(4)
    starts, mids = [], []
    for _ in range(riffles):
        rounds_of = list(deal_rounds(shuffled_shoe(rng)))
        starts.append(replay_round(rounds_of, 1))
        mids.append(replay_round(rounds_of, rng.randrange(2, len(rounds_of) - 8)))
    for name, found in (("from its first round", starts), ("from a random round", mids)):
        got = [r for r in found if r is not None]
        print(
            f"  a shoe replayed {name:<22}  median round {statistics.median(got)}, worst "
            f"{max(got)}, missed {found.count(None)} of {riffles}"
        )
    limit = last_start(8, DEFAULT_BEHIND)
    print(
        f"  a result-only shoe past the cut card:    round {past_cut_round()} (4 cards a round at"
    )
    print(f"    least; the last hand starts by card {limit}, {DEFAULT_BEHIND} before the back)")


def past_cut_round() -> int | None:
    """The round at which the watch, as each write runs it, names a shoe of bare results that
    goes on past the cut card's last hand."""
    card, fresh = Scorecard(), fresh_odds()
    for number in range(1, 200):
        round = Round("BP"[number % 2])
        card.add(round)
        part = watch_append(card, number, round, fresh, fresh, WatchSettings())
        if any(finding.kind == "impossible_cards" for finding in part.findings):
            return number
    return None


# -- 3. ingest cost ----------------------------------------------------------------------------


def rounds_file(path: Path, tables: int, shoes: int, tag: str, seed: int) -> None:
    """Each table's rounds: ``shoes`` fresh simulated shoes, as request lines."""
    rng = random.Random(seed)
    with path.open("w") as out:
        for t in range(tables):
            for s in range(shoes):
                for number, round in enumerate(deal_shoe(rng.getrandbits(64)), start=1):
                    body = json.dumps(
                        {
                            "round": number,
                            "player": [str(c) for c in round.player_cards],
                            "banker": [str(c) for c in round.banker_cards],
                        },
                        separators=(",", ":"),
                    )
                    print(t, f"/v1/tables/t{t}/shoes/{tag}{s}/rounds", body, file=out)


def ingest_rate(watch: bool, seconds: int, folder: Path, run: int) -> tuple[float, int]:
    """Rounds a second stored at full speed, and the non-2xx answers."""
    tables = 100
    data = folder / f"rounds-{run}.txt"
    rounds_file(data, tables, shoes=max(2, seconds // 4), tag=f"r{run}-", seed=run)
    script = folder / "ingest.lua"
    script.write_text((Path(__file__).resolve().parent / "wrk" / "cards.lua").read_text())
    with redis_server() as redis:
        env = {
            "REDIS_URL": redis.url,
            "ROADS_INGEST_KEYS": KEY,
            "ROADS_DEMO": "0",
            "ROADS_WORKERS": "2",
            "ROADS_INTEGRITY": "1" if watch else "0",
            "ROADS_ACCESS_LOG": "0",
        }
        with gunicorn("wsgi:app", env) as base:
            deadline = time.monotonic() + 10
            while len(base.workers()) < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            pids = [*base.workers(), redis.process.pid]
            before = [cpu_seconds(pid) for pid in pids]
            command = ["wrk", "-t2", "-c8", f"-d{seconds}s", "-s", str(script), base]
            out = subprocess.run(
                command,
                capture_output=True,
                text=True,
                env={
                    **os.environ,
                    "ROUNDS_FILE": str(data),
                    "KEY": KEY,
                    "THREADS": "2",
                    "FIRST": "0",
                    "LAST": str(tables - 1),
                },
                timeout=seconds + 60,
            ).stdout
            spent = [cpu_seconds(pid) - was for pid, was in zip(pids, before, strict=True)]
    refused: dict[str, int] = {}
    for line in out.splitlines():
        if line.startswith("status ") and not line.startswith(("status 201", "status 200")):
            kind = re.sub(r"\d+", "N", line.rsplit(":", 1)[0].split(',"request_id')[0])
            refused[kind] = refused.get(kind, 0) + int(line.rsplit(":", 1)[1])
            if os.environ.get("SHOW_REFUSED"):
                print("   ", line)
    for kind, count in sorted(refused.items()):
        print(f"    {count} x {kind}")
    stored = sum(int(n) for n in re.findall(r"^status 201: (\d+)$", out, re.M))
    per_round = [1e6 * cpu / max(stored, 1) for cpu in spent]
    print(
        f"    CPU per round stored: workers {sum(per_round[:-1]):.0f} us, redis-server "
        f"{per_round[-1]:.0f} us"
    )
    return stored / seconds, sum(refused.values())


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ingest_cost(seconds: int, runs: int) -> None:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    print(
        f"\n== ingest with cards, full speed (wrk -t2 -c8, 100 tables, 2 workers), {seconds} s,"
        f" {runs} runs each, alternating"
    )
    rates: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs):
            for watch in (False, True):
                rate, errors = ingest_rate(watch, seconds, Path(folder), 2 * run + watch)
                rates[watch].append(rate)
                state = "on " if watch else "off"
                print(f"  watch {state}: {rate:8.1f} rounds/s  (non-2xx: {errors})")
    on, off = max(rates[True]), max(rates[False])
    verdict = "met" if on >= 0.9 * off else "MISSED"
    print(f"  best on {on:.1f} / best off {off:.1f} = {on / off:.3f}   target >= 0.90  {verdict}")
    med = statistics.median(rates[True]) / statistics.median(rates[False])
    print(f"  median on / median off = {med:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000)
    parser.add_argument("--drift-tables", type=int, default=200)
    parser.add_argument("--shoes-a-day", type=int, default=10)
    parser.add_argument("--riffles", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--only-ingest", action="store_true")
    args = parser.parse_args()
    if args.only_ingest:
        ingest_cost(args.seconds, args.runs)
        return
    detection(args.riffles)
    false_alarms(args.shoes, args.processes)
    drift_alarms(args.drift_tables, args.shoes_a_day, args.processes)
    if not args.skip_ingest:
        ingest_cost(args.seconds, args.runs)


if __name__ == "__main__":
    main()
