"""The recorder's process beside gunicorn's workers (``python -m api.record.run``), started again
after it dies and stopped with the master.

A recorder that dies at once again and again (it refuses to start: a signing key that cannot be
read, exit 2) is started again after 1, 2, 4 ... up to 60 seconds, not every second, so that its
refusal is not logged sixty times a minute; one that ran for a minute is started again after a
second, as before.

It lives here, not in ``gunicorn.conf.py``, because gunicorn executes its config file again on
SIGHUP (the way keys are rotated): an object made there would be made anew, and the master's
``on_exit`` would stop the new, never-started one while the first went on running. A module is
imported once per process, so :func:`recorder_process` is the same object before and after a
reload.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time

FIRST_WAIT, LONGEST_WAIT = 1.0, 60.0
# A recorder that ran this long before it died was running: the next one waits FIRST_WAIT.
SETTLED_SECONDS = 60.0


def next_wait(wait: float, ran_seconds: float) -> float:
    """How long to wait before starting the recorder again, after one that ran ``ran_seconds``
    and a previous wait of ``wait``: doubled while it keeps dying at once, up to the longest."""
    if ran_seconds >= SETTLED_SECONDS:
        return FIRST_WAIT
    return min(LONGEST_WAIT, wait * 2)


class RecorderProcess:
    """The one recorder process of a gunicorn master: :meth:`start` once, :meth:`stop` at exit."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.stopping = False
        self.started = False

    def start(self) -> None:
        """Start keeping the recorder running (once: a second call does nothing)."""
        if self.started:
            return
        self.started = True
        threading.Thread(target=self._keep, name="recorder-process", daemon=True).start()

    def _keep(self) -> None:
        wait = FIRST_WAIT / 2
        while not self.stopping:
            started = time.monotonic()
            self.process = subprocess.Popen([sys.executable, "-m", "api.record.run"])
            self.process.wait()
            wait = next_wait(wait, time.monotonic() - started)
            time.sleep(wait)

    def stop(self) -> None:
        """Stop the recorder (SIGTERM: it signs what is pending and releases its lease)."""
        self.stopping = True
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # it holds nothing that a kill loses
                self.process.kill()


_PROCESS = RecorderProcess()


def recorder_process() -> RecorderProcess:
    """This process's recorder supervisor (the same one across gunicorn's config reloads)."""
    return _PROCESS
