"""What the platform layer costs on the hottest reads: the JSON access log and the request
metrics (api.http.traffic, api.accesslog), measured under gunicorn on loopback.

gunicorn with ``--workers`` gevent workers (2) on a private redis-server, 20 tables of 30
rounds. wrk (``-t2 -c16``) on two cached answers, each already in the workers' memory:
``GET /v1/tables/t3/roads`` (the roads JSON) and ``GET /v1/tables/t3/roads/big_road.png``; and
on a bare Flask app answering "ok" under the same gunicorn settings, the ceiling. Three
setups, alternating, ``--runs`` runs each (3):

- **on**: the access log (lines to a file, as a log shipper reads them) and the request
  metrics, the defaults;
- **off**: both off (``ROADS_ACCESS_LOG=0``, ``ROADS_REQUEST_METRICS=0``);
- **bare**: the minimal Flask app (``benchmarks/ok_app.py``).

Prints each run's requests per second, the median of each, and the ratios the issue sets
targets for: on / off >= 0.9, on / bare >= 0.8. First, what each part costs a request in a
process of its own, as a gevent worker runs it: the request metrics in prometheus-client's
multiprocess mode, an access-log line queued, and its share of the writer's work. Run:
``python benchmarks/platform_bench.py [--seconds 5] [--runs 3] [--workers 2]`` (needs Debian's
``wrk``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from serving import gunicorn, post, redis_server, wrk

KEY = "bench-key"
TABLES = 20
READS = {"roads JSON": "/v1/tables/t3/roads", "big_road.png": "/v1/tables/t3/roads/big_road.png"}


PARTS = """
from gevent import monkey; monkey.patch_all()
import time
from api.accesslog import AccessLog
from api.metrics import request_counted
n = 50_000
request_counted("/v1/tables/{table}/roads", "GET", "200", 0.0004)
start = time.perf_counter()
for _ in range(n):
    request_counted("/v1/tables/{table}/roads", "GET", "200", 0.0004)
metrics = (time.perf_counter() - start) / n * 1e6
fields = {"method": "GET", "route": "/v1/tables/{table}/roads", "path": "/v1/tables/t3/roads",
          "status": 200, "duration_ms": 0.4, "bytes": 3120, "request_id": "0" * 32, "table": "t3"}
log = AccessLog(open("/dev/null", "wb"), capacity=n + 1)
start = time.perf_counter()
for _ in range(n):
    log.write(dict(fields))
queued = (time.perf_counter() - start) / n * 1e6
start = time.perf_counter()
log.close()
written = (time.perf_counter() - start) / n * 1e6
print(f"  request metrics (multiprocess): {metrics:.2f} us a request")
print(f"  access log: {queued:.2f} us a line queued, {written:.2f} us a line written (the writer)")
"""


def parts() -> None:
    """What each part costs a request, in a process of its own (multiprocess metrics need their
    directory set before prometheus-client is imported)."""
    print("what each part costs a request (a gevent process of its own)")
    folder = tempfile.mkdtemp(prefix="roads-bench-metrics-")
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder}
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-c", PARTS], cwd=root, env=env, check=True)
    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    parts()
    logs = Path(tempfile.mkdtemp(prefix="roads-bench-log-"))
    figures: dict[tuple[str, str], list[float]] = {}
    with redis_server() as redis:
        env = {"REDIS_URL": redis.url, "ROADS_INGEST_KEYS": KEY, "ROADS_WORKERS": str(args.workers)}
        setups = {
            "on": ("wsgi:app", {**env, "ROADS_ACCESS_LOG": "1", "ROADS_REQUEST_METRICS": "1"}),
            "off": ("wsgi:app", {**env, "ROADS_ACCESS_LOG": "0", "ROADS_REQUEST_METRICS": "0"}),
            "bare": ("benchmarks.ok_app:app", env),
        }
        with gunicorn("wsgi:app", env) as base:
            for table in range(TABLES):
                for number in range(1, 31):
                    body = {"round": number, "result": "BPBBPT"[(number * 7 + table) % 6]}
                    post(base, f"/v1/tables/t{table}/shoes/s1/rounds", body, KEY)
        for run in range(args.runs):
            for name, (app, setup) in setups.items():
                reads = READS if app == "wsgi:app" else {"ok": "/ok"}
                with gunicorn(app, setup, log=logs / f"{name}.log") as base:
                    for read, path in reads.items():
                        wrk(base + path, seconds=1)  # warm: the answer in every worker's memory
                        got = wrk(base + path, seconds=args.seconds)
                        figures.setdefault((name, read), []).append(got["rps"])
                        print(
                            f"run {run + 1} {name:4} {read:12} {got['rps']:9,.0f} req/s  "
                            f"p50 {got['p50_ms']:.2f} ms  p99 {got['p99_ms']:.2f} ms  "
                            f"non-2xx {got['non_2xx']}",
                            flush=True,
                        )
    median = {key: statistics.median(values) for key, values in figures.items()}
    bare = median[("bare", "ok")]
    print(f"\nmedians (req/s; bare Flask app {bare:,.0f})")
    print(f"  {'read':12} {'on':>9} {'off':>9}  {'on/off':>6}  {'on/bare':>7}")
    for read in READS:
        on, off = median[("on", read)], median[("off", read)]
        print(f"  {read:12} {on:9,.0f} {off:9,.0f}  {on / off:6.2f}  {on / bare:7.2f}")
    print("targets: on/off >= 0.90, on/bare >= 0.80")


if __name__ == "__main__":
    main()
