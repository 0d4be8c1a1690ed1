"""What the service counts, for Prometheus (``GET /metrics``): every metric, defined once here.

Under gunicorn each worker is a process of its own, so the counts are kept with
prometheus-client's multiprocess mode: ``gunicorn.conf.py`` makes a private directory at start
(``PROMETHEUS_MULTIPROC_DIR``, before anything imports prometheus-client) and removes it on exit,
and a scrape adds up every worker's files. Without it (the tests' in-process app, the
benchmarks) the counts are this process's own.

Label values are route templates, causes and kinds from fixed lists, never a raw path or a table
id: one series per route, not per table. ``docs/operations.md`` lists them, with PromQL.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess

disable_created_metrics()  # the ``_created`` series only double what a scrape has to read

# Request latency buckets: reads are well under a millisecond from memory, a PNG built anew
# tens of milliseconds, an event stream open for minutes (its own route, read apart).
_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60)
_LAG = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)

REQUESTS = Counter(
    "roads_http_requests_total",
    "HTTP requests answered, by route template, method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "roads_http_request_duration_seconds",
    "Time from a request's arrival to its answer's last byte, by route template and method.",
    ["route", "method"],
    buckets=_LATENCY,
)
ROUNDS = Counter(
    "roads_rounds_total",
    "Rounds reported, by what became of them: stored (new), replay (the identical round "
    "again, answered as before) or conflict (409).",
    ["outcome"],
)
UNAVAILABLE = Counter(
    "roads_unavailable_total",
    "503 answers, by cause: redis_down, failing_over, out_of_memory, contention, not_replicated, "
    "readers_busy (pictures or custom Good Roads past their bound), feed_full, paytable_missing "
    "(a table names a pay table Redis lost).",
    ["cause"],
)
READ_CACHE = Counter(
    "roads_read_cache_total",
    "Reads through the read cache, by kind (roads, png, odds, lobby, ...) and outcome: "
    "held (304), memory (this process), redis (cached by any process), built.",
    ["kind", "outcome"],
)
FEED_CLIENTS = Gauge(
    "roads_feed_clients",
    "Event-stream clients connected to this service directly (not those a GRIP proxy holds).",
    multiprocess_mode="livesum",
)
FEED_EVENTS = Counter(
    "roads_feed_events_total",
    "Events sent: to direct clients (one per client and event; ``frames``: one per client and "
    "lobby frame) or published to the GRIP proxies (one per event, or frame, and proxy).",
    ["path"],
)
FEED_LAG = Histogram(
    "roads_feed_lag_seconds",
    "From a write's commit (its event's stream id), or a lobby frame's making (its id), to it "
    "leaving this process.",
    ["path"],
    buckets=_LAG,
)
INTEGRITY_ALERTS = Counter(
    "roads_integrity_alerts_total",
    "Integrity alerts raised, by kind: unshuffled, repeated_shoe, impossible_cards, drift, "
    "side_bet_exposed, record_tampered.",
    ["kind"],
)
INTEGRITY_REFUSED = Counter(
    "roads_integrity_refused_total",
    "Card reports refused as impossible, by check: rules_broken (cards against the drawing "
    "rules, 422) or too_many_copies (a card dealt more often than the shoe holds it, 409).",
    ["check"],
)
ACCESS_DROPPED = Counter(
    "roads_access_log_dropped_total",
    "Access-log lines dropped because the process's queue of lines to write was full (the "
    "disk or pipe behind standard error too slow); requests never wait for the log.",
)
RECORDED = Counter("roads_record_writes_total", "Writes recorded in PostgreSQL (the record).")
RECORD_LAG = Histogram(
    "roads_record_lag_seconds",
    "From a write's commit in Redis to its record in PostgreSQL.",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
RECORD_BEHIND = Gauge(
    "roads_record_behind_seconds",
    "How old the oldest write the recorder found not yet recorded was, at its last pass (0: "
    "none); set by the process holding the recorder's lease.",
    multiprocess_mode="max",
)
CHECKPOINT_FAILURES = Counter(
    "roads_checkpoint_failures_total",
    "Signed checkpoints the recorder could not make, by cause: store (the checkpoint store "
    "cannot be read or written) or damaged (its latest checkpoint does not parse, or names the "
    "recorder's key and does not verify); the heads stay pending and are signed once it can.",
    ["cause"],
)


@functools.cache  # one child per (kind, outcome): both from fixed lists
def read_cache(kind: str, outcome: str) -> Counter:
    """The read-cache counter of one kind and outcome, found once (``labels()`` takes a lock and
    builds a key on every call, and every read counts)."""
    return READ_CACHE.labels(kind, outcome)


@functools.cache  # one entry per route, method and status seen: a bounded set
def _request_series(route: str, method: str, status: str) -> tuple[Callable, Callable]:
    return REQUESTS.labels(route, method, status).inc, LATENCY.labels(route, method).observe


def request_counted(route: str, method: str, status: str, seconds: float) -> None:
    """Count one answered request and its latency (the series are found once each)."""
    count, observe = _request_series(route, method, status)
    count()
    observe(seconds)


def lag_of(event_id: str, now: float | None = None) -> float:
    """Seconds since the event was committed: its stream id starts with Redis's clock in ms."""
    millis = int(event_id.partition("-")[0])
    return max(0.0, (time.time() if now is None else now) - millis / 1000)


class _StartedFilesCollector(_multiprocess.MultiProcessCollector):
    """Every process's metrics but those of a file still being made. A worker creates its file
    empty and only then sizes it, so a scrape between the two found a file of 0 bytes and
    failed (prometheus_client reads its header unchecked): such a file holds no sample yet."""

    def collect(self):
        started = []
        folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]  # (exposition's condition)
        for path in glob.glob(os.path.join(folder, "*.db")):
            try:
                if os.path.getsize(path) >= _HEADER_BYTES:
                    started.append(path)
            except FileNotFoundError:  # a dead worker's live gauge, removed since the glob
                continue
        return self.merge(started, accumulate=True)


_HEADER_BYTES = 8  # a metrics file's used-bytes count and its padding


def exposition() -> tuple[bytes, str]:
    """The scrape: every process's metrics in multiprocess mode, else this process's, with the
    content type of Prometheus's text format."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        _StartedFilesCollector(registry)
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE_LATEST


def process_exited(pid: int) -> None:
    """Drop a dead worker's live gauges (gunicorn's ``child_exit``); its counters stay counted."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        _multiprocess.mark_process_dead(pid)


def remove_orphaned_directories(folder: str, prefix: str) -> list[str]:
    """Remove the metrics directories ``PREFIX{pid}-*`` in ``folder`` whose master process is
    gone (it was killed before it could remove its own); the ones removed. A pid in use keeps
    its directory, whoever uses it now."""
    removed = []
    for path in Path(folder).glob(f"{prefix}*-*"):
        pid = path.name[len(prefix) :].split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(str(path))
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True
