"""What the platform conventions cost: request ids, the JSON access log and the request metrics
(api.http.traffic) on the hottest read, measured under gunicorn on loopback.

One gunicorn worker (this machine has two cores; wrk takes the other) on a private
redis-server, 20 tables of 30 rounds. wrk on ``GET /v1/tables/{t}/roads`` (cached: answered
from the worker's memory) for the same seconds, alternating, three runs of each:

- the access log on (the default; lines to a file, as a log shipper would read them);
- the access log off (``ROADS_ACCESS_LOG=0``; ids and metrics stay);
- the minimal Flask "ok" app under the same gunicorn settings, the ceiling.

Prints requests per second and p50 / p99 of each run, the best of each, and the ratios. Run:
``python benchmarks/platform_bench.py [--seconds 5]`` (needs Debian's ``wrk``). Compare with the
same script at an earlier commit for the cost of the whole layer.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from serving import gunicorn, post, redis_server, wrk

KEY = "bench-key"
TABLES = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    logs = Path(tempfile.mkdtemp(prefix="roads-bench-log-"))
    with redis_server() as redis:
        env = {"REDIS_URL": redis.url, "ROADS_INGEST_KEYS": KEY, "ROADS_WORKERS": "1"}
        setups = {
            "log on": ("wsgi:app", {**env, "ROADS_ACCESS_LOG": "1"}),
            "log off": ("wsgi:app", {**env, "ROADS_ACCESS_LOG": "0"}),
            "ok app": ("benchmarks.ok_app:app", env),
        }
        with gunicorn("wsgi:app", env) as base:
            for table in range(TABLES):
                for number in range(1, 31):
                    body = {"round": number, "result": "BPBBPT"[(number * 7 + table) % 6]}
                    post(base, f"/v1/tables/t{table}/shoes/s1/rounds", body, KEY)
        best: dict[str, float] = {}
        for run in range(args.runs):
            for name, (app, setup) in setups.items():
                path = "/v1/tables/t3/roads" if app == "wsgi:app" else "/ok"
                with gunicorn(app, setup, log=logs / f"{name}.log") as base:
                    wrk(base + path, seconds=1)  # warm: the answer in the worker's memory
                    figures = wrk(base + path, seconds=args.seconds)
                print(
                    f"run {run + 1} {name:8} {figures['rps']:9,.0f} req/s  "
                    f"p50 {figures['p50_ms']:.2f} ms  p99 {figures['p99_ms']:.2f} ms  "
                    f"non-2xx {figures['non_2xx']}"
                )
                best[name] = max(best.get(name, 0.0), figures["rps"])
    print()
    for name, rps in best.items():
        print(f"best {name:8} {rps:9,.0f} req/s  ({rps / best['ok app']:.0%} of the ok app)")
    print(f"log on / log off: {best['log on'] / best['log off']:.0%}")


if __name__ == "__main__":
    main()
