"""Keeps podman's network changes and the browser tests apart, across the test processes.

Podman adds and removes network interfaces as it runs containers (a veth for each, a bridge for
a network; a build's ``RUN`` steps too). Chromium watches the host's interfaces and, a moment
after one comes or goes, fails the requests it has in flight with ``net::ERR_NETWORK_CHANGED``:
a lobby page whose modules were loading then never starts. That was the "no tiles within 45 s"
seen in full runs, while the other worker ran the image or the compose stack (reproduced by
running those modules beside tests/system/test_lobby_controls.py: 3 failures in 6 runs, each
page's log naming ``ERR_NETWORK_CHANGED``).

So a podman command that may change interfaces runs under an exclusive lock, held a while after
it (:data:`SETTLE`: Chromium reacts up to 2 s late), and each test that drives the browser runs
under a shared one (:func:`browsing`). Writers go first: a podman command waiting for the lock
holds the turnstile, so no new browser test starts before it ran (``flock`` alone would let a
run of browser tests keep it waiting). The locks are files in the temporary directory: every
test process of the machine shares them, as they share its interfaces.
"""

from __future__ import annotations

import contextlib
import fcntl
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

FOLDER = Path(tempfile.gettempdir())
TURNSTILE = FOLDER / "roads-tests-network.turnstile"
HELD = FOLDER / "roads-tests-network.lock"
SETTLE = 2.5  # seconds the exclusive lock is kept after a change: Chromium's notice comes late
#: podman's commands that add or remove a container's interfaces when it is on a bridge (the
#: compose stack's containers are; the image tests' run on the host's network).
CHANGING = frozenset(
    {"create", "kill", "network", "pod", "restart", "rm", "run", "start", "stop", "wait"}
)


@contextlib.contextmanager
def _flock(path: Path, mode: int) -> Iterator[None]:
    with path.open("a") as held:
        fcntl.flock(held, mode)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@contextlib.contextmanager
def changing(settle: bool) -> Iterator[None]:
    """Run a podman (or podman-compose) command alone among the browser tests: under the
    exclusive lock, kept :data:`SETTLE` seconds after it when it may have changed interfaces
    (``settle``); a command that changes none (an inspect, a health check) only waits for the
    browser test under way."""
    with contextlib.ExitStack() as held:
        with _flock(TURNSTILE, fcntl.LOCK_EX):  # held while waiting: no new browser test starts
            held.enter_context(_flock(HELD, fcntl.LOCK_EX))
        yield
        if settle:
            time.sleep(SETTLE)


@contextlib.contextmanager
def browsing() -> Iterator[None]:
    """A browser test's time: no podman command changes interfaces meanwhile."""
    with _flock(TURNSTILE, fcntl.LOCK_EX):
        pass  # a podman command waiting for the lock goes first
    with _flock(HELD, fcntl.LOCK_SH):
        yield
