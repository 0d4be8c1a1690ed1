"""Benchmark of the multi-table lobby at scale.

1. 1,000 tables of simulated shoes (10 to 70 rounds dealt each) are stored in a private
   redis-server through the service's own store, then the service runs under gunicorn
   (gunicorn.conf.py: gevent workers, one per core).
2. While a feeder deals 40 rounds a second across the tables (1,000 live tables at one round
   every 25 s), one client times ``GET /v1/tables`` (by name, and sorted by streak on a derived
   road with the badge), ``GET /v1/good-roads`` (every pattern, and a custom one): median and
   p95 latency, against a minimal Flask "ok" endpoint under the same gunicorn settings in the
   same run.
3. 1,000 idle SSE clients connect to ``/v1/events`` at once; the service's memory (PSS of the
   gunicorn master and workers) is read before and after they connect, then rounds are dealt
   and the benchmark checks that every client receives each one, and how fast.

Run: ``python benchmarks/lobby_bench.py``. Targets (issue "lobby", 2 cores): each lobby read
<= 50 ms median; 1,000 idle SSE clients cost < 200 MB and keep receiving events.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import serving
from serving import gunicorn, redis_server

from api.config import Settings
from api.services import Services
from roads.simulator import deal_shoe

KEY = "bench-key"


def fill(url: str, tables: int) -> dict[str, int]:
    """Store ``tables`` tables' shoes through the service's store; returns each one's rounds."""
    settings = Settings(redis_url=url, ingest_keys=(KEY,))
    services = Services.build(settings)
    rng = random.Random(7)
    counts = {}
    for n in range(tables):
        table = f"table-{n:04d}"
        services.tables.put(table, f"Baccarat {n + 1}", rng.choice(["standard", "no_commission"]))
        rounds = deal_shoe(rng.getrandbits(32))
        counts[table] = rng.randint(10, 70)
        for number in range(1, counts[table] + 1):
            services.writer.append(table, "s1", number, rounds[number - 1])
    return counts


class Dealer(threading.Thread):
    """Deals the next round of a random table ``rate`` times a second over HTTP."""

    def __init__(self, base: str, counts: dict[str, int], rate: float) -> None:
        super().__init__(daemon=True)
        self.base, self.counts, self.rate = base, dict(counts), rate
        self.stop = threading.Event()
        self.dealt = 0

    def run(self) -> None:
        rng = random.Random(11)
        tables = sorted(self.counts)
        next_time = time.perf_counter()
        while not self.stop.is_set():
            table = rng.choice(tables)
            self.counts[table] += 1
            body = {"round": self.counts[table], "result": rng.choice("BBPPT")}
            post(self.base, f"/v1/tables/{table}/shoes/s1/rounds", body)
            self.dealt += 1
            next_time += 1 / self.rate
            time.sleep(max(0.0, next_time - time.perf_counter()))


def post(base: str, path: str, body: dict) -> None:
    serving.post(base, path, body, KEY)


def latency(url: str, count: int, pause: float = 0.0) -> dict[str, float]:
    """Median and p95 of ``count`` requests, ``pause`` seconds apart (a lobby polling)."""
    timings = []
    size = 0
    for _ in range(count):
        time.sleep(pause)
        start = time.perf_counter()
        with urllib.request.urlopen(url, timeout=10) as answer:
            size = len(answer.read())
        timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    return {
        "median_ms": statistics.median(timings),
        "p95_ms": timings[int(0.95 * (len(timings) - 1))],
        "bytes": size,
    }


def service_memory_mb(port: int) -> float:
    """Proportional set size of the gunicorn master and its workers (shared pages split)."""
    pids = subprocess.run(
        ["pgrep", "-f", f"ROADS_BIND=127.0.0.1:{port}|gunicorn"], capture_output=True, text=True
    ).stdout.split()
    total = 0
    for pid in pids:
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes()
            if f"ROADS_BIND=127.0.0.1:{port}".encode() not in environ:
                continue
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total / 1024


async def sse_clients(host: str, port: int, count: int, base: str, rounds: int) -> dict:
    """Connect ``count`` idle SSE clients, read memory, deal rounds, count deliveries."""
    connections = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        writer.write(f"GET /v1/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        connections.append((reader, writer))
    for reader, _ in connections:
        await reader.readuntil(b"retry: 2000\n\n")
    await asyncio.sleep(2)
    memory = service_memory_mb(port)
    received = [0] * count
    latencies: list[float] = []

    async def listen(index: int, reader: asyncio.StreamReader, sent: list[float]) -> None:
        while received[index] < rounds:
            line = await reader.readline()
            if line.startswith(b"event: round"):
                latencies.append((time.perf_counter() - sent[received[index]]) * 1000)
                received[index] += 1

    sent: list[float] = []
    tasks = [asyncio.create_task(listen(i, r, sent)) for i, (r, _) in enumerate(connections)]
    for number in range(1, rounds + 1):
        sent.append(time.perf_counter())
        body = {"round": number, "result": "B"}
        await asyncio.to_thread(post, base, "/v1/tables/sse-probe/shoes/s1/rounds", body)
        await asyncio.sleep(1)
    await asyncio.wait(tasks, timeout=15)
    for _, writer in connections:
        writer.close()
    latencies.sort()
    return {
        "clients": count,
        "memory_mb": memory,
        "all_received": sum(1 for n in received if n == rounds),
        "delivery_p50_ms": statistics.median(latencies) if latencies else float("nan"),
        "delivery_max_ms": latencies[-1] if latencies else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=40.0, help="rounds dealt per second")
    args = parser.parse_args()

    with redis_server() as redis:
        start = time.perf_counter()
        counts = fill(redis.url, args.tables)
        print(
            f"stored {args.tables} tables, {sum(counts.values())} rounds "
            f"in {time.perf_counter() - start:.1f} s"
        )
        env = {"REDIS_URL": redis.url, "ROADS_INGEST_KEYS": KEY}
        with gunicorn("benchmarks.ok_app:app", {**env, "ROADS_DEMO": "0"}) as ok_base:
            ok = latency(ok_base + "/ok", args.requests)
        with gunicorn("wsgi:app", {**env, "ROADS_DEMO": "0"}) as base:
            port = int(base.rsplit(":", 1)[1])
            idle = service_memory_mb(port)
            dealer = Dealer(base, counts, args.rate)
            dealer.start()
            reads = {
                "GET /v1/tables": "/v1/tables",
                "GET /v1/tables?sort=streak&road=big_eye_boy&since=0": (
                    "/v1/tables?sort=streak&road=big_eye_boy&since=0"
                ),
                "GET /v1/good-roads (all 14 patterns)": "/v1/good-roads",
                "GET /v1/good-roads?custom=X1 Y2 X1 Y2": "/v1/good-roads?custom=X1%20Y2%20X1%20Y2",
            }
            results = {
                name: latency(base + path, args.requests, pause=0.1) for name, path in reads.items()
            }
            dealer.stop.set()
            dealer.join()
            print(
                f"\nlobby reads, {args.tables} tables, while dealing {args.rate:.0f} rounds/s "
                f"({dealer.dealt} dealt); {args.requests} requests each, one client"
            )
            print_latency("baseline: GET /ok (minimal Flask app)", ok, ok)
            for name, figures in results.items():
                print_latency(name, figures, ok, target_ms=50)
            print_wire_sizes(base + "/v1/tables")
            before = service_memory_mb(port)
            sse = asyncio.run(sse_clients("127.0.0.1", port, args.clients, base, rounds=3))
            print_sse(sse, idle, before)


def print_wire_sizes(url: str) -> None:
    """The bytes on the wire of one answer, plain and in each encoding (target: <= 100 KB
    with gzip for 1,000 tables)."""
    sizes = {}
    for encoding in ("identity", "gzip", "br", "zstd"):
        request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
        with urllib.request.urlopen(request, timeout=10) as answer:
            sizes[encoding] = len(answer.read())
    print(
        "  GET /v1/tables on the wire: "
        + ", ".join(f"{name} {size / 1024:,.0f} KB" for name, size in sizes.items())
    )


def print_latency(name: str, figures: dict, ok: dict, target_ms: float | None = None) -> None:
    line = f"  {name:<54} median {figures['median_ms']:6.2f} ms   p95 {figures['p95_ms']:6.2f} ms"
    if target_ms is not None:
        verdict = "ok" if figures["median_ms"] <= target_ms else f"OVER {target_ms:.0f} ms"
        ratio = figures["median_ms"] / ok["median_ms"]
        line += f"  {figures['bytes'] / 1024:5.0f} KB  {ratio:5.1f}x ok  [{verdict}]"
    print(line)


def print_sse(sse: dict, start_mb: float, before_mb: float) -> None:
    cost = sse["memory_mb"] - before_mb
    verdict = "ok" if cost < 200 else "OVER 200 MB"
    print(f"\nSSE: {sse['clients']} idle clients on /v1/events")
    print(
        f"  service memory (PSS, master + workers): {start_mb:.0f} MB at start, "
        f"{before_mb:.0f} MB after the lobby reads, {sse['memory_mb']:.0f} MB with the clients"
    )
    print(
        f"  cost of the clients: {cost:+.0f} MB, {1024 * cost / sse['clients']:.0f} KB each"
        f"  [{verdict}]"
    )
    print(
        "  clients that received all 3 rounds dealt after they connected: "
        f"{sse['all_received']} of {sse['clients']}"
    )
    print(
        f"  delivery (post to event read): median {sse['delivery_p50_ms']:.1f} ms, "
        f"max {sse['delivery_max_ms']:.1f} ms"
    )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
