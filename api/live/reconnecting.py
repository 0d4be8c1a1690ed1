"""What each process's long-lived Redis readers (the version watch, the event hub) share: one
background thread per process, and its loop: connect, serve until the connection fails, clean
up, wait a moment, connect again."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from api.storage.clients import after_fork

log = logging.getLogger("roads.reconnecting")

Connection = TypeVar("Connection")


def keep_serving(
    connect: Callable[[], Connection],
    serve: Callable[[Connection], Any],
    *,
    stop: threading.Event,
    retry_seconds: float,
    name: str,
    on_lost: Callable[[], None] | None = None,
) -> None:
    """Until ``stop`` is set: ``serve(connect())``; when either fails (Redis away, restarted,
    failing over), call ``on_lost``, close the connection and try again after ``retry_seconds``.
    """
    while not stop.is_set():
        connection = None
        try:
            connection = connect()
            serve(connection)
        except Exception:  # any failure: the next connection starts afresh
            log.debug("%s lost Redis", name, exc_info=True)
        finally:
            if on_lost is not None:
                on_lost()
            if connection is not None:
                with contextlib.suppress(Exception):  # a broken connection may not close
                    connection.close()
        stop.wait(retry_seconds)


class ProcessThread:
    """A daemon thread running ``target``, started on first use in each process: again in a
    child forked from a process that had it (threads do not survive a fork; gunicorn forks its
    workers from a master that may have used it)."""

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
