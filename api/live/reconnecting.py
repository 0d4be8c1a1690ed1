"""The loop each process's long-lived Redis readers (the version watch, the event hub, the frame
feed, the GRIP publisher) run in their thread: connect, serve until the connection fails, clean
up, wait a moment, connect again."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

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
