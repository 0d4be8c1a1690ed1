"""Logs as one JSON object a line, for every logger of the process (the service's, gunicorn's).

Each line has ``time`` (UTC, ISO 8601 with ms), ``level``, ``logger`` and ``message``, the
``request_id`` of the request being served when there is one (:data:`REQUEST_ID`, set by
:mod:`api.http.traffic` for the request's greenlet or thread), any fields passed as
``extra={"fields": {...}}`` (the access log's), and ``error`` with the traceback of an exception.

No line carries an address, a user or a password (docs/security.md): a store's client (redis-py,
psycopg) puts the server's host, port and user in its errors' text, so the traceback of every
line, and the message of every warning and error, is :func:`scrubbed` first. The exception's
class stays: a line says *what* failed (``psycopg.OperationalError: connection to server at
***, port *** failed: Connection refused``), not where.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from contextvars import ContextVar
from typing import Any

from api.redaction import redact_url

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)

# The text of the last second a line was written in: every access-log line needs a timestamp,
# and the date and time change once a second.
_second: tuple[int, str] = (-1, "")


def timestamp(created: float) -> str:
    """``created`` (seconds since the epoch) as ISO 8601 in UTC with milliseconds."""
    global _second
    second = int(created)
    known, text = _second
    if known != second:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _second = (second, text)
    return f"{text}.{int((created - second) * 1000):03d}+00:00"


# What the stores' clients put in an error's text, and what each becomes (after the passwords of
# URLs, :func:`api.config.redact_url`). psycopg: ``connection to server at "10.0.0.5", port
# 5432 failed``, ``on socket "/run/postgresql/.s.PGSQL.5432"``, ``for user "roads"``, a conninfo's
# ``host=... user=...``; redis-py: ``Error 111 connecting to 10.0.0.5:6379``.
ADDRESSES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"://[^\s/@]*@"), "://***@"),  # a URL's user (its password is masked already)
    (
        re.compile(r"\b(host|hostaddr|port|user|password|dbname|service)\s*=\s*('[^']*'|\S+)"),
        r"\1=***",
    ),
    (re.compile(r'\b(at|socket|user|role|database)\s+"[^"]*"'), r'\1 "***"'),
    (re.compile(r"\bport \d+"), "port ***"),
    (re.compile(r"\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\](:\d+)?"), "***"),  # [IPv6]:port
    (re.compile(r"\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b"), "***"),  # IPv4:port
    (re.compile(r"\b(?=[\w.-]*[A-Za-z])[\w-]+(\.[\w-]+)*:\d{2,5}\b"), "***"),  # host:port
)


def scrubbed(text: str) -> str:
    """``text`` with every password, address, port and database user in it replaced by
    ``***`` (what an error of redis-py or psycopg says about where it failed)."""
    text = redact_url(text)
    for pattern, replacement in ADDRESSES:
        text = pattern.sub(replacement, text)
    return text


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line (a warning's or an error's message and every traceback
    :func:`scrubbed`)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, Any] = {
            "time": timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrubbed(message) if record.levelno >= logging.WARNING else message,
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["error"] = scrubbed(self.formatException(record.exc_info))
        return json.dumps(line, default=str, ensure_ascii=False)


def json_handler(stream: Any = None) -> logging.Handler:
    """A handler writing JSON lines to ``stream`` (standard error by default)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    return handler


def lean_records() -> None:
    """Stop collecting what no line shows: the caller's file and line, the thread and process
    names (the logging HOWTO's "Optimization"). Every request writes an access-log line, and
    under gevent the thread's name is looked up per greenlet."""
    logging._srcfile = None  # the documented switch for the caller's frame
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


def configure(level: int = logging.INFO) -> None:
    """JSON lines on standard error for the service's loggers (``roads``, ``roads.access``),
    unless something (gunicorn's ``logconfig_dict``, a test) set them up already."""
    lean_records()
    logger = logging.getLogger("roads")
    if logger.handlers:
        return
    logger.addHandler(json_handler())
    logger.setLevel(level)
    logger.propagate = False


def gunicorn_logging() -> dict[str, Any]:
    """gunicorn's ``logconfig_dict``: its own loggers and the service's in the same JSON."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    quiet = {"level": "INFO", "handlers": ["stderr"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": handler},
        "root": {"level": "WARNING", "handlers": ["stderr"]},
        "loggers": {"gunicorn.error": quiet, "gunicorn.access": quiet, "roads": quiet},
    }
