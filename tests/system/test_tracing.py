"""Tracing (api/tracing.py, api/spans.py): the service under gunicorn, on the tests' Redis and
PostgreSQL with the recorder's process, exports its spans over OTLP/HTTP to a receiver this test
runs (decoded with opentelemetry-proto, as a collector would): a span per request named for its
route (a child of the caller's ``traceparent``), the request's Redis round trips as its
children, the record's transactions (a read's, and the recorder's own), with the service's name
and version; and never a key, a value or a query string. Off (no endpoint), opentelemetry is
never imported; asked for without its packages, the start fails saying how to install them."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import metadata
from pathlib import Path

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from tests.conftest import KEY
from tests.gunicorn_server import service

ROOT = Path(__file__).resolve().parent.parent.parent
TABLE = "traced7"  # a table id no span may hold but a request's path
SECRET = "hushhush42"  # in a query string, which no span may hold
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER = "00f067aa0ba902b7"  # the caller's span, as a W3C traceparent names it


@dataclass(frozen=True)
class Span:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    attributes: dict
    resource: dict


def values(attributes) -> dict:
    """OTLP key-values as a dict of plain values (strings, numbers, lists of strings)."""
    out = {}
    for item in attributes:
        kind = item.value.WhichOneof("value")
        value = getattr(item.value, kind)
        if kind == "array_value":
            value = [v.string_value for v in value.values]
        out[item.key] = value
    return out


class Receiver:
    """An OTLP/HTTP trace receiver on a free loopback port: every span it was sent."""

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.bodies: list[bytes] = []
        received = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                received.take(body)
                answer = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def take(self, body: bytes) -> None:
        self.bodies.append(body)
        request = ExportTraceServiceRequest.FromString(body)
        for resource_spans in request.resource_spans:
            resource = values(resource_spans.resource.attributes)
            for scope in resource_spans.scope_spans:
                for span in scope.spans:
                    self.spans.append(
                        Span(
                            span.name,
                            span.trace_id.hex(),
                            span.span_id.hex(),
                            span.parent_span_id.hex(),
                            values(span.attributes),
                            resource,
                        )
                    )

    def wait_for(self, found, seconds: float = 30) -> list[Span]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            spans = [span for span in list(self.spans) if found(span)]
            if spans:
                return spans
            time.sleep(0.1)
        raise AssertionError(f"no such span in time among {sorted({s.name for s in self.spans})}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    yield running
    running.close()


def call(base: str, method: str, path: str, body: bytes | None = None, **headers: str) -> int:
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        answer.read()
        return answer.status


def test_the_service_traces_requests_redis_and_the_record(redis_server, database_url, receiver):
    env = {
        "ROADS_DATABASE_URL": database_url,
        "ROADS_PUBLIC_RECORD": "1",
        "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url,
        "OTEL_BSP_SCHEDULE_DELAY": "100",  # milliseconds
    }
    parent = f"00-{TRACE_ID}-{CALLER}-01"
    with service(redis_server.url, KEY, **env) as base:
        body = f'{{"rounds": [{{"table": "{TABLE}", "shoe": "s1", "round": 1, "result": "B"}}]}}'
        posted = call(
            base,
            "POST",
            "/v1/rounds",
            body.encode(),
            **{"Content-Type": "application/json", "X-API-Key": KEY, "traceparent": parent},
        )
        assert posted == 200
        assert call(base, "GET", f"/v1/tables/{TABLE}/roads?note={SECRET}") == 200
        # The recorder records the round (a transaction of its own); then the record is read.
        recorder = receiver.wait_for(
            lambda s: s.attributes.get("db.system") == "postgresql" and not s.parent_id
        )
        assert call(base, "GET", f"/v1/tables/{TABLE}/shoes") == 200

        (post,) = receiver.wait_for(lambda s: s.name == "POST /v1/rounds")
        assert (post.trace_id, post.parent_id) == (TRACE_ID, CALLER)  # the caller's trace
        assert post.attributes["http.route"] == "/v1/rounds"
        assert post.attributes["http.response.status_code"] == 200
        assert post.resource["service.name"] == "baccarat-roads"
        assert post.resource["service.version"] == metadata.version("baccarat-roads")
        children = receiver.wait_for(lambda s: s.parent_id == post.span_id)
        systems = {s.attributes.get("db.system") for s in children}
        assert systems <= {"redis", "postgresql"} and "redis" in systems  # (a new table's
        # shoe is looked for in the record too)
        assert "api/storage/append_round.lua" in {
            script for s in children for script in s.attributes.get("roads.redis.scripts", [])
        }  # the write's script, by its file

        (read,) = receiver.wait_for(lambda s: s.name == "GET /v1/tables/{table}/roads")
        assert read.attributes["url.path"] == f"/v1/tables/{TABLE}/roads"
        (shoes,) = receiver.wait_for(lambda s: s.name == "GET /v1/tables/{table}/shoes")
        (reading,) = receiver.wait_for(
            lambda s: s.parent_id == shoes.span_id and s.attributes["db.system"] == "postgresql"
        )
        assert reading.trace_id == shoes.trace_id != TRACE_ID  # a trace of its own
        assert recorder[0].resource["service.name"] == "baccarat-roads"

    everything = b"".join(receiver.bodies)
    assert SECRET.encode() not in everything and KEY.encode() not in everything
    for span in receiver.spans:  # a table id only in a request's path
        if "db.system" in span.attributes:
            assert TABLE not in repr(span.attributes), span


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


# redis-py (8.1) imports opentelemetry's metrics SDK by itself when it is installed (for its own
# opt-in metrics): what the service imports is measured against that, taken before the app.
OFF = """
import sys
import redis

def otel():
    return sorted(name for name in sys.modules if name.split(".")[0] == "opentelemetry")

by_redis = otel()
from api import create_app
app = create_app()
client = app.test_client()
key = {"X-API-Key": "offkey1"}
answer = client.post("/v1/rounds", headers=key,
                     json={"rounds": [{"table": "off1", "shoe": "s1", "round": 1, "result": "P"}]})
assert answer.status_code == 200, answer.status_code
assert client.get("/v1/tables/off1/roads").status_code == 200
print(sorted(set(otel()) - set(by_redis)), "api.spans" in sys.modules, app.wsgi_app)
"""


def test_off_opentelemetry_is_never_imported(redis_server):
    ran = run_python(OFF, {"REDIS_URL": redis_server.url, "ROADS_INGEST_KEYS": "offkey1"})
    assert ran.returncode == 0, ran.stderr
    imported, spans, outermost = ran.stdout.strip().split(" ", 2)
    assert (imported, spans) == ("[]", "False")
    assert "Traffic" in outermost  # nothing wrapped around the app


# opentelemetry made unimportable, as where the otel extra was not installed.
WITHOUT = """
import sys
class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "opentelemetry":
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Missing())
import wsgi
"""


def test_asked_for_without_the_packages_the_start_fails_saying_what_to_install(redis_server):
    env = {
        "REDIS_URL": redis_server.url,
        "ROADS_INGEST_KEYS": "offkey1",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9",
    }
    ran = run_python(WITHOUT, env)
    assert ran.returncode == 1
    assert "roads: cannot start: OTEL_EXPORTER_OTLP_ENDPOINT is set" in ran.stderr
    assert "pip install 'baccarat-roads[otel]'" in ran.stderr
