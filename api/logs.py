"""Logs as one JSON object a line, for every logger of the process (the service's, gunicorn's).

Each line has ``time`` (UTC, ISO 8601 with ms), ``level``, ``logger`` and ``message``, the
``request_id`` of the request being served when there is one (:data:`REQUEST_ID`, set by
:mod:`api.http.traffic` for the request's greenlet or thread), any fields passed as
``extra={"fields": {...}}`` (the access log's), and ``error`` with the traceback of an exception.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            line["request_id"] = request_id
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def json_handler(stream: Any = None) -> logging.Handler:
    """A handler writing JSON lines to ``stream`` (standard error by default)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    return handler


def configure(level: int = logging.INFO) -> None:
    """JSON lines on standard error for the service's loggers (``roads``, ``roads.access``),
    unless something (gunicorn's ``logconfig_dict``, a test) set them up already."""
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
