"""Benchmark of the rendered scorecards.

1. Cold render (not cached in Redis; the painter's figures warmed as at start-up): median time to
   build the scene from the roads JSON and paint the PNG, per road and for the composite, on
   80-round simulated shoes.
2. Cached PNG requests per second through gunicorn (gunicorn.conf.py, a private redis-server),
   against a minimal Flask "ok" endpoint under the same gunicorn settings in the same run, and
   the ratio. The two are measured alternately, best of each, because this machine's speed
   drifts by a third between runs.

Run: ``python benchmarks/images_bench.py``. Targets (issue "images", 2 cores): a single road cold
<= 10 ms, the composite <= 30 ms, cached PNG throughput >= 80% of the "ok" endpoint's.
"""

from __future__ import annotations

import argparse
import statistics
import time
import urllib.request

import serving
from serving import ROOT, gunicorn, redis_server, wrk  # noqa: F401

from api.images.paint import paint, warm_up
from api.images.scene import road_scene, scorecard_scene
from roads import Scorecard
from roads.simulator import iter_shoes

ROADS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road")
KEY = "bench-key"


def cold_renders(shoes: int) -> dict[str, float]:
    warm_up()
    shapes = [Scorecard.from_rounds(rounds[:80]).as_dict() for rounds in iter_shoes(shoes, 11)]
    timings: dict[str, list[float]] = {name: [] for name in (*ROADS, "scorecard")}
    for shape in shapes:
        for name in timings:
            start = time.perf_counter()
            if name == "scorecard":
                paint(scorecard_scene(shape))
            else:
                paint(road_scene(shape, name))
            timings[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(values) for name, values in timings.items()}


def post(base: str, path: str, body: dict) -> None:
    serving.post(base, path, body, KEY)


def throughput(seconds: int, rounds: int) -> tuple[dict, dict]:
    with redis_server() as redis:
        env = {"REDIS_URL": redis.url, "ROADS_INGEST_KEYS": KEY, "ROADS_DEMO": "0"}
        with gunicorn("wsgi:app", env) as base:
            shoe = next(iter_shoes(1, 5))[:80]
            for number, round in enumerate(shoe, start=1):
                body = {
                    "round": number,
                    "player": [str(c) for c in round.player_cards],
                    "banker": [str(c) for c in round.banker_cards],
                }
                post(base, "/v1/tables/bench/shoes/s1/rounds", body)
            url = base + "/v1/tables/bench/shoes/s1/roads/scorecard.png"
            urllib.request.urlopen(url, timeout=5).read()  # render once: the cache is warm
            with gunicorn("benchmarks.ok_app:app", env) as ok_base:
                # Alternate the two, best of each: this machine's speed drifts between runs.
                images = ok = None
                for _ in range(rounds):
                    images = best(images, wrk(url, seconds))
                    ok = best(ok, wrk(ok_base + "/ok", seconds))
    return images, ok


def best(current: dict | None, new: dict) -> dict:
    return new if current is None or new["rps"] > current["rps"] else current


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="alternating wrk runs of each")
    args = parser.parse_args()

    renders = cold_renders(args.shoes)
    print(f"cold render, median of {args.shoes} shoes of 80 rounds:")
    for name, ms in renders.items():
        target = 30 if name == "scorecard" else 10
        verdict = "met" if ms <= target else "MISSED"
        print(f"  {name:16s} {ms:7.2f} ms   target <= {target} ms  {verdict}")

    images, ok = throughput(args.seconds, args.rounds)
    ratio = images["rps"] / ok["rps"]
    print(
        f"through gunicorn (gunicorn.conf.py), wrk -t2 -c16 -d{args.seconds}s, "
        f"best of {args.rounds} alternating runs each:"
    )
    for name, figures in (("cached scorecard.png", images), ('"ok" endpoint', ok)):
        print(
            f"  {name:22s} {figures['rps']:9.1f} req/s   p50 {figures['p50_ms']:.2f} ms"
            f"   p99 {figures['p99_ms']:.2f} ms   non-2xx {figures['non_2xx']}"
        )
    print(
        f"  ratio cached PNG / ok  {ratio:9.2f}     target >= 0.80  "
        f"{'met' if ratio >= 0.8 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
