"""The doors of one deployment, and the small supervisor that runs them (:func:`main`).

One deployment has two doors by default, each a gunicorn master with its own listener and
workers, on the one Redis:

- the **ingest door** (``ROADS_INGEST_BIND``, 127.0.0.1:8001; ``ROADS_INGEST_WORKERS``, 1): the
  game servers' writes, and their reads back, at normal CPU priority;
- the **public door** (``ROADS_BIND``, 127.0.0.1:8000; ``ROADS_WORKERS``, one a core): the lobby,
  the pictures, the live feed, at ``ROADS_NICE`` (10), so that a flood of readers waits behind
  ingest for the CPU instead of ahead of it. A write there is a 421
  (:mod:`api.http.misdirected`): the proxy in front routes writes to the ingest door
  (``deploy/nginx/doors.conf``).

Both are started by one command (``python -m api.doors``, ``baccarat-roads serve``,
``scripts/serve``): the supervisor forwards SIGTERM, SIGINT and SIGHUP to both masters and, if
one dies, stops the other and exits non-zero, so that a platform restarts the whole. Its other
shapes: ``--single`` (or ``ROADS_DOOR=both``), one door taking everything, for small deployments
and the demo (no ``REDIS_URL`` means one door: the demo's embedded Redis lives in one process and
cannot be shared by two); ``--door ingest|public`` (or ``ROADS_DOOR`` set to either), this door
alone, for orchestrators that run each door as its own container from the same image: such a
door keeps no recorder (they run ``baccarat-roads record`` as a service of its own).

What runs in which door:

- The recorder's process (``ROADS_DATABASE_URL``, :mod:`api.record.supervisor`) runs once a
  deployment: in the ingest door, next to the writes it copies, or in the single door.
- The per-worker jobs (:mod:`api.jobs`) run in the public door (and the single door), none in
  the ingest door: the GRIP publisher and the frame publisher feed the live feed's proxies, and
  the frame builder builds the frames the public door's viewers read; the drift evaluator is
  statistics over every table, off any write's path; the painters paint the pictures the public
  reads; the demo feeder stands in for the game servers, writing through the services (not
  HTTP). The leased ones do their work in one process of the deployment wherever they run, so
  none is lost, and the ingest door's CPU is left to the writes; what the ingest door reads
  (the version watch, the event hub) starts when first read there, as it does anywhere.
- Metrics: each door's master makes its own prometheus multiprocess directory (or a folder of
  the operator's ``PROMETHEUS_MULTIPROC_DIR`` named for the door), and ``/metrics`` on each door
  adds up its own workers.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from api import envvalues as values
from api import logs
from api.config import DOORS, ConfigError

log = logging.getLogger("roads.doors")

CONFIG = Path(__file__).resolve().with_name("gunicornconf.py")  # run by path: see its doc
APP = "api.wsgi:app"
PUBLIC_BIND, INGEST_BIND = "127.0.0.1:8000", "127.0.0.1:8001"
PUBLIC_NICE = 10  # the public door's workers' priority beside an ingest door
MOST_NICE = 19
STOP_SECONDS = 30  # a door's master gets this long to drain (its graceful_timeout is 10)
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STOPPING = (signal.SIGTERM, signal.SIGINT)


@dataclass(frozen=True)
class Door:
    """One door: its name (``both``, ``ingest`` or ``public``), listener, workers, nice, and
    whether it keeps the recorder's process."""

    name: str
    bind: str
    workers: int
    nice: int
    recorder: bool

    @property
    def jobs(self) -> bool:
        """Whether its workers run the per-worker jobs (every door but ingest: see above)."""
        return self.name != "ingest"

    def __str__(self) -> str:
        shown = "the single door" if self.name == "both" else f"the {self.name} door"
        workers = f"{self.workers} worker{'s' if self.workers != 1 else ''}"
        return f"{shown} on {self.bind} ({workers}, nice {self.nice})"


def embedded(env: Mapping[str, str]) -> bool:
    """No Redis URL: the demo's in-process Redis, which one process alone can use."""
    return not (env.get("REDIS_URL") or env.get("ROADS_REDIS_URL"))


def door_of(env: Mapping[str, str]) -> Door:
    """This gunicorn master's door, from ``ROADS_DOOR`` and its settings (module doc). A door
    of its own needs a Redis URL: without one, ``ingest`` or ``public`` is a ConfigError."""
    name = values.choice(env, "ROADS_DOOR", DOORS)
    if name != "both" and embedded(env):
        raise ConfigError(
            f"ROADS_DOOR={name} needs REDIS_URL: the embedded Redis of the demo lives in one "
            "process, so the demo runs one door (ROADS_DOOR=both)"
        )
    if name == "ingest":
        bind = env.get("ROADS_INGEST_BIND", "").strip() or INGEST_BIND
        workers, nice = values.number(env, "ROADS_INGEST_WORKERS", 1, int), 0
    else:
        bind = env.get("ROADS_BIND", "").strip() or PUBLIC_BIND
        workers = values.number(env, "ROADS_WORKERS", os.cpu_count() or 1, int)
        nice = values.count(env, "ROADS_NICE", default=PUBLIC_NICE if name == "public" else 0)
        if nice > MOST_NICE:
            raise ConfigError(f"ROADS_NICE must be 0 to {MOST_NICE}, not {nice}")
    if embedded(env):
        workers = 1
    recorder = name != "public" and values.flag(env, "ROADS_RECORDER", default=True)
    return Door(name, bind, workers, nice, recorder)


def planned(single: bool, door: str | None, env: Mapping[str, str]) -> list[dict[str, str]]:
    """The environment of each gunicorn master to start: ``--single``, ``--door`` or, with
    neither, ``ROADS_DOOR`` from ``env``; unset, two doors (one without a Redis URL, said in
    the log). Each door's settings are checked now (ConfigError), before anything starts."""
    chosen = "both" if single else door or env.get("ROADS_DOOR", "").strip() or None
    if chosen is None and embedded(env):
        log.warning("no REDIS_URL: one door takes everything (the embedded Redis is one process's)")
        chosen = "both"
    names = ["ingest", "public"] if chosen is None else [chosen]
    own = {name: value for name, value in env.items() if name != "ROADS_METRICS_MADE"}
    plans = []
    for name in names:
        each = {**own, "ROADS_DOOR": name}
        if chosen in ("ingest", "public"):
            each["ROADS_RECORDER"] = "0"  # a door of its own: the record runs as its own service
        if env.get("PROMETHEUS_MULTIPROC_DIR") and chosen is None:
            each["PROMETHEUS_MULTIPROC_DIR"] = os.path.join(env["PROMETHEUS_MULTIPROC_DIR"], name)
        door_of(each)
        plans.append(each)
    binds = [door_of(each).bind for each in plans]
    if len(set(binds)) != len(binds):
        raise ConfigError("ROADS_BIND and ROADS_INGEST_BIND must differ: each door listens apart")
    return plans


def _dies_with_parent() -> None:
    """In a door's master before it runs: SIGTERM when the supervisor dies, even by SIGKILL, so
    no door outlives it holding its port (Linux's PR_SET_PDEATHSIG; elsewhere, nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


class Supervisor:
    """The gunicorn masters of the planned doors: :meth:`run` starts them and returns when all
    have ended, with 0 when a signal stopped them and each exited 0, else non-zero."""

    def __init__(self, plans: list[dict[str, str]], app: str = APP) -> None:
        self.plans = plans
        self.app = app
        self.masters: dict[str, subprocess.Popen] = {}
        self.stopping = False

    def forward(self, signum: int, _frame: object = None) -> None:
        """A signal to the supervisor goes to every door's master (SIGHUP reloads each)."""
        if signum in STOPPING:
            self.stopping = True
        for master in self.masters.values():
            if master.poll() is None:
                master.send_signal(signum)

    def start(self) -> None:
        for each in self.plans:
            if self.stopping:  # a signal came meanwhile: start no more
                break
            door = door_of(each)
            if each.get("PROMETHEUS_MULTIPROC_DIR"):
                os.makedirs(each["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
            self.masters[door.name] = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(CONFIG), self.app],
                env=each,
                preexec_fn=_dies_with_parent,
            )
            log.info("starting %s", door)

    def run(self) -> int:
        before = {signum: signal.signal(signum, self.forward) for signum in FORWARDED}
        try:
            self.start()
            ended = self._first_to_end()
            if self.stopping:
                codes = [self._stopped(master) for master in self.masters.values()]
                return 0 if all(code == 0 for code in codes) else 1
            name, code = ended
            shown = "single" if name == "both" else name
            log.error("the %s door exited (code %s): stopping any other", shown, code)
            self.stopping = True
            for master in self.masters.values():
                if master.poll() is None:
                    master.terminate()
            for master in self.masters.values():
                self._stopped(master)
            return code if code > 0 else 1  # killed by a signal: negative in Popen
        finally:
            for signum, handler in before.items():
                signal.signal(signum, handler)

    def _first_to_end(self) -> tuple[str, int]:
        """Wait until a door's master ends (or a signal stops them all)."""
        while True:
            for name, master in self.masters.items():
                code = master.poll()
                if code is not None:
                    return name, code
            if self.stopping:
                return "", 0
            time.sleep(0.2)

    @staticmethod
    def _stopped(master: subprocess.Popen) -> int:
        """Its exit code, once it ended (killed past STOP_SECONDS)."""
        try:
            return master.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            master.kill()
            return master.wait()


def main(argv: list[str] | None = None) -> int:
    """Run this deployment's doors (module doc); the exit code."""
    parser = argparse.ArgumentParser(
        prog="baccarat-roads serve", description="Run the roads service's doors."
    )
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--single", action="store_true", help="one door taking everything")
    shape.add_argument("--door", choices=("ingest", "public"), help="this door alone")
    parser.add_argument("--app", default=APP, help=f"the WSGI app (default {APP})")
    args = parser.parse_args(argv)
    logs.configure()
    try:
        plans = planned(args.single, args.door, os.environ)
    except ConfigError as error:
        print(f"roads: cannot start: {error}", file=sys.stderr)
        return 2
    return Supervisor(plans, args.app).run()


if __name__ == "__main__":
    sys.exit(main())
