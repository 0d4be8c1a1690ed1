"""Load benchmark: two service instances on one Redis (then on a Redis Cluster), mixed traffic.

Bounded in count and time, loopback only. For each backend (a redis-server; a local cluster of
3 masters with 1 replica each), both with an append-only file fsynced every second:

1. 200 tables get 20 rounds each, then two gunicorn instances of the service start on two ports
   (gunicorn.conf.py, one worker each: this machine has two cores), and two of a minimal Flask
   "ok" app under the same settings.
2. Throughput alone, wrk on both instances at once, alternating and best of each: cached roads
   JSON (``GET /v1/tables/{t}/roads``, 200 tables) against "ok", and the ratio.
3. Ingest alone at full speed (wrk POSTing the next round of the 200 tables in turn, half the
   tables on each instance): the most it can take, and the CPU a round costs the service (its
   workers' utime + stime from ``/proc/<pid>/stat``, over the rounds stored).
4. Mixed, all at once for the same seconds: ingest offered at a fixed 1,100 rounds a second (10%
   over the target; 16 connections per instance) while reads are offered at 200 roads JSON
   (``GET /v1/tables/{t}/roads``), 20 lobby (``GET /v1/tables``) and 40 picture
   (``GET .../roads/big_road.png``) requests a second. The offers are an open loop: each wrk
   thread sends its requests on an even schedule, on whichever connection is free, whatever the
   answer times (a slot missed because every connection was busy is lost, so a service that
   cannot keep up stores fewer rounds than offered). Every table changes about five times a
   second, so nearly every read finds a new version and builds its answer (a render, for a
   picture): the worst case for the reads. Then the same with ingest batched: each request
   reports the next round of 5 tables (``POST /v1/rounds``, a game server running many tables;
   the same 1,100 rounds a second, 220 requests). Then the same with everything at full speed
   (a stress figure: the reads then take whatever the ingest leaves). Requests per second and
   p50 / p99 latency per endpoint. Every Redis node rewrites its append-only file before each
   mixed run (waited for), so the runs start alike; each says how many rewrote during it.
5. Every table's rounds are checked: no gap, no duplicate, and every round the ingest was
   answered 2xx for is stored.

Run: ``python benchmarks/load_bench.py [--seconds 8] [--backend single|cluster|both]`` (needs
Debian's ``wrk``). Targets (issue "scale and faults", 2 cores): cached roads JSON >= 70% of the
"ok" endpoint's throughput; ingest >= 1,000 rounds/s with p99 < 50 ms while the reads run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from appendonly import aof_rewrites, rewrite_now
from serving import ROOT, gunicorn, redis_server

from api.config import Settings
from api.services import Services
from api.storage.failures import NotFound
from roads import Round
from tests.redis_cluster import LocalCluster

KEY = "bench-key"
# Both backends keep an append-only file, fsynced every second: the production setting (README),
# which the cluster's nodes run with too; its writes and rewrites cost Redis CPU under load.
PERSISTENCE = ("--appendonly", "yes", "--appendfsync", "everysec")
TABLES = 200
SEEDED = 20
WRK = Path(__file__).resolve().parent / "wrk"  # wrk's Lua scripts


def wrk_script(*names: str) -> str:
    """The wrk scripts ``names`` (in benchmarks/wrk/) as one: wrk takes a single file."""
    return "".join((WRK / name).read_text() for name in names)


def seed(settings: Settings) -> None:
    services = Services.build(settings)
    for t in range(TABLES):
        services.tables.put(f"t{t}", f"Table {t}", "standard")
        for number in range(1, SEEDED + 1):
            services.writer.append(f"t{t}", "s1", number, Round("BPPBT"[(number + t) % 5]))


def start_wrk(
    url: str, seconds: int, connections: int, script: str, env: dict, threads: int = 2
) -> subprocess.Popen:
    threads = min(threads, connections)
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    return subprocess.Popen(
        [*command, "-s", script, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **env},
    )


def figures(process: subprocess.Popen, seconds: int) -> dict[str, float]:
    out, _ = process.communicate(timeout=seconds + 60)
    if re.search(r"\.lua:\d+:", out):  # wrk goes on without a script it cannot run
        raise SystemExit(f"wrk script error:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    timeouts = re.search(r"timeout (\d+)", out)
    latency = {p: _ms(re.search(rf"\s{p}%\s+([\d.]+\w+)", out).group(1)) for p in ("50", "99")}
    total = int(re.search(r"(\d+) requests in", out).group(1))
    failed = int(errors.group(1)) if errors else 0
    # The ingest script counts the rounds answered 2xx itself (not its health checks).
    rounds = re.search(r"rounds answered 2xx: (\d+)", out)
    ok = int(rounds.group(1)) if rounds else total - failed
    return {
        "rps": rps,
        "ok_rps": rps * ok / total if total else 0.0,
        "ok": ok,
        "p50_ms": latency["50"],
        "p99_ms": latency["99"],
        "non_2xx": failed,
        "timeouts": int(timeouts.group(1)) if timeouts else 0,
    }


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def both(bases: list[str], path: str, seconds: int, script: str, connections: int) -> dict:
    """wrk on every instance at once; requests per second summed, latencies of the worst."""
    env = {"TABLES": str(TABLES), "PATH_TEMPLATE": path}
    runs = [start_wrk(base, seconds, connections, script, env) for base in bases]
    results = [figures(run, seconds) for run in runs]
    return combine(results)


def combine(results: list[dict]) -> dict:
    return {
        "rps": sum(r["rps"] for r in results),
        "ok_rps": sum(r["ok_rps"] for r in results),
        "ok": sum(r["ok"] for r in results),
        "p50_ms": max(r["p50_ms"] for r in results),
        "p99_ms": max(r["p99_ms"] for r in results),
        "non_2xx": sum(r["non_2xx"] for r in results),
        "timeouts": sum(r["timeouts"] for r in results),
    }


def run(backend: str, url: str, cluster: bool, seconds: int, folder: Path) -> None:
    ingest_script, read_script = str(folder / "ingest.lua"), str(folder / "read.lua")
    Path(ingest_script).write_text(wrk_script("ingest.lua", "pacing.lua"))
    Path(read_script).write_text(wrk_script("read.lua", "pacing.lua"))
    settings = Settings(redis_url=url, cluster=cluster, ingest_keys=(KEY,))
    seed(settings)
    env = {
        "REDIS_URL": url,
        "ROADS_REDIS_CLUSTER": "1" if cluster else "0",
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_DEMO": "0",
        "ROADS_WORKERS": "1",
    }
    with contextlib.ExitStack() as stack:
        service = [stack.enter_context(gunicorn("wsgi:app", env)) for _ in range(2)]
        ok = [stack.enter_context(gunicorn("benchmarks.ok_app:app", env)) for _ in range(2)]
        print(f"\n== {backend}: 2 service instances ({', '.join(service)}), one worker each")

        # Warm: every table's roads once on each instance (cached in Redis and in memory).
        both(service, "/v1/tables/t{t}/roads", 2, read_script, 4)
        roads = okay = None
        for _ in range(2):
            roads = best(roads, both(service, "/v1/tables/t{t}/roads", seconds, read_script, 8))
            okay = best(okay, both(ok, "/ok", seconds, read_script, 8))
        ratio = roads["rps"] / okay["rps"]
        print(f"alone, wrk -t2 -c8 on each instance, {seconds}s, best of 2 alternating:")
        line("cached roads JSON", roads)
        line('"ok" endpoint', okay)
        verdict = "met" if ratio >= 0.7 else "MISSED"
        print(f"  {'ratio roads JSON / ok':<26} {ratio:8.2f}        target >= 0.70  {verdict}")

        before = cpu_seconds(service)
        alone = combine(
            [figures(p, seconds) for p in ingest(service, seconds, ingest_script, "s1", 8, 0)]
        )
        spent = cpu_seconds(service) - before
        print(
            f"ingest alone, full speed, wrk -t2 -c8 on each instance (100 tables each), {seconds}s:"
        )
        line("ingest (POST rounds)", alone)
        # The service's CPU a round: both workers' utime + stime over the rounds answered 2xx
        # (wrk's few health checks are in it too).
        print(
            f"  the service's CPU a round stored: {1e6 * spent / max(alone['ok'], 1):.0f} us"
            f"   ({spent:.2f} s of worker CPU, {alone['ok']} rounds)"
        )

        # Each mixed run deals a new shoe at every table, from its round 1.
        answered = alone["ok"]
        for shoe, paced, batch in (("s2", True, 0), ("s3", True, BATCH), ("s4", False, 0)):
            rewrite_now(settings)
            rewrites = aof_rewrites(settings)
            mixed = mixed_run(service, seconds, ingest_script, read_script, shoe, paced, batch)
            answered += mixed["ok"]
            rewrites = aof_rewrites(settings) - rewrites
            print(f"  Redis nodes that rewrote their append-only file during the run: {rewrites}")
        in_flight = 2 * 8 + 2 * INGEST_PACED[0] + 2 * INGEST_BATCHED[0] * BATCH + 2 * 8
        check(settings, answered, in_flight=in_flight)


# Per read kind: the path, connections per instance, and the requests a second offered in all
# when paced. Every table changes about five times a second, so nearly every read finds a new
# version and builds its answer (a render, for a picture): the worst case for the reads.
READS = {
    "roads JSON": ("/v1/tables/t{t}/roads", 4, 200),
    "lobby (GET /v1/tables)": ("/v1/tables", 2, 20),
    "big_road.png": ("/v1/tables/t{t}/roads/big_road.png", 4, 40),
}
# Ingest when paced: connections per instance, and rounds a second offered in all (10% over the
# target, so the rounds stored say whether the service keeps up). 16 connections per instance
# keep the offer up while answers take up to 29 ms.
INGEST_PACED = (16, 1100)
# Batched (POST /v1/rounds, a game server reporting BATCH of its tables at once): connections per
# instance and rounds a second offered in all (220 requests). A table's next round is sent only
# once the thread's other tables had theirs (10 batches later, at most 4 in flight).
BATCH = 5
INGEST_BATCHED = (8, 1100)


def mixed_run(
    service: list[str],
    seconds: int,
    ingest_script: str,
    read_script: str,
    shoe: str,
    paced: bool,
    batch: int = 0,
) -> dict:
    """Ingest on both instances while the reads run on both: all paced (at the rates above), or
    all at full speed; with ``batch``, ingest sends that many tables' rounds per request."""

    def reads(path: str, connections: int, rate: int) -> list[subprocess.Popen]:
        connections = connections if paced else 4
        env = {"TABLES": str(TABLES), "PATH_TEMPLATE": path}
        env["RATE"] = str(per_thread(rate, connections) if paced else 0)
        return [start_wrk(base, seconds, connections, read_script, env) for base in service]

    connections, rate = INGEST_BATCHED if batch else INGEST_PACED if paced else (8, 0)
    name = f"ingest, {batch} a request" if batch else "ingest (POST rounds)"
    offered = per_thread(rate // max(batch, 1), connections)
    runs = {name: ingest(service, seconds, ingest_script, shoe, connections, offered, batch)}
    for kind, (path, connections, rate) in READS.items():
        runs[kind] = reads(path, connections, rate)
    results = {kind: combine([figures(p, seconds) for p in procs]) for kind, procs in runs.items()}
    offer = ", ".join(f"{rate} {kind}" for kind, (_, _, rate) in READS.items())
    if batch:
        how = (
            f"paced, batched (POST /v1/rounds, {batch} tables' rounds each): ingest offered "
            f"{INGEST_BATCHED[1]:,} rounds/s; reads as above"
        )
    elif paced:
        how = f"paced: ingest offered {INGEST_PACED[1]:,} rounds/s; reads a second: {offer}"
    else:
        how = "stress: ingest and reads all at full speed (wrk -c8 ingest, -c4 each read)"
    print(f"mixed, {how}, {seconds}s:")
    for kind, result in results.items():
        line(kind, result)
    mixed = results[name]
    if paced:
        # Rounds answered 2xx per second (a batch counts each of its rounds).
        rounds = mixed["ok"] / seconds
        met = rounds >= 1000 and mixed["p99_ms"] < 50
        print(
            f"  ingest: {rounds:.0f} rounds/s stored, p99 {mixed['p99_ms']:.1f} ms"
            f"{' a request' if batch else ''}   target >= 1000/s and p99 < 50 ms"
            f"  {'met' if met else 'MISSED'}"
        )
    return mixed


def per_thread(rate: int, connections: int) -> float:
    """The requests a second each wrk thread offers, for ``rate`` in all on both instances
    (wrk runs two threads per instance, one when it has one connection)."""
    return rate / (2 * min(2, connections))


def ingest(
    service: list[str],
    seconds: int,
    script: str,
    shoe: str,
    connections: int,
    rate: float,
    batch: int = 0,
) -> list:
    """wrk POSTing rounds on both instances, 100 tables each: shoe ``s1`` after its seeded
    rounds, or a new shoe from round 1; ``rate`` requests a second offered by each wrk thread
    (0: full speed); ``batch`` rounds of as many tables a request (POST /v1/rounds), or one
    (0)."""
    half = TABLES // 2
    ranges = [(0, half - 1), (half, TABLES - 1)]
    env = {
        "KEY": KEY,
        "THREADS": "2",
        "CONNECTIONS_PER_THREAD": str(connections // 2),
        "SHOE": shoe,
        "SEEDED": str(SEEDED if shoe == "s1" else 0),
        "RATE": str(rate),
        "BATCH": str(batch),
    }
    return [
        start_wrk(base, seconds, connections, script, {**env, "FIRST": str(a), "LAST": str(b)})
        for base, (a, b) in zip(service, ranges, strict=True)
    ]


def check(settings: Settings, answered: int, in_flight: int) -> None:
    """Every table's rounds are 1..n with no gap or duplicate, and every round the ingest was
    answered 2xx for is stored (a few more may be: requests still in flight when wrk stopped
    counting, at most one per connection per run)."""
    rounds = Services.build(settings).rounds
    total = 0
    for t in range(TABLES):
        for shoe in ("s1", "s2", "s3", "s4"):
            try:
                _, records = rounds.shoe_rounds(f"t{t}", shoe)
            except NotFound:
                continue
            numbers = [record["round"] for record in records]
            assert numbers == list(range(1, len(numbers) + 1)), f"t{t} {shoe}: {numbers[:5]}..."
            total += len(numbers) - (SEEDED if shoe == "s1" else 0)
    verdict = "ok" if answered <= total <= answered + in_flight else "MISMATCH"
    print(
        f"  stored: {total} new rounds, no gap and no duplicate in any shoe; answered 2xx: "
        f"{answered} (+ at most {in_flight} in flight when wrk stopped)  {verdict}"
    )


def cpu_seconds(instances: list) -> float:
    """The CPU time (utime + stime, ``/proc/<pid>/stat``) of every worker of ``instances``."""
    ticks = 0
    for instance in instances:
        for pid in instance.workers():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                ticks += int(stat[11]) + int(stat[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def best(current: dict | None, new: dict) -> dict:
    return new if current is None or new["rps"] > current["rps"] else current


def line(name: str, result: dict) -> None:
    print(
        f"  {name:<26} {result['rps']:8.0f} req/s   p50 {result['p50_ms']:6.2f} ms"
        f"   p99 {result['p99_ms']:7.2f} ms   non-2xx {result['non_2xx']}"
        f"   timeouts {result['timeouts']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--backend", choices=["single", "cluster", "both"], default="both")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        if args.backend in ("single", "both"):
            with redis_server(*PERSISTENCE) as server:
                run("one redis-server", server.url, False, args.seconds, Path(folder))
        if args.backend in ("cluster", "both"):
            cluster = LocalCluster().start()
            try:
                run(
                    "Redis Cluster, 3 masters + 3 replicas",
                    cluster.url,
                    True,
                    args.seconds,
                    Path(folder),
                )
            finally:
                cluster.cleanup()


if __name__ == "__main__":
    main()
