"""What one lobby page costs, in the browser and on the service: a real Chromium on the lobby page
of a service (2 gunicorn workers) whose ``--tables`` tables are dealt ``--rate`` rounds a second.

First the dealing alone for ``--seconds`` (the service's CPU with one plain frames viewer, which
starts the frame builder), then with the page open (after it drew every tile) for as long, then
alone again (the dealing costs more as shoes grow), then with ``--crowd`` plain frames viewers
instead (what one costs the service, above the noise: a page that asks for nothing else costs
what they do).
Printed: the page's requests a second (the event stream apart), the bytes a second it received
(the stream included), the frames it got, the browser's main-thread time per frame (Chrome's
TaskDuration; and the long tasks, over 50 ms), the service's CPU without and with the page, and
the viewers a 2-core box would hold at that CPU each (what the dealing leaves, shared out).

``--root DIR`` runs the service (and so the page) of another checkout: the page before it drew
its roads itself, for the same figures in the same way. ``--statuses``: each round's table also
reports its status, betting for 15 s (the tile's countdown, issue 47), as a studio does.

    .venv/bin/python benchmarks/page_bench.py                     # this checkout
    git worktree add /tmp/before f4e05ef
    .venv/bin/python benchmarks/page_bench.py --root /tmp/before  # the page of PNGs
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import serving
from benchmarks.feed_bench import KEY, Dealer
from benchmarks.sse_load import Load
from benchmarks.usage import Usage
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.redis_server import free_port
from tests.sse_client import SSEClient

CORES = 2
TARGET_KB_PER_S = 6.0  # what a lobby viewer may receive (the issue of roads drawn in the browser)
LONG_TASKS = """
  window.longTasks = { count: 0, ms: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.longTasks.count += 1;
      window.longTasks.ms += entry.duration;
    }
  }).observe({ type: "longtask", buffered: true });
"""


class Dealing(threading.Thread):
    """The dealer, ``rate`` rounds a second, until stopped."""

    def __init__(self, dealer: Dealer, rate: float) -> None:
        super().__init__(daemon=True)
        self.dealer, self.rate = dealer, rate
        self.stopped = threading.Event()

    def run(self) -> None:
        start, n = time.monotonic(), 0
        while not self.stopped.is_set():
            time.sleep(max(0.0, start + n / self.rate - time.monotonic()))
            self.dealer.deal(self.dealer.tables[n % len(self.dealer.tables)])
            n += 1


class StatusDealer(Dealer):
    """A dealer whose every round is followed by its table's status: betting for 15 s."""

    def deal(self, table: str) -> None:
        super().deal(table)
        until = datetime.now(UTC) + timedelta(seconds=15)
        body = {"status": "betting", "until": until.isoformat(timespec="milliseconds")}
        serving.post(self.base, f"/v1/tables/{table}/status", body, KEY, method="PUT")


class PageWatch:
    """What the page asks for and receives, through Chrome's DevTools protocol."""

    def __init__(self, page) -> None:
        self.session = page.context.new_cdp_session(page)
        self.session.send("Network.enable")
        self.session.send("Performance.enable")
        self.requests: list[str] = []
        self.bytes = 0
        self.messages = 0
        self.counting = False
        self.session.on("Network.requestWillBeSent", self._request)
        self.session.on("Network.dataReceived", self._data)
        self.session.on("Network.eventSourceMessageReceived", self._message)

    def _request(self, event) -> None:
        if self.counting:
            self.requests.append(event["request"]["url"])

    def _data(self, event) -> None:
        if self.counting:
            self.bytes += event.get("encodedDataLength") or event["dataLength"]

    def _message(self, event) -> None:
        if self.counting and event["eventName"] in ("frame", "round"):
            self.messages += 1

    def metrics(self) -> dict[str, float]:
        """Chrome's main-thread seconds so far: all tasks, and scripts, style, layout."""
        metrics = self.session.send("Performance.getMetrics")["metrics"]
        kept = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")
        return {m["name"]: m["value"] for m in metrics if m["name"] in kept}


def service_pids(base) -> list[int]:
    return [base.process.pid, *base.workers()]


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def watch_page(base: str, tables: int, pids: list[int], seconds: float) -> dict:
    """The page opened on ``base`` (once it drew every tile), watched for ``seconds``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.add_init_script(LONG_TASKS)
        watch = PageWatch(page)
        page.goto(base + "/")
        # (A locator, not wait_for_function: the page's policy refuses the eval that needs.)
        page.locator("#tiles .tile").nth(tables - 1).wait_for(state="attached", timeout=60_000)
        # Playwright hands the page's events over only while it is called: wait in it.
        page.wait_for_timeout(5000)  # the first pictures painted, the stream settled
        page.evaluate("window.longTasks = { count: 0, ms: 0 }")
        before = watch.metrics()
        usage = Usage(pids)
        watch.counting = True
        page.wait_for_timeout(seconds * 1000)
        watch.counting = False
        cpu = usage.used() / seconds
        after = watch.metrics()
        long_tasks = page.evaluate("window.longTasks")
        browser.close()
    return {
        "cpu": cpu,
        "spent": {name: after[name] - before[name] for name in before},
        "long_tasks": long_tasks,
        "watch": watch,
    }


def run(args) -> dict:
    tables = [f"lobby-{n:03d}" for n in range(args.tables)]
    root = Path(args.root).resolve() if args.root else serving.ROOT
    with serving.redis_server() as redis:
        env = {"REDIS_URL": redis.url, "ROADS_INGEST_KEYS": KEY, "ROADS_WORKERS": "2"}
        env["ROADS_WORKER_CONNECTIONS"] = str(args.crowd + 1000)
        with serving.gunicorn("wsgi:app", env, port=free_port(), root=root) as base:
            dealer = (StatusDealer if args.statuses else Dealer)(base, tables)
            for table in tables:
                dealer.deal(table)
            dealing = Dealing(dealer, args.rate)
            dealing.start()
            # A viewer of the lobby's frames in both phases: the frame builder starts with the
            # first (a cost of the lobby, not of a viewer), and the page's share is what it adds.
            watcher = SSEClient(base + "/v1/events")
            time.sleep(3)
            pids = service_pids(base)
            alone, redis_alone = Usage(pids), Usage([redis.process.pid])
            time.sleep(args.seconds)
            cpu_alone = alone.used() / args.seconds
            redis_cpu = redis_alone.used() / args.seconds
            page_run = watch_page(base, len(tables), pids, args.seconds)
            # The dealing costs more as the shoes grow: measured again after the page, and the
            # page held to the mean of the two.
            again = Usage(pids)
            time.sleep(args.seconds)
            cpu_again = again.used() / args.seconds
            with Load(port_of(base), "/v1/events", args.crowd, processes=2, frames=True):
                time.sleep(5)  # every viewer connected and past its whole lobby
                crowd = Usage(pids)
                time.sleep(args.seconds)
                cpu_crowd = crowd.used() / args.seconds
            dealing.stopped.set()
            dealing.join()
            watcher.close()
    watch, spent, long_tasks = page_run["watch"], page_run["spent"], page_run["long_tasks"]
    task_seconds = spent["TaskDuration"]
    cpu_page = page_run["cpu"]
    # What the page asked the service for (a picture shown from a blob is no request).
    asked = [url for url in watch.requests if url.startswith("http")]
    others = [url for url in asked if "/v1/events" not in url]
    # A page that asks for nothing but the stream costs the service what a plain frames viewer
    # does (one page's own share is then lost in the noise of the dealing: +-1% of a core here);
    # a page that asks for more costs what it measured, at least that.
    plain = (cpu_crowd - cpu_again) / max(args.crowd, 1)
    page_own = cpu_page - (cpu_alone + cpu_again) / 2
    per_viewer = max(page_own, plain, 1e-9) if others else max(plain, 1e-9)
    return {
        "requests_per_s": len(others) / args.seconds,
        "pictures_per_s": sum(".png" in url for url in others) / args.seconds,
        "lobby_reads_per_s": sum("/v1/tables?" in url for url in others) / args.seconds,
        "kb_per_s": watch.bytes / 1024 / args.seconds,
        "messages": watch.messages,
        "task_ms_per_s": 1000 * task_seconds / args.seconds,
        "task_ms_per_message": 1000 * task_seconds / max(watch.messages, 1),
        "script_ms_per_s": 1000 * spent["ScriptDuration"] / args.seconds,
        "style_layout_ms_per_s": 1000
        * (spent["RecalcStyleDuration"] + spent["LayoutDuration"])
        / args.seconds,
        "long_tasks": long_tasks["count"],
        "long_task_ms": long_tasks["ms"],
        "cpu_alone": cpu_alone,
        "cpu_again": cpu_again,
        "cpu_crowd": cpu_crowd,
        "cpu_page": cpu_page,
        "plain_viewer": plain,
        "page_own": page_own,
        "redis_cpu": redis_cpu,
        "per_viewer": per_viewer,
        "viewers_per_box": (CORES - cpu_alone - redis_cpu) / per_viewer,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--root", help="the checkout whose service and page to run")
    parser.add_argument(
        "--statuses", action="store_true", help="each round's table reports its status too"
    )
    parser.add_argument(
        "--crowd", type=int, default=1000, help="plain frames viewers, for a viewer's CPU"
    )
    args = parser.parse_args()
    found = run(args)
    print(
        f"{args.root or 'this checkout'}: {args.tables} tables, {args.rate:g} rounds/s"
        f"{' (each with its table status)' if args.statuses else ''}, "
        f"{args.seconds:g} s with the page open"
    )
    print(
        f"  page: {found['requests_per_s']:.2f} requests/s besides the event stream "
        f"({found['pictures_per_s']:.2f} pictures, {found['lobby_reads_per_s']:.2f} lobby "
        f"reads), {found['kb_per_s']:.1f} KB/s received, {found['messages']} frames/events"
    )
    met = found["requests_per_s"] == 0 and found["kb_per_s"] <= TARGET_KB_PER_S
    print(
        f"  target: no request besides the stream, <= {TARGET_KB_PER_S:g} KB/s: "
        f"{'met' if met else 'MISSED'}"
    )
    print(
        f"  browser main thread: {found['task_ms_per_s']:.1f} ms/s, "
        f"{found['task_ms_per_message']:.2f} ms a frame (scripts {found['script_ms_per_s']:.1f} "
        f"ms/s, style and layout {found['style_layout_ms_per_s']:.1f} ms/s); long tasks: "
        f"{found['long_tasks']} "
        f"({found['long_task_ms']:.0f} ms)"
    )
    print(
        f"  service CPU (of one core): {found['cpu_alone'] * 100:.1f}% dealing (redis "
        f"{found['redis_cpu'] * 100:.1f}%), {found['cpu_page'] * 100:.1f}% with the page "
        f"({found['page_own'] * 100:+.2f}%), {found['cpu_again'] * 100:.1f}% dealing again, "
        f"{found['cpu_crowd'] * 100:.1f}% with "
        f"{args.crowd:,} plain frames viewers instead ({found['plain_viewer'] * 100:.4f}% each)"
    )
    print(
        f"  a viewer of this page costs the service {found['per_viewer'] * 100:.4f}% of a core: "
        f"about {found['viewers_per_box']:,.0f} viewers on a {CORES}-core box"
    )


if __name__ == "__main__":
    main()
