"""Hostile load: does any reader slow ingest, or grow the Redis that holds the rounds?

The service runs as one deployment starts it (``python -m api.doors``: api/doors.py, with its
defaults) on a private redis-server, in two shapes: the baseline, one door (``--single``) taking
both the dealer and the floods; then the default shape, two doors, the dealer at the ingest door
(its own gunicorn master, 1 worker, normal priority) and the floods at the public door (its
workers at ``ROADS_NICE`` 10), on the one Redis. A dealer reports a round every ``--interval``
seconds to one table and times each answer, first with no other load, then under each flood in
turn, each run by wrk on 8 and then on 64 connections, anonymous:

- distinct pictures (``/v1/tables/T/roads/{road}.png`` over random ``cols``, ``theme``,
  ``scale``, ``bead``), so that none is ever cached;
- distinct custom Good Roads queries (``/v1/good-roads?custom=...``) over 200 tables;
- event-stream connections held open (``/v1/events``, each on a table channel).

For each: ingest latency p50 / p99, the flood's own throughput and its answers by status, and
Redis ``used_memory`` before and after; then the ratio of ingest's p99 under the worst flood to
its quiet p99. Target (issue "hostile clients"): <= 2x. ``--picture-minutes 5`` adds a 5-minute
picture flood at the public door and prints Redis' growth over it against the bound stated in
docs/operations.md.

Run: ``python benchmarks/abuse_bench.py [--seconds 15] [--interval 0.1] [--picture-minutes 0]``
(needs wrk). Loopback only, bounded in time: 2 shapes x 7 phases of ``--seconds`` each, plus
the doors' starts (and the picture minutes).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.serving import redis_server  # noqa: E402
from tests.doors_server import doors  # noqa: E402
from tests.gunicorn_server import send  # noqa: E402

KEY = "abuse-key"
TABLES = 200

PICTURES_LUA = """
local roads = {"bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road", "scorecard"}
local themes = {"light", "dark"}
local beads = {"letters", "totals"}
request = function()
  local path = string.format("/v1/tables/t%d/roads/%s.png?cols=%d&theme=%s&scale=%.3f&bead=%s",
    math.random(0, 9), roads[math.random(1, 6)], math.random(1, 60),
    themes[math.random(1, 2)], 0.5 + math.random() * 1.5, beads[math.random(1, 2)])
  return wrk.format("GET", path)
end
"""
CUSTOM_LUA = """
request = function()
  local parts, side = {}, math.random(0, 1)
  for i = 1, math.random(1, 6) do
    parts[i] = (side == 0 and "X" or "Y") .. math.random(1, 6)
    side = 1 - side
  end
  if math.random() < 0.5 then parts[#parts] = parts[#parts] .. "%2B" end
  return wrk.format("GET", "/v1/good-roads?custom=" .. table.concat(parts, "%20"))
end
"""
EVENTS_LUA = """
request = function()
  return wrk.format("GET", "/v1/events?tables=t" .. math.random(0, 9), {["Connection"] = "close"})
end
"""
STATUSES_LUA = """
local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
end
function init(args)
  counts = {}
end
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("counts")) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do parts[#parts + 1] = status .. "=" .. count end
  table.sort(parts)
  io.write("STATUSES " .. table.concat(parts, ",") .. "\\n")
end
"""


# (name, title, api.doors arguments): the baseline first, then the default shape.
SHAPES = (
    (
        "one door",
        "one door (api.doors --single, its defaults): the dealer and the floods on it",
        ("--single",),
    ),
    (
        "two doors",
        "two doors (api.doors, its defaults): the dealer at the ingest door, the "
        "floods at the public one (nice 10)",
        (),
    ),
)


def memory(redis_url: str) -> float:
    return redis.Redis.from_url(redis_url).info("memory")["used_memory"] / 1e6


def flushed(redis_url: str) -> None:
    redis.Redis.from_url(redis_url).flushdb()


class Dealer(threading.Thread):
    """Reports the next round of table ``dealer`` every ``interval`` seconds, timing each."""

    def __init__(self, base: str, interval: float) -> None:
        super().__init__(daemon=True)
        self.base, self.interval = base, interval
        self.number = 0
        self.latencies: list[float] = []
        self.failures = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.number += 1
            body = json.dumps({"round": self.number, "result": random.choice("BPPBT")}).encode()
            request = urllib.request.Request(
                f"{self.base}/v1/tables/dealer/shoes/s1/rounds",
                data=body,
                method="POST",
                headers={"Content-Type": "application/json", "X-API-Key": KEY},
            )
            started = time.perf_counter()
            try:
                urllib.request.urlopen(request, timeout=30).read()
                self.latencies.append((time.perf_counter() - started) * 1000)
            except (urllib.error.URLError, OSError):
                self.failures += 1
            self.stop.wait(self.interval)

    def taken(self) -> list[float]:
        taken, self.latencies = self.latencies, []
        return taken


def percentiles(latencies: list[float]) -> tuple[float, float]:
    if len(latencies) < 2:
        return float("nan"), float("nan")
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return statistics.median(latencies), cuts[98]


def flood(base: str, script: Path, connections: int, seconds: int) -> tuple[float, str]:
    """wrk with ``script`` on ``connections`` connections: requests a second, answers by status."""
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "30s",
            "-s",
            str(script),
            base,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    ).stdout
    rate = next(line for line in out.splitlines() if line.startswith("Requests/sec"))
    statuses = next((line for line in out.splitlines() if line.startswith("STATUSES")), "")
    return float(rate.split()[-1]), statuses.removeprefix("STATUSES ")


def phases(dealer: Dealer, public: str, redis_url: str, scripts: dict, seconds: int) -> float:
    """Ingest latency without a flood, then under each flood on ``public``; the ratio of its
    p99 under the worst flood to its quiet p99."""
    dealer.taken()
    before = memory(redis_url)
    time.sleep(seconds)
    p50, p99 = percentiles(dealer.taken())
    quiet = p99
    print(
        f"  {'no read load':34} {p50:8.1f}ms {p99:6.1f}ms  {'':>10}  "
        f"{before:7.2f} -> {memory(redis_url):5.2f}"
    )
    worst = 0.0
    for name in ("pictures", "custom", "events"):
        for connections in (8, 64):
            before = memory(redis_url)
            dealer.taken()
            rate, statuses = flood(public, scripts[name], connections, seconds)
            p50, p99 = percentiles(dealer.taken())
            # Fewer than two answers in the phase: ingest waited past it, the worst of all.
            worst = max(worst, p99) if p99 == p99 else float("inf")
            label = f"{name} flood, {connections} connections"
            shown = f"{rate:7.0f}/s" if name != "events" else f"{connections:4d} held"
            print(
                f"  {label:34} {p50:8.1f}ms {p99:6.1f}ms  {shown:>10}  "
                f"{before:7.2f} -> {memory(redis_url):5.2f}  {statuses}"
            )
    ratio = worst / quiet
    print(
        f"  ingest p99 under the worst flood / without one: {ratio:.2f}x  target <= 2x  "
        f"{'met' if ratio <= 2 else 'MISSED'}; ingest failures: {dealer.failures}"
    )
    return ratio


def seeded(base: str) -> None:
    for table in range(TABLES):
        shoe = "".join(random.Random(table).choice("BPPBBPT") for _ in range(40))
        rounds = [
            {"table": f"t{table}", "shoe": "s1", "round": n + 1, "result": r}
            for n, r in enumerate(shoe)
        ]
        send(base, "POST", "/v1/rounds", {"rounds": rounds}, KEY)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--picture-minutes", type=float, default=0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="roads-abuse-"))
    scripts = {}
    for name, lua in (("pictures", PICTURES_LUA), ("custom", CUSTOM_LUA), ("events", EVENTS_LUA)):
        scripts[name] = folder / f"{name}.lua"
        scripts[name].write_text(lua + STATUSES_LUA)
    print(
        f"{TABLES} tables; a dealer reports a round every {args.interval} s; floods by wrk; "
        f"each phase {args.seconds} s"
    )
    print(f"  {'phase':34} {'ingest p50':>10} {'p99':>8}  {'flood':>10}  {'Redis MB':>16}  answers")
    ratios = {}
    with redis_server("--maxmemory", "0") as server:
        for name, title, shape in SHAPES:
            print(title)
            flushed(server.url)
            with doors({"REDIS_URL": server.url, "ROADS_INGEST_KEYS": KEY}, *shape) as served:
                seeded(served.ingest)
                dealer = Dealer(served.ingest, args.interval)
                dealer.start()
                time.sleep(2)
                ratios[name] = phases(dealer, served.public, server.url, scripts, args.seconds)
                if args.picture_minutes and name == "two doors":
                    picture_minutes(served.public, server.url, scripts, args.picture_minutes)
                dealer.stop.set()
                dealer.join(5)
    shown = ", ".join(f"{name} {ratio:.2f}x" for name, ratio in ratios.items())
    print(f"ingest p99 under the worst flood / without one (target <= 2x): {shown}")


def picture_minutes(public: str, redis_url: str, scripts: dict, minutes: float) -> None:
    """A picture flood of ``minutes`` on 8 connections: Redis' growth over it."""
    seconds = int(minutes * 60)
    before = memory(redis_url)
    rate, statuses = flood(public, scripts["pictures"], 8, seconds)
    after = memory(redis_url)
    print(
        f"picture flood for {seconds} s on 8 connections: {rate:.0f}/s "
        f"({statuses}); Redis {before:.2f} -> {after:.2f} MB "
        f"(+{after - before:.2f} MB)"
    )


if __name__ == "__main__":
    main()
