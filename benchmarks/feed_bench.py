"""The live feed at lobby scale: the built-in feed against Pushpin in front, side by side.

For each feed and each N of a ladder: N lobby clients (``/v1/events``, spread over several
processes, :mod:`benchmarks.sse_load`) connect; then rounds are dealt at 10 a second (10 lobby
``round`` events a second) for ``--seconds``; every delivery's delay is its arrival minus the
time its round's POST was sent. Printed per N: clients connected, deliveries made of those
due, delay p50/p99, the service's, Pushpin's and redis-server's CPU (share of one core over the
dealing) and memory (RSS at the end), and the generator's own CPU (it shares the 2 cores).
Then the largest N with every event delivered at p99 <= 250 ms (and <= 500 ms) per feed, and
their ratio. Last, the bytes a multiplay client watching 4 tables reads per round, against
refetching the 4 tables' roads documents.

Targets (issue 17): Pushpin holds >= 10,000 clients at p99 <= 250 ms and >= 3x the built-in
feed's N; the built-in feed holds 5,000 at p99 <= 500 ms.

    .venv/bin/python benchmarks/feed_bench.py [--builtin 2000,5000,...] [--pushpin ...]
    .venv/bin/python benchmarks/feed_bench.py --frames 1000,2000,5000,10000 --rate 20

With ``--frames``, the lobby in frames (``/v1/events``) through three tiers and the per-round
lobby as the baseline, in one run: see :mod:`benchmarks.lobby_frames`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import lobby_frames, serving
from benchmarks.frame_probe import Probe
from benchmarks.sse_load import Load
from benchmarks.usage import Usage, pushpin_pids
from roads.simulator import deal_shoe
from tests.nchan_server import Nchan
from tests.pushpin_server import Pushpin
from tests.redis_server import free_port
from tests.sse_client import SSEClient

KEY = "bench-key"
TABLES = [f"feed-{n:02d}" for n in range(10)]


class Dealer:
    """Deals rounds one after another to the tables in turn, noting when each POST was sent."""

    def __init__(self, base: str, tables: list[str] = TABLES) -> None:
        self.base = base
        self.tables = tables
        self.shoes = {table: deal_shoe(n) for n, table in enumerate(tables)}
        self.dealt = {table: 0 for table in tables}
        self.sent: list[float] = []
        self.committed: dict[tuple[str, int], float] = {}  # (table, round) -> wall time sent
        self.refused = 0  # 503s answered to the dealer, each tried again

    def deal(self, table: str) -> None:
        number = self.dealt[table] + 1
        round = self.shoes[table][(number - 1) % len(self.shoes[table])]
        body = {"round": number, "result": round.result}
        self.sent.append(time.monotonic())
        self.committed[(table, number)] = time.time()
        for attempt in range(10):  # a 503 (the service overwhelmed): as a dealer's server would
            try:
                serving.post(self.base, f"/v1/tables/{table}/shoes/s1/rounds", body, KEY)
                break
            except urllib.error.HTTPError as error:
                if error.code != 503 or attempt == 9:
                    raise
                self.refused += 1
                time.sleep(0.1)
        self.dealt[table] = number

    def run(self, rate: float, seconds: float) -> None:
        """``rate`` rounds a second for ``seconds`` seconds, on a fixed schedule."""
        self.sent.clear()
        start = time.monotonic()
        for n in range(int(rate * seconds)):
            time.sleep(max(0.0, start + n / rate - time.monotonic()))
            self.deal(self.tables[n % len(self.tables)])


def measure(
    port: int, clients: int, dealer: Dealer, watched: dict, args, path: str = "/v1/events?frames=0"
) -> dict:
    """One step of the ladder: ``clients`` per-round lobby clients on ``port`` while rounds are
    dealt."""
    with Load(port, path, clients, processes=args.processes) as load:
        time.sleep(2)  # every hold settled (Pushpin asks the next link once after a hold)
        usage = {name: Usage(pids()) for name, pids in watched.items()}
        began = time.monotonic()
        dealer.run(args.rate, args.seconds)
        time.sleep(args.drain)
        elapsed = time.monotonic() - began
        found = load.results()
        figures = {name: (use.used() / elapsed, use.rss_mb()) for name, use in usage.items()}
    sent = list(dealer.sent)
    delays, delivered = [], 0
    for arrivals in found["arrivals"]:
        delivered += min(len(arrivals), len(sent))
        delays += [(arrivals[k] - sent[k]) * 1000 for k in range(min(len(arrivals), len(sent)))]
    delays.sort()
    due = load.connected * len(sent)
    return {
        "clients": clients,
        "connected": load.connected,
        "retried": load.retried,
        "delivered": delivered,
        "due": due,
        "p50": delays[len(delays) // 2] if delays else float("nan"),
        "p99": delays[int(0.99 * (len(delays) - 1))] if delays else float("nan"),
        "usage": figures,
        "generator_cpu": found["cpu_seconds"] / elapsed,
    }


def print_step(step: dict) -> None:
    usage = "  ".join(
        f"{name} {cpu * 100:4.0f}% {rss:5.0f} MB" for name, (cpu, rss) in step["usage"].items()
    )
    print(
        f"  {step['clients']:>6,}  {step['connected']:>6,} {step['retried']:>5,}  "
        f"{step['delivered']:>9,}/{step['due']:<9,}  "
        f"{step['p50']:7.1f}  {step['p99']:7.1f}  {usage}  "
        f"generator {step['generator_cpu'] * 100:4.0f}%",
        flush=True,
    )


def held(step: dict, limit_ms: float) -> bool:
    every = step["connected"] == step["clients"] and step["delivered"] == step["due"]
    return every and step["p99"] <= limit_ms


def ladder(
    name: str,
    port: int,
    counts: list[int],
    dealer: Dealer,
    watched: dict,
    args,
    path: str = "/v1/events?frames=0",
) -> list:
    print(f"\n{name}: lobby clients, rounds at {args.rate:g}/s for {args.seconds:g} s")
    print("  clients  conn'd tries  delivered/due        p50 ms   p99 ms  CPU (of one core), RSS")
    steps = []
    for clients in counts:
        step = measure(port, clients, dealer, watched, args, path)
        print_step(step)
        steps.append(step)
        time.sleep(3)  # the last step's connections gone
        if step["connected"] < clients or step["delivered"] < step["due"]:
            break  # past what this feed holds: larger steps would tell nothing more
    return steps


def largest(steps: list[dict], limit_ms: float) -> int:
    return max((s["clients"] for s in steps if held(s, limit_ms)), default=0)


def multiplay_bytes(base: str) -> None:
    """A client of ``?tables=`` four tables while a shoe is dealt at each: the bytes it reads
    per round, against refetching the four roads documents after each round (the old way)."""
    tables = [f"multiplay-{n}" for n in range(4)]
    client = SSEClient(f"{base}/v1/events?tables={','.join(tables)}")
    time.sleep(0.5)
    dealer, documents, before = Dealer(base, tables), [], client.bytes_read
    for n in range(60 * len(tables)):
        dealer.deal(tables[n % len(tables)])
    events = client.wait_for(60 * len(tables), seconds=30, kind={"round"})
    for table in tables:
        with urllib.request.urlopen(f"{base}/v1/tables/{table}/roads") as answer:
            documents.append(len(answer.read()))
    read = client.bytes_read - before
    client.close()
    rounds = [e["data"] for e in events if e["event"] == "round"]
    sizes = sorted(
        len(json.dumps(d, separators=(",", ":"), ensure_ascii=False).encode()) for d in rounds
    )
    per_round = read / len(rounds)
    print("\nMultiplay client watching 4 tables (?tables=), 60 rounds at each:")
    print(
        f"  per round: {per_round:,.0f} B read from the feed "
        f"(event data median {statistics.median(sizes):,.0f} B, max {sizes[-1]:,} B)"
    )
    print(
        f"  refetching the 4 roads documents instead: {sum(documents):,} B "
        f"({sum(documents) / per_round:,.0f}x), "
        f"the one table that changed: {statistics.mean(documents):,.0f} B"
    )


def service(
    redis_url: str,
    grip: dict[str, str] | None = None,
    port: int | None = None,
    nchan: str | None = None,
):
    env = {
        "REDIS_URL": redis_url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_WORKERS": "2",
        "ROADS_WORKER_CONNECTIONS": "15000",
        # The ladder's viewers, not the production bound (3,000 a process, below the worker's
        # connections so that ingest always connects).
        "ROADS_FEED_CLIENTS": "14000",
    }
    if grip:
        env.update(grip)  # the proxy's publish URL and the key it signs Grip-Sig with
    if nchan:
        env["ROADS_NCHAN_URL"] = nchan
    return serving.gunicorn("wsgi:app", env, port=port or free_port())


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def service_pids(base) -> list[int]:
    return [base.process.pid, *base.workers()]


def frames_run(args) -> None:
    """The frames tiers and the per-round baseline, on one deployment (see
    :mod:`benchmarks.lobby_frames`)."""
    counts = [int(n) for n in args.frames.split(",") if n]
    baseline = [int(n) for n in args.per_round.split(",") if n]
    port = free_port()
    pushpin = Pushpin(f"127.0.0.1:{port}")
    # Each nchan viewer of the benchmark counts from its first frame: the newest kept (-1),
    # not the next (the deployed config's), so that connecting needs no frame to be dealt.
    nchan = Nchan(f"127.0.0.1:{port}", workers=args.nchan_workers, first="-1")
    with (
        serving.redis_server() as redis,
        nchan,
        service(redis.url, pushpin.service_env, port, nchan=nchan.publish_url) as base,
    ):
        pushpin.start()
        probe = Probe(port_of(base))
        try:
            tables = [f"lobby-{n:03d}" for n in range(args.tables)]
            dealer = Dealer(base, tables)
            for table in tables:
                dealer.deal(table)
            for _ in range(2):  # the second, once the processes' frames hold every table
                time.sleep(2)
                first = SSEClient(f"{base}/v1/events")
                first.wait_for(1, seconds=10, kind={"frame"})
                args.full_frame = first.bytes_read  # each viewer reads the whole lobby once
                first.close()
            probe.start()
            print(
                f"Lobby of {args.tables} tables, {args.rate:g} rounds/s for {args.seconds:g} s "
                f"a step; the whole lobby, {args.full_frame:,} B, read once on connecting, is "
                f"not in B/viewer/s"
            )
            service_of = {
                "service": lambda: service_pids(base),
                "redis": lambda: [redis.process.pid],
            }
            per_round = ladder(
                "Baseline: the per-round lobby (?frames=0), built-in feed",
                port_of(base),
                baseline,
                dealer,
                service_of,
                args,
                path="/v1/events?frames=0",
            )
            tiers = {
                "built-in": (port_of(base), "/v1/events", service_of),
                "Pushpin": (
                    pushpin.port,
                    "/v1/events",
                    {"pushpin": lambda: pushpin_pids(pushpin), **service_of},
                ),
                # A viewer that reads its snapshot (GET /v1/lobby/frame) apart: each held
                # answer is then a few bytes, not the whole lobby.
                "Pushpin, snapshot apart": (
                    pushpin.port,
                    "/v1/events?snapshot=0",
                    {"pushpin": lambda: pushpin_pids(pushpin), **service_of},
                ),
                "nchan": (nchan.port, "/v1/events/nchan", {"nchan": nchan.pids, **service_of}),
            }
            found = {
                name: lobby_frames.ladder(name, at, path, counts, dealer, probe, watched, args)
                for name, (at, path, watched) in tiers.items()
                if name in tier_names(args.tiers)
            }
        finally:
            probe.stop()
            pushpin.cleanup()
    summary(per_round, found)


def tier_names(text: str) -> list[str]:
    """The tiers named in ``--tiers`` (a name may hold ", ")."""
    names = ["built-in", "Pushpin, snapshot apart", "Pushpin", "nchan"]
    found = []
    for name in names:
        if name in text:
            found.append(name)
            text = text.replace(name, "")
    return found


def summary(per_round: list[dict], found: dict[str, list[dict]]) -> None:
    limit = lobby_frames.LIMIT_MS
    before = largest(per_round, limit)
    print(f"\nLargest N with every change delivered at p99 <= {limit:.0f} ms:")
    print(f"  per-round lobby (built-in): {before:,}")
    for name, steps in found.items():
        most = lobby_frames.largest(steps)
        ratio = f" ({most / before:.1f}x the per-round lobby)" if before else ""
        step = next((s for s in steps if s["clients"] == most), None)
        tier = "pushpin" if name.startswith("Pushpin") else {"built-in": "service"}.get(name, name)
        cores = step["usage"][tier][0] if step else 0
        per_core = f", {most / cores:,.0f} viewers per core of {tier}" if cores else ""
        print(f"  frames, {name}: {most:,}{ratio}{per_core}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builtin", default="2000,5000,7500,10000")
    parser.add_argument("--pushpin", default="2000,5000,10000,15000,19000")
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--drain", type=float, default=3.0, help="seconds to wait after dealing")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument(
        "--frames", default="", help="viewers of the lobby in frames (built-in), e.g. 1000,5000"
    )
    parser.add_argument("--tables", type=int, default=500, help="tables of the frames lobby")
    parser.add_argument(
        "--per-round",
        default="1000,2000,3000,5000",
        help="viewers of the per-round lobby, the frames run's baseline",
    )
    parser.add_argument("--nchan-workers", type=int, default=2, help="nginx worker processes")
    parser.add_argument(
        "--tiers",
        default="built-in,Pushpin,Pushpin, snapshot apart,nchan",
        help="the frames' tiers (comma-separated)",
    )
    args = parser.parse_args()
    if args.frames:
        frames_run(args)
        return
    builtin = [int(n) for n in args.builtin.split(",") if n]
    proxied = [int(n) for n in args.pushpin.split(",") if n]
    port = free_port()
    pushpin = Pushpin(f"127.0.0.1:{port}")
    # Everything starts before any load: the load's many ephemeral ports could take a port
    # picked later. Each feed has its own Redis, so neither deployment sees the other's rounds.
    with (
        serving.redis_server() as redis,
        serving.redis_server() as grip_redis,
        service(redis.url) as base,
        service(grip_redis.url, pushpin.service_env, port) as proxied_base,
    ):
        pushpin.start()
        try:
            dealer = Dealer(base)
            for table in TABLES:
                dealer.deal(table)
            multiplay_bytes(base)
            watched = {
                "service": lambda: service_pids(base),
                "redis": lambda: [redis.process.pid],
            }
            plain = ladder("Built-in feed", port_of(base), builtin, dealer, watched, args)
            dealer = Dealer(f"http://127.0.0.1:{port}")
            for table in TABLES:
                dealer.deal(table)
            watched = {
                "service": lambda: service_pids(proxied_base),
                "pushpin": lambda: pushpin_pids(pushpin),
                "redis": lambda: [grip_redis.process.pid],
            }
            fanned = ladder("Pushpin", pushpin.port, proxied, dealer, watched, args)
        finally:
            pushpin.cleanup()
    print("\nLargest N with every event delivered:")
    for limit in (250, 500):
        ours, theirs = largest(plain, limit), largest(fanned, limit)
        ratio = f"{theirs / ours:.1f}x" if ours else "n/a"
        print(f"  p99 <= {limit} ms: built-in {ours:,}, Pushpin {theirs:,} ({ratio})")
    print("  (of the N tried; targets: Pushpin >= 10,000 at 250 ms and >= 3x built-in;")
    print("   built-in >= 5,000 at 500 ms)")


if __name__ == "__main__":
    main()
