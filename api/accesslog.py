"""The access log, off the request path: a request leaves its line's fields in a bounded queue
(an append, under a microsecond), and one writer per process encodes them with orjson and writes
them in batches, every :data:`INTERVAL` seconds or when :meth:`AccessLog.close` drains them.

- **The same lines.** Each is the JSON object :class:`api.logs.JsonFormatter` writes for the
  ``roads.access`` logger (``time``, ``level``, ``logger``, ``message``, ``request_id``, then
  the fields), one a line, in the order the requests ended in this process.
- **Never blocking a request.** The queue holds :data:`CAPACITY` lines; past it a line is
  dropped and counted (``roads_access_log_dropped_total``), so a slow disk or a stuck pipe costs
  lines, not requests.
- **Whole lines.** A batch is written in pieces of at most :data:`PIPE_BUF` bytes, each ending at
  a line's end: writes to a pipe that small are atomic, so the workers' lines never interleave
  mid-line on the standard error they share.
- **Nothing lost at a clean stop.** The gunicorn worker drains it on exit (``worker_exit``), and
  so does ``atexit`` elsewhere; a forked child starts with an empty queue of its own.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import threading
import time
from collections import deque
from typing import Any, BinaryIO

import orjson

from api.logs import timestamp
from api.metrics import ACCESS_DROPPED

CAPACITY = 50_000  # lines waiting, about 15 MB at most
INTERVAL = 0.05  # seconds between the writer's batches
PIPE_BUF = 4096  # the bytes a pipe writes atomically (POSIX's least; Linux's too)


class AccessLog:
    """The bounded queue of a process's access-log lines and its one writer (see the module
    doc). ``stream``: where lines go (standard error's bytes by default)."""

    def __init__(self, stream: BinaryIO | None = None, capacity: int = CAPACITY) -> None:
        self.stream = stream
        self.capacity = capacity
        self._lines: deque[tuple[float, dict[str, Any]]] = deque()
        self._writing = threading.Lock()  # one writer at a time: the thread, or a drain
        self._started = False
        self._closed = False

    def write(self, fields: dict[str, Any]) -> None:
        """Queue a request's line (its fields, ``method``, ``route`` and ``status`` among them):
        never blocks; a full queue drops it and counts the drop."""
        if len(self._lines) >= self.capacity:
            ACCESS_DROPPED.inc()
            return
        self._lines.append((time.time(), fields))
        if not self._started:
            self._start()

    def flush(self) -> None:
        """Write every line queued now."""
        with self._writing:
            self._write_batch()

    def close(self) -> None:
        """Stop the writer and write what is left (the worker's exit, a SIGTERM's drain)."""
        self._closed = True
        self.flush()

    def _start(self) -> None:
        self._started = True
        threading.Thread(target=self._run, name="access-log", daemon=True).start()

    def _run(self) -> None:
        while not self._closed:
            time.sleep(INTERVAL)
            # standard error gone (a closed pipe): the lines cannot be written anywhere
            with contextlib.suppress(OSError):
                self.flush()

    def _write_batch(self) -> None:
        lines = self._lines
        piece: list[bytes] = []
        size = 0
        while lines:
            created, fields = lines.popleft()
            line = encode(created, fields)
            if size + len(line) > PIPE_BUF and piece:
                self._emit(b"".join(piece))
                piece, size = [], 0
            piece.append(line)
            size += len(line)
        if piece:
            self._emit(b"".join(piece))

    def _emit(self, data: bytes) -> None:
        stream = self.stream
        if stream is not None:
            stream.write(data)
            stream.flush()
            return
        descriptor = sys.stderr.fileno()
        while data:  # a write may take less than it was given (a line over PIPE_BUF)
            data = data[os.write(descriptor, data) :]

    def forked(self) -> None:
        """After a fork, in the child (a gunicorn worker): no lines and no writer of its own."""
        self._lines = deque()
        self._writing = threading.Lock()
        self._started = False
        self._closed = False


def encode(created: float, fields: dict[str, Any]) -> bytes:
    """A queued line as :class:`api.logs.JsonFormatter` writes it, with its newline."""
    line = {
        "time": timestamp(created),
        "level": "info",
        "logger": "roads.access",
        "message": f"{fields['method']} {fields['route']} {fields['status']}",
        "request_id": fields.get("request_id"),
        **fields,
    }
    try:
        return orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE)
    except orjson.JSONEncodeError:  # text no UTF-8 can carry (a lone surrogate): escaped
        return json.dumps(line, default=str).encode() + b"\n"


_process_log: AccessLog | None = None


def process_log() -> AccessLog:
    """This process's access log on standard error: made once, drained at exit, and empty
    again in a forked child."""
    global _process_log
    if _process_log is None:
        _process_log = made = AccessLog()
        os.register_at_fork(after_in_child=made.forked)
        atexit.register(made.close)
    return _process_log
