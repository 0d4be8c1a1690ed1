"""The spans of tracing (OpenTelemetry), made at the service's seams once :mod:`api.tracing`
turned tracing on; this module is imported then and only then (it imports opentelemetry).

What a span holds, and what it never does:

- a request (:class:`TracedRequests`): a server span named ``METHOD /route/{template}`` (the
  method alone when no route matched), with the method, scheme, path, route and status; never
  the query string (an event stream's ``?key=`` is there) nor any header but ``traceparent``
  (and ``tracestate``), which makes it a child of the caller's span. A 5xx is an error;
- a Redis round trip (:func:`redis_round_trip`, the transport's hook), inside a span only (a
  request's, or the recorder's batch): ``db.system`` ``redis``, the command's name (or
  ``PIPELINE`` and how many), and each script's file; never a key, a value or an argument;
- a transaction of the record (:func:`postgres_transaction`): ``db.system`` ``postgresql``,
  child of the request's span when a request reads the record, a trace of its own in the
  recorder; never a statement's parameters.

An error is marked with its type alone: the messages of redis-py and psycopg name the server's
address, port and user, and a span is as public as a log line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from importlib import metadata
from typing import Any

from opentelemetry import context, propagate, trace
from opentelemetry.propagators.textmap import Getter
from opentelemetry.sdk.resources import OTELResourceDetector, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import SpanKind, Status, StatusCode

from api.http.traffic import ROUTE, Counted
from api.storage.luascript import BY_SHA

NAME = "baccarat-roads"
TRACER = trace.get_tracer(NAME)  # a proxy until this process's provider is made


def start_provider() -> None:
    """This process's provider: spans batched to the OTLP/HTTP exporter (both configured by
    the standard ``OTEL_*`` variables), with the service's name and version as its resource
    unless ``OTEL_SERVICE_NAME`` or ``OTEL_RESOURCE_ATTRIBUTES`` say otherwise."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    ours = {"service.name": NAME, "service.version": metadata.version(NAME)}
    resource = Resource.create({**ours, **OTELResourceDetector().detect().attributes})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)


def failed(span: trace.Span, error: BaseException) -> None:
    """Mark ``span`` as failed by ``error``'s type alone (see the module doc)."""
    span.set_status(Status(StatusCode.ERROR, type(error).__name__))
    span.set_attribute("error.type", type(error).__name__)


# -- requests ---------------------------------------------------------------------------------


class _Environ(Getter[Mapping[str, Any]]):
    """The propagation headers of a WSGI environ (``traceparent``: ``HTTP_TRACEPARENT``)."""

    def get(self, carrier: Mapping[str, Any], key: str) -> list[str] | None:
        value = carrier.get("HTTP_" + key.upper().replace("-", "_"))
        return [value] if isinstance(value, str) else None

    def keys(self, carrier: Mapping[str, Any]) -> list[str]:
        return [k[5:].lower().replace("_", "-") for k in carrier if k.startswith("HTTP_")]


ENVIRON = _Environ()


class TracedRequests:
    """The WSGI middleware (outermost) that makes each request's span, current while the app
    answers and ended when the server closes the answer (an event stream's when it ends).
    ``first()`` is called before each request's span is made: it makes the process's provider
    the first time (:data:`api.tracing.PROCESS`)."""

    def __init__(self, app: Callable, *, first: Callable[[], None]) -> None:
        self.app = app
        self.first = first

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        self.first()
        parent = propagate.extract(environ, getter=ENVIRON)
        method = environ.get("REQUEST_METHOD", "")
        span = TRACER.start_span(
            method,
            context=parent,
            kind=SpanKind.SERVER,
            attributes={
                "http.request.method": method,
                "url.scheme": environ.get("wsgi.url_scheme", "http"),
                "url.path": environ.get("PATH_INFO", ""),  # never the query string
            },
        )
        status: list[int] = []

        def start(code: str, headers: list, exc_info: Any = None) -> Callable:
            status[:] = [int(code.split(" ", 1)[0])]
            return start_response(code, headers, exc_info)

        token = context.attach(trace.set_span_in_context(span, parent))
        try:
            body = self.app(environ, start)
        except BaseException as error:
            failed(span, error)
            span.end()
            raise
        finally:
            context.detach(token)
        # traffic's Counted: the same once-only close, its byte count unused here.
        return Counted(body, lambda _sent: _end_request(span, environ, status))


def _end_request(span: trace.Span, environ: Mapping[str, Any], status: list[int]) -> None:
    """Name the span for its route (known once the app matched one) and end it."""
    route = environ.get(ROUTE)
    if route:
        span.update_name(f"{environ.get('REQUEST_METHOD', '')} {route}")
        span.set_attribute("http.route", route)
    code = status[0] if status else 500
    span.set_attribute("http.response.status_code", code)
    if code >= 500:
        span.set_status(Status(StatusCode.ERROR))
        span.set_attribute("error.type", str(code))
    span.end()


# -- Redis ------------------------------------------------------------------------------------


def redis_round_trip(
    commands: Sequence[tuple[Any, ...]], send: Callable[[Sequence[tuple[Any, ...]]], list]
) -> list:
    """The transport's hook: ``send(commands)`` inside a Redis span when a span is current (a
    request's; the version watch's and the jobs' polling make no traces of their own)."""
    if not trace.get_current_span().get_span_context().is_valid:
        return send(commands)
    names = [_command_name(command) for command in commands]
    scripts = [
        BY_SHA[command[1]].name
        for command, name in zip(commands, names, strict=True)
        if name == "EVALSHA" and command[1] in BY_SHA
    ]
    operation = names[0] if len(names) == 1 else "PIPELINE"
    attributes: dict[str, Any] = {"db.system": "redis", "db.operation.name": operation}
    if len(names) > 1:
        attributes["db.operation.batch.size"] = len(names)
        attributes["roads.redis.commands"] = sorted(set(names))
    if scripts:
        attributes["roads.redis.scripts"] = sorted(set(scripts))
    name = f"{operation} {scripts[0]}" if len(scripts) == 1 and len(names) == 1 else operation
    with TRACER.start_as_current_span(
        name,
        kind=SpanKind.CLIENT,
        attributes=attributes,
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            return send(commands)
        except BaseException as error:
            failed(span, error)
            raise


def _command_name(command: tuple[Any, ...]) -> str:
    name = command[0]
    return (name.decode() if isinstance(name, bytes) else str(name)).upper()


# -- PostgreSQL -------------------------------------------------------------------------------


@contextmanager
def postgres_transaction() -> Iterator[None]:
    """The database's seam: one span around one transaction of the record (its statements)."""
    with TRACER.start_as_current_span(
        "postgresql transaction",
        kind=SpanKind.CLIENT,
        attributes={"db.system": "postgresql", "db.operation.name": "TRANSACTION"},
        record_exception=False,
        set_status_on_exception=False,
    ) as span:
        try:
            yield
        except BaseException as error:
            failed(span, error)
            raise
