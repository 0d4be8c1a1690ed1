"""The round as the studio knows it, measured (issue 45): what a round's own facts cost ingest, how
fast a round is found by its game id, and what the export streams.

1. **Ingest with the facts against without.** One gunicorn worker of the ingest door (a private
   redis-server, production settings as ``write_cpu_bench.py`` runs them): card rounds of 25
   tables sent one at a time over one keep-alive connection, in blocks of 25, each block of
   rounds with ``game_id``, ``dealt_at`` and ``dealer`` followed by a block of the same kind of
   rounds without them (other tables, new simulated shoes); the worker's CPU read around each
   block (``/proc/<pid>/task/*/schedstat``). Printed: CPU a round each way and the throughput
   ratio (without / with: rounds a CPU-second with the facts over rounds without); target
   >= 0.95x.
2. **Lookup by game id, p50 and p99.** One gunicorn worker of a single door with the record on
   (a private PostgreSQL), a read key, one keep-alive connection: ``GET
   /v1/tables/{table}/games/{game_id}`` of rounds whose shoe is in Redis, then of rounds whose
   shoe left for the record, each against ``GET /livez`` on the same connection in the same run
   (the baseline).
3. **The export.** ``GET /v1/export/rounds`` of 200,000 rounds recorded in that PostgreSQL (by
   the ledger, as the recorder records them), NDJSON and CSV: rows a second and the worker's
   resident memory before and at its peak (``VmRSS``, ``VmHWM``), against PostgreSQL's own
   ``COPY (SELECT canonical ...) TO STDOUT`` of the same rows in the same run (the baseline).

Run: ``python benchmarks/games_bench.py [--runs 3] [--rounds 1000] [--lookups 2000]
[--export 200000]``.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import statistics
import time
from datetime import UTC, datetime

import psycopg
from serving import gunicorn, redis_server
from write_cpu_bench import KEY, TABLES, cpu_ns, get_all, ingest_door, seed_tables

from api.codecs.times import utc_text
from roads import Round
from roads.simulator import deal_shoe
from tests.postgres_server import PostgresServer
from tests.redis_server import free_port

READER = "bench-read-key"


def body(number: int, round: Round, facts: dict | None) -> bytes:
    report = {
        "round": number,
        "player": [str(card) for card in round.player_cards],
        "banker": [str(card) for card in round.banker_cards],
    }
    return json.dumps({**report, **(facts or {})}).encode()


def facts_of(table: str, shoe: str, number: int) -> dict:
    """A round's facts as a studio sends them: its game id, when it was dealt, its dealer (the
    name with the shift's first round)."""
    dealer = {"id": f"d-{table}", **({"name": "Mei"} if number == 1 else {})}
    return {
        "game_id": f"{table}-{shoe}-{number}",
        "dealt_at": utc_text(datetime.now(UTC)),
        "dealer": dealer,
    }


def post_block(connection: http.client.HTTPConnection, sends: list[tuple[str, bytes]]) -> None:
    headers = {"Content-Type": "application/json", "X-API-Key": KEY}
    for path, payload in sends:
        connection.request("POST", path, payload, headers)
        answer = connection.getresponse()
        text = answer.read()
        if answer.status != 201:
            raise SystemExit(f"POST {path}: {answer.status} {text!r}")


def ingest(rounds: int, runs: int) -> None:
    print(f"== ingest: {rounds} card rounds with the facts, {rounds} without, one worker")
    ratios = []
    with redis_server() as server, contextlib.ExitStack() as stack:
        seed_tables(server.url, ("f", "p"))
        port = free_port()
        base = stack.enter_context(gunicorn("wsgi:app", ingest_door(server.url, port), port=port))
        (worker,) = base.workers()
        for run in range(1, runs + 1):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            get_all(connection, 50)
            shoes = {t: deal_shoe(7_000 * run + t) for t in range(2 * TABLES)}
            kinds = {"with": ("f", 0), "without": ("p", TABLES)}
            spent = {kind: 0 for kind in kinds}
            sent = 0
            for number in range(1, 80):
                if sent >= rounds:
                    break
                for kind, (prefix, offset) in kinds.items():
                    block = []
                    for t in range(TABLES):
                        table = f"{prefix}{t}"
                        facts = facts_of(table, f"r{run}", number) if kind == "with" else None
                        payload = body(number, shoes[offset + t][number - 1], facts)
                        block.append((f"/v1/tables/{table}/shoes/r{run}/rounds", payload))
                    at = cpu_ns(worker)
                    post_block(connection, block)
                    spent[kind] += cpu_ns(worker) - at
                sent += TABLES
            connection.close()
            ratio = spent["without"] / spent["with"]
            ratios.append(ratio)
            print(
                f"  run {run}: CPU a round with the facts {spent['with'] / 1e3 / sent:6.0f} us,"
                f" without {spent['without'] / 1e3 / sent:6.0f} us; throughput with/without"
                f" {ratio:.3f}x"
            )
    median = statistics.median(ratios)
    print(f"  median {median:.3f}x   target >= 0.95x  {'met' if median >= 0.95 else 'MISSED'}")


def timed(connection: http.client.HTTPConnection, path: str, headers: dict) -> float:
    start = time.perf_counter()
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    text = answer.read()
    if answer.status != 200:
        raise SystemExit(f"GET {path}: {answer.status} {text!r}")
    return (time.perf_counter() - start) * 1e6


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {p50:7.0f} us  p99 {p99:7.0f} us"


def deal_games(base: str, tables: int, shoes: int) -> list[tuple[str, str]]:
    """Each table's shoes of 60 rounds under game ids; the (table, game id) of each round."""
    connection = http.client.HTTPConnection(*base.split(":"), timeout=30)
    headers = {"Content-Type": "application/json", "X-API-Key": KEY}
    games = []
    for t in range(tables):
        for s in range(shoes):
            dealt = deal_shoe(100 * t + s)[:60]
            for number, round in enumerate(dealt, start=1):
                game = f"g{t}-{s}-{number}"
                payload = body(number, round, {"game_id": game})
                connection.request("POST", f"/v1/tables/g{t}/shoes/s{s}/rounds", payload, headers)
                answer = connection.getresponse()
                answer.read()
                if answer.status != 201:
                    raise SystemExit(f"deal: {answer.status}")
                games.append((f"g{t}", game, s))
    connection.close()
    return games


def export_rows(url: str, count: int) -> None:
    """``count`` rounds of 25 tables recorded by the ledger, a second apart."""
    import tests.http.test_export as shape
    from tests.http.test_export import recorded

    shape.ROUNDS = count // shape.TABLES
    recorded(url)


def recorder(pid: int) -> bool:
    """Whether the master's child ``pid`` is the recorder's process, not a worker."""
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        return b"api.record" in cmdline.read()


def status_kb(pid: int) -> dict[str, int]:
    found = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                found[name] = int(value.split()[0])
    return found


def lookups_and_export(lookups: int, runs: int, export: int) -> None:
    postgres = PostgresServer().start()
    try:
        database = postgres.new_database()
        with redis_server() as server, contextlib.ExitStack() as stack:
            port = free_port()
            env = {
                "REDIS_URL": server.url,
                "ROADS_DOOR": "both",
                "ROADS_BIND": f"127.0.0.1:{port}",
                "ROADS_WORKERS": "1",
                "ROADS_INGEST_KEYS": KEY,
                "ROADS_READ_KEYS": READER,
                "ROADS_DATABASE_URL": database,
                "ROADS_HOT_SECONDS": "1",
                "ROADS_DEMO": "0",
            }
            base = stack.enter_context(gunicorn("wsgi:app", env, port=port))
            games = deal_games(f"127.0.0.1:{port}", tables=10, shoes=3)
            # The last shoe of each table stays in Redis; the others leave once recorded.
            deadline = time.monotonic() + 120
            with psycopg.connect(database) as conn:
                while time.monotonic() < deadline:
                    (left,) = conn.execute(
                        "SELECT count(*) FROM record_shoes WHERE evicted"
                    ).fetchone()
                    if left == 20:
                        break
                    time.sleep(0.5)
                else:
                    raise SystemExit(f"only {left} of 20 shoes left Redis")
            hot = [(t, g) for t, g, s in games if s == 2]
            cold = [(t, g) for t, g, s in games if s < 2]
            headers = {"X-API-Key": READER}
            print(f"== lookup by game id: {lookups} each, one keep-alive connection, {runs} runs")
            for run in range(1, runs + 1):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                get_all(connection, 50)
                found = {"redis": [], "record": [], "livez": []}
                for i in range(lookups):
                    t, g = hot[(i * 7919) % len(hot)]
                    found["redis"].append(timed(connection, f"/v1/tables/{t}/games/{g}", headers))
                    t, g = cold[(i * 7919) % len(cold)]
                    found["record"].append(timed(connection, f"/v1/tables/{t}/games/{g}", headers))
                    found["livez"].append(timed(connection, "/livez", {}))
                connection.close()
                base_p99 = sorted(found["livez"])[int(lookups * 0.99)]
                for kind in ("redis", "record", "livez"):
                    p99 = sorted(found[kind])[int(lookups * 0.99)]
                    print(
                        f"  run {run} {kind:<7} {percentiles(found[kind])}"
                        f"   p99 / livez p99 {p99 / base_p99:5.1f}x"
                    )
            export_rows(database, export)
            (worker,) = [pid for pid in base.workers() if not recorder(pid)]
            print(f"== the export of {export} rounds, {runs} runs")
            for run in range(1, runs + 1):
                for form in ("ndjson", "csv"):
                    before = status_kb(worker)
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                    start = time.perf_counter()
                    connection.request(
                        "GET", f"/v1/export/rounds?from=2026-11-20&format={form}", headers=headers
                    )
                    answer = connection.getresponse()
                    size, lines, peak = 0, 0, 0
                    while chunk := answer.read(1 << 16):
                        size += len(chunk)
                        lines += chunk.count(b"\n")
                        peak = max(peak, status_kb(worker)["VmRSS"])
                    seconds = time.perf_counter() - start
                    connection.close()
                    rows = lines - (1 if form == "csv" else 0)
                    print(
                        f"  run {run} {form:<6} {rows} rows, {size / 1e6:.1f} MB"
                        f" in {seconds:.2f} s:"
                        f" {rows / seconds:8.0f} rows/s; worker RSS {before['VmRSS'] / 1024:.0f} MB"
                        f" before, {peak / 1024:.0f} MB at most while streaming"
                    )
                start = time.perf_counter()
                with psycopg.connect(database) as conn, conn.cursor() as cursor:
                    copied = 0
                    with cursor.copy(
                        "COPY (SELECT canonical FROM record_writes WHERE kind = 'round'"
                        " ORDER BY dealt_at, table_id, number) TO STDOUT"
                    ) as copy:
                        for data in copy:
                            copied += bytes(data).count(b"\n")
                seconds = time.perf_counter() - start
                rate = copied / seconds
                print(f"  run {run} baseline: PostgreSQL's COPY of the rows {rate:8.0f} rows/s")
    finally:
        postgres.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--lookups", type=int, default=2000)
    parser.add_argument("--export", type=int, default=200_000)
    args = parser.parse_args()
    ingest(args.rounds, args.runs)
    lookups_and_export(args.lookups, args.runs, args.export)


if __name__ == "__main__":
    main()
