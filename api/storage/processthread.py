"""A background thread per process: started on first use, and again in a child forked from a
process that had one (threads do not survive a fork; gunicorn forks its workers from a master
that preloaded the app). The thread of each live reader (:mod:`api.live`) and of each lease's
candidate (:mod:`.leases`); the fork is noticed the way a client's is (:func:`.clients.after_fork`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from api.storage.clients import after_fork


class ProcessThread:
    """A daemon thread running ``target``, started once per process by :meth:`ensure_running`."""

    def __init__(self, target: Callable[[], None], name: str) -> None:
        self._target = target
        self._name = name
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        after_fork(self, ProcessThread._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._thread = None

    def ensure_running(self, on_start: Callable[[], None]) -> None:
        """Start the thread in this process unless it was started already; ``on_start`` first
        resets what an earlier process's thread left behind."""
        if self._thread is not None:
            return
        with self._lock:
            if self._thread is not None:
                return
            on_start()
            thread = threading.Thread(target=self._target, name=self._name, daemon=True)
            thread.start()
            self._thread = thread

    def running(self) -> bool:
        """Whether this process's thread is running."""
        return self._thread is not None and self._thread.is_alive()
