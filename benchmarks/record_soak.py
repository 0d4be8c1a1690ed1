"""The record's soak: a simulated week of many tables ingested with the record on, Redis's
memory printed every simulated day (it stops growing once shoes age out of Redis), the
recorder's lag, and the ingest rate with the record on against off, in the same run.

Usage: python benchmarks/record_soak.py [--tables 100] [--days 7] [--rounds-per-day 400]
       [--hot-seconds 8] [--clients 4]

Accelerated: a simulated day is ``--rounds-per-day`` rounds at every table (400: five shoes of
80 rounds; a Speed table deals about 3,200 a day, so a day here is an eighth of one), dealt as
fast as the service takes them by ``--clients`` dealers, each owning a share of the tables and
sending one round of each of its tables in one batch request (``POST /v1/rounds``). A shoe
leaves Redis ``--hot-seconds`` after it closed, a few seconds of this accelerated time.

Runs, each on its own private redis-server (and PostgreSQL), gunicorn as deployed (2 workers):
the record off, for the first two simulated days (the baseline), then the record on for the
whole week. Prints per simulated day: rounds a second, Redis ``used_memory``, the record's
rows; then the lag (``recorded_at - at`` of every recorded write, from PostgreSQL): p50, p99,
max; and the ratio of the ingest rates (on over off, the same first two days).

First it prints the signing cost of a recorder pass that makes a checkpoint (issue 42): the time
to build, sign (Ed25519) and append (to a JSON-lines file, synced) a checkpoint of N heads, for
N the tables' shoe heads, and more (``--signing-only``: that alone); the signing now includes
checking the store's latest checkpoint before chaining on it. At the end, the cost of the
catch-up a recorder taking the lease makes (the heads recorded since the latest checkpoint).
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
import redis  # noqa: E402

from api.record.checkpoints import CATCH_UP_MARGIN, Checkpointer, recorded_since  # noqa: E402
from api.record.checkpointstore import JsonLinesStore  # noqa: E402
from api.record.ledger import Head  # noqa: E402
from tests.gunicorn_server import gunicorn  # noqa: E402
from tests.postgres_server import PostgresServer  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

KEY = "soak-key"
SHOE_ROUNDS = 80


class Dealer(threading.Thread):
    """Deals one simulated day's rounds at its tables, a batch (one round each) at a time."""

    def __init__(self, base: str, tables: list[str], day: int, rounds: int) -> None:
        super().__init__(daemon=True)
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)
        self.tables, self.day, self.rounds = tables, day, rounds
        self.error: Exception | None = None

    def run(self) -> None:
        try:
            for at in range(self.rounds):
                dealt = self.day * self.rounds + at
                shoe, number = divmod(dealt, SHOE_ROUNDS)
                body = {
                    "rounds": [
                        {
                            "table": t,
                            "shoe": f"s{shoe}",
                            "round": number + 1,
                            "result": "BPBPBBT"[(dealt * 7 + i) % 7],
                        }
                        for i, t in enumerate(self.tables)
                    ]
                }
                self.connection.request(
                    "POST",
                    "/v1/rounds",
                    json.dumps(body),
                    {"Content-Type": "application/json", "X-API-Key": KEY},
                )
                answer = self.connection.getresponse()
                reply = json.loads(answer.read())
                if answer.status != 200 or any(r["status"] >= 300 for r in reply["results"]):
                    raise RuntimeError(f"{answer.status}: {reply['results'][:2]}")
        except Exception as error:  # reported by the main thread
            self.error = error


def deal_day(base: str, tables: list[str], day: int, rounds: int, clients: int) -> float:
    """Deal one simulated day; rounds a second."""
    shares = [tables[i::clients] for i in range(clients)]
    dealers = [Dealer(base, share, day, rounds) for share in shares]
    start = time.perf_counter()
    for dealer in dealers:
        dealer.start()
    for dealer in dealers:
        dealer.join()
        if dealer.error is not None:
            raise dealer.error
    return len(tables) * rounds / (time.perf_counter() - start)


def env(redis_url: str, database_url: str | None, hot: int) -> dict[str, str]:
    values = {
        "REDIS_URL": redis_url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_ACCESS_LOG": "0",
        "ROADS_WORKERS": "2",
        "ROADS_DEMO": "0",
    }
    if database_url:
        values |= {"ROADS_DATABASE_URL": database_url, "ROADS_HOT_SECONDS": str(hot)}
    return values


def used_memory(client: redis.Redis) -> int:
    client.execute_command("MEMORY", "PURGE")  # what jemalloc holds for nothing is not growth
    return int(client.info("memory")["used_memory"])


def run_off(args, tables: list[str]) -> float:
    server = RedisServer().start()
    try:
        with gunicorn("wsgi:app", env(server.url, None, args.hot_seconds)) as base:
            rates = [
                deal_day(base, tables, day, args.rounds_per_day, args.clients) for day in range(2)
            ]
            memory = used_memory(redis.Redis.from_url(server.url))
    finally:
        server.cleanup()
    rate = sum(rates) / len(rates)
    print(f"record off: days 1-2 {rate:,.0f} rounds/s  (Redis used_memory {memory / 1e6:.1f} MB)")
    return rate


def run_on(args, tables: list[str]) -> tuple[float, list[float]]:
    server, pg = RedisServer().start(), PostgresServer().start()
    try:
        database = pg.new_database()
        client = redis.Redis.from_url(server.url)
        with (
            gunicorn("wsgi:app", env(server.url, database, args.hot_seconds)) as base,
            psycopg.connect(database, autocommit=True) as conn,
        ):
            rates = []
            print(
                f"{'day':>4} {'rounds/s':>9} {'used_memory MB':>15} {'in the record':>14} "
                f"{'shoes in Redis':>15}"
            )
            for day in range(args.days):
                rates.append(deal_day(base, tables, day, args.rounds_per_day, args.clients))
                time.sleep(1)
                rows = conn.execute("SELECT count(*) FROM record_writes").fetchone()[0]
                hot = conn.execute(
                    "SELECT count(*) FROM record_shoes WHERE NOT evicted"
                ).fetchone()[0]
                print(
                    f"{day + 1:>4} {rates[-1]:>9,.0f} {used_memory(client) / 1e6:>15.1f} "
                    f"{rows:>14,} {hot:>15,}"
                )
            expected = len(tables) * args.days * args.rounds_per_day
            deadline = time.monotonic() + 60
            while conn.execute("SELECT count(*) FROM record_writes").fetchone()[0] < expected:
                if time.monotonic() > deadline:
                    raise SystemExit("the record did not catch up within 60 s")
                time.sleep(0.2)
            p50, p99, worst = conn.execute(
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag),"
                " percentile_cont(0.99) WITHIN GROUP (ORDER BY lag), max(lag) FROM"
                " (SELECT extract(epoch FROM recorded_at - at) AS lag FROM record_writes) l"
            ).fetchone()
            print(
                f"record lag over {expected:,} writes: p50 {p50 * 1000:.0f} ms, "
                f"p99 {p99 * 1000:.0f} ms, max {worst * 1000:.0f} ms"
            )
            print_catch_up(conn, expected)
    finally:
        server.cleanup()
        pg.cleanup()
    return sum(rates[:2]) / 2, rates


def signing_cost(heads: int, repeats: int = 20) -> tuple[float, float]:
    """Median and worst milliseconds to build, sign and append a checkpoint of ``heads``."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    with tempfile.TemporaryDirectory() as directory:
        signer = Checkpointer(Ed25519PrivateKey.generate(), JsonLinesStore(directory), 0)
        times = []
        for repeat in range(repeats):
            signer.advanced(
                Head(f"t{i:05d}", f"s{repeat}", f"{i:064x}", 1000 + i, 80) for i in range(heads)
            )
            start = time.perf_counter()
            signer.maybe(force=True)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def print_catch_up(conn: psycopg.Connection, writes: int) -> None:
    """The cost of a recorder taking the lease: reading back the heads recorded since the
    store's latest checkpoint (``recorded_since``, a scan of ``record_writes``)."""
    now = datetime.now(UTC)
    for label, since in (
        ("a checkpoint just signed", now - CATCH_UP_MARGIN),
        ("no checkpoint yet (every chain)", datetime.min.replace(tzinfo=UTC)),
    ):
        start = time.perf_counter()
        heads = recorded_since(conn, since)
        print(
            f"catch-up on taking the lease, {label}: {len(heads):,} heads read back over"
            f" {writes:,} writes in {(time.perf_counter() - start) * 1000:.0f} ms"
        )


def print_signing_cost(tables: int) -> None:
    for heads in sorted({tables, 2 * tables, 10_000}):
        median, worst = signing_cost(heads)
        print(
            f"checkpoint of N={heads:,} heads (build + sign + append, synced): "
            f"median {median:.2f} ms, max {worst:.2f} ms a recorder pass that signs"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--rounds-per-day", type=int, default=400)
    parser.add_argument("--hot-seconds", type=int, default=8)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--signing-only", action="store_true")
    args = parser.parse_args()
    print_signing_cost(args.tables)
    if args.signing_only:
        return
    tables = [f"t{i:03d}" for i in range(args.tables)]
    print(
        f"{args.tables} tables, {args.days} simulated days of {args.rounds_per_day} rounds a "
        f"table, shoes leave Redis {args.hot_seconds} s after closing"
    )
    off = run_off(args, tables)
    on, _ = run_on(args, tables)
    print(f"ingest, record on / off (days 1-2): {on:,.0f} / {off:,.0f} rounds/s = {on / off:.2f}x")


if __name__ == "__main__":
    main()
