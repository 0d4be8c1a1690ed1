"""The lobby in frames at scale (``feed_bench.py --frames``): one deployment (a service of 2
gunicorn workers with Pushpin in front, and nginx with nchan fed one publish per frame), a
lobby of ``--tables`` tables dealt ``--rate`` rounds a second; per tier (the built-in feed,
Pushpin, nchan) a ladder of viewers, and the per-round lobby of before (``?frames=0``) on the
built-in feed as the baseline, in the same run.

Per step: viewers connected (and the tries the service's pace made them take), frames delivered
of those due (every frame to every viewer: then every change arrived), the delay of a frame (its
arrival - its XADD) and the staleness of a change (its arrival in a frame - its round's POST;
the probe, :mod:`benchmarks.frame_probe`, knows which rounds each frame brought), p50 and p99;
bytes and writes (frames) per viewer per second after the whole lobby read on connecting;
each process's CPU (share of one core over the dealing) and RSS at the end.
"""

from __future__ import annotations

import time

from benchmarks.frame_probe import Probe
from benchmarks.sse_load import Load
from benchmarks.usage import Usage

LIMIT_MS = 1000.0  # the staleness bound a step must hold at p99


def percentile(values: list[float], share: float) -> float:
    return values[int(share * (len(values) - 1))] if values else float("nan")


def measure(port: int, path: str, clients: int, dealer, probe: Probe, watched: dict, args) -> dict:
    """One step: ``clients`` frames viewers of ``path`` on ``port`` while rounds are dealt."""
    whole = "snapshot=0" not in path and "nchan" not in path
    with Load(port, path, clients, processes=args.processes, frames=True) as load:
        time.sleep(2)
        usage = {name: Usage(pids()) for name, pids in watched.items()}
        began, wall, refused = time.monotonic(), time.time() * 1000, dealer.refused
        dealer.run(args.rate, args.seconds)
        ended = time.time() * 1000
        time.sleep(args.drain)
        elapsed = time.monotonic() - began
        found = load.results()
        figures = {name: (use.used() / elapsed, use.rss_mb()) for name, use in usage.items()}
    due = sorted(c for c, seen in probe.frames.items() if wall <= seen.id_ms <= ended + 600)
    delays, stale, delivered = [], [], 0
    for arrivals in found["arrivals"]:
        # A frame arrives by itself, or in a later full frame (the whole lobby, after a gap):
        # either way its changes arrived then.
        waiting = [c for c in due]
        for at, cursor in arrivals:
            seen = probe.frames.get(cursor)
            if seen is None or seen.id_ms < wall:
                continue
            while waiting and waiting[0] <= cursor:
                brought = probe.frames[waiting.pop(0)]
                delays.append(at * 1000 - brought.id_ms)
                stale += [at - dealer.committed[change] for change in brought.rounds]
                delivered += 1
    delays.sort()
    stale = sorted(s * 1000 for s in stale)
    viewers = max(1, load.connected)
    return {
        "clients": clients,
        "connected": load.connected,
        "retried": load.retried,
        "delivered": delivered,
        "due": len(due) * load.connected,
        "p50": percentile(delays, 0.5),
        "p99": percentile(delays, 0.99),
        "stale50": percentile(stale, 0.5),
        "stale99": percentile(stale, 0.99),
        # The whole lobby each viewer of the built-in feed reads on connecting is left out.
        "bytes": (found["bytes"] / viewers - (args.full_frame if whole else 0)) / elapsed,
        "writes": sum(len(a) for a in found["arrivals"]) / viewers / elapsed,
        "usage": figures,
        "generator_cpu": found["cpu_seconds"] / elapsed,
        "refused": dealer.refused - refused,
    }


def held(step: dict) -> bool:
    every = step["connected"] == step["clients"] and step["delivered"] == step["due"]
    return every and step["stale99"] <= LIMIT_MS


def ladder(
    name: str, port: int, path: str, counts: list[int], dealer, probe, watched: dict, args
) -> list:
    print(f"\n{name}: frames viewers of a {args.tables}-table lobby, {args.rate:g} rounds/s")
    print(
        "  viewers  conn'd  tries  frames delivered/due  delay p50/p99 ms  stale p50/p99 ms  "
        "B/viewer/s  writes/viewer/s  CPU (of one core), RSS"
    )
    steps = []
    for clients in counts:
        step = measure(port, path, clients, dealer, probe, watched, args)
        usage = "  ".join(
            f"{n} {cpu * 100:4.0f}% {rss:5.0f} MB" for n, (cpu, rss) in step["usage"].items()
        )
        print(
            f"  {clients:>7,}  {step['connected']:>6,} {step['retried']:>6,}  "
            f"{step['delivered']:>10,}/{step['due']:<10,} {step['p50']:7.0f} {step['p99']:7.0f}"
            f"    {step['stale50']:7.0f} {step['stale99']:7.0f}   {step['bytes']:9,.0f}  "
            f"{step['writes']:8.2f}        {usage}  generator {step['generator_cpu'] * 100:3.0f}%"
            + (f"  ingest 503s {step['refused']:,}" if step["refused"] else ""),
            flush=True,
        )
        steps.append(step)
        time.sleep(3)
        if step["connected"] < clients // 2:
            break  # the tier is past what it holds: the larger steps would tell nothing more
    return steps


def largest(steps: list[dict]) -> int:
    return max((s["clients"] for s in steps if held(s)), default=0)
