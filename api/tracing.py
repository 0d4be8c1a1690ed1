"""Tracing (OpenTelemetry), opt-in: on when ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set, off and free otherwise.

Off, nothing imports opentelemetry and nothing is wrapped: :func:`install` returns at the one
branch, once, as the app is built, and a request pays nothing. On, :func:`install` (from
:func:`api.create_app`) puts the spans of
:mod:`api.spans` at the service's own seams, by hand rather than by an instrumentation package's
monkey-patching, so each span is exactly one of the service's own steps:

- each request: a server span named for its method and route template, child of the caller's
  span when the request carries a W3C ``traceparent`` (the WSGI app wrapped, outermost);
- each Redis round trip inside a span (a command, a pipeline, a script call): the transport's
  hook (:attr:`api.storage.transport.Transport.hook`);
- each transaction of the record (PostgreSQL): the database's seam
  (:attr:`api.record.database.Database.around`).

The exporter's batch thread cannot be made where the app is built: gunicorn's master preloads
the app and its workers fork from it, and a thread does not survive a fork. :data:`PROCESS`
makes the provider in each process that serves, at its first request (the master serves none),
and again in a process forked after that; the recorder's own process makes its own
(:func:`install_recorder`). Not as one of :mod:`api.jobs`: an ingest door's workers run no jobs,
and their requests are the ones most worth a trace.

Set, but without the packages (``pip install 'baccarat-roads[otel]'``): the start fails with a
:class:`api.config.ConfigError` that says so; tracing never silently stays off when asked for.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from api.config import ConfigError

if TYPE_CHECKING:  # the types only: nothing of these is imported at run time from here
    from api.record.database import Database
    from api.storage.transport import Transport

ENDPOINTS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
PACKAGES = ("opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http")
MISSING = (
    "{name} is set, so traces are to be exported, but the tracing packages are not installed:"
    " pip install 'baccarat-roads[otel]' (or unset {name})"
)


def wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether tracing is asked for: an OTLP endpoint for traces is set."""
    environ = os.environ if environ is None else environ
    return any(environ.get(name) for name in ENDPOINTS)


def require() -> None:
    """Raise :class:`ConfigError` when the tracing packages are missing (tracing is wanted)."""
    name = next(name for name in ENDPOINTS if os.environ.get(name))
    try:
        found = all(find_spec(package) is not None for package in PACKAGES)
    except ModuleNotFoundError:  # a parent package missing
        found = False
    if not found:
        raise ConfigError(MISSING.format(name=name))


class ProcessTracing:
    """This process's tracer provider (its OTLP exporter and batch thread), made once per
    process, in the process that exports (see the module doc)."""

    def __init__(self) -> None:
        self._made = False
        self._lock = threading.Lock()
        os.register_at_fork(after_in_child=self._forked)

    def _forked(self) -> None:
        self._made = False  # the parent's batch thread did not come along

    def start(self) -> None:
        """Make the provider, unless it is made in this process already."""
        if self._made:
            return
        with self._lock:
            if not self._made:
                from api import spans

                spans.start_provider()
                self._made = True


PROCESS = ProcessTracing()


def install(app: Any, services: Any) -> None:
    """When tracing is wanted: trace ``app``'s requests and ``services``' Redis and PostgreSQL
    (see the module doc); the provider is made later, by :data:`PROCESS`, in each process that
    serves."""
    if not wanted():
        return
    require()
    from api import spans

    app.wsgi_app = spans.TracedRequests(app.wsgi_app, first=PROCESS.start)
    _trace_seams(services.transport, services.record.database if services.record else None)


def install_recorder(transport: Transport, database: Database) -> None:
    """When tracing is wanted, in the recorder's own process (which forks no more): its Redis
    and PostgreSQL traced, and its provider made now."""
    if not wanted():
        return
    require()
    _trace_seams(transport, database)
    PROCESS.start()


def _trace_seams(transport: Transport, database: Database | None) -> None:
    from api import spans

    transport.hook = spans.redis_round_trip
    if database is not None:
        database.around = spans.postgres_transaction
