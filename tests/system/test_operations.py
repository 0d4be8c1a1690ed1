"""What an operator runs the service with, under gunicorn on the tests' Redis: metrics to scrape,
JSON access and application logs, request ids, JSON answers for every refusal (414, 415, 413),
and a shutdown that ends open event streams at once."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from prometheus_client.parser import text_string_to_metric_families

from api.config import Settings
from tests.conftest import KEY
from tests.gunicorn_server import send
from tests.gunicorn_server import service as served

ROUNDS = "/v1/tables/ops/shoes/s1/rounds"


@pytest.fixture(scope="module")
def log_file():
    return Path(tempfile.mkdtemp(prefix="roads-log-")) / "service.log"


@pytest.fixture(scope="module")
def service(redis_server, log_file):
    with served(redis_server.url, KEY, workers=2, log=log_file) as base:
        yield base


def request(base: str, method: str, path: str, body: bytes | None = None, **headers: str):
    """Status, headers and body of one request, whatever its status."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def scrape(base: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of ``/metrics``: (name, labels) -> value."""
    status, headers, body = request(base, "GET", "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def log_lines(log_file: Path) -> list[dict]:
    """The service's log so far, each line parsed: every line must be one JSON object."""
    return [json.loads(line) for line in log_file.read_text().splitlines() if line.strip()]


def test_a_scrape_after_requests_shows_the_counters_moved(service):
    before = scrape(service)
    for number, result in enumerate("BPB", start=1):
        send(service, "POST", ROUNDS, {"round": number, "result": result}, KEY)
    send(service, "POST", ROUNDS, {"round": 3, "result": "B"}, KEY)  # a retry
    assert request(service, "POST", ROUNDS, b'{"round": 3, "result": "P"}', **json_key())[0] == 409
    for _ in range(3):
        assert request(service, "GET", "/v1/tables/ops/roads")[0] == 200
    assert request(service, "GET", "/v1/tables/nowhere/roads")[0] == 404
    # A request is counted once its last byte is sent, which may be just after the client has
    # read it: scrape until the last one shows.
    reads = ("roads_http_request_duration_seconds_count", {"route": "/v1/tables/{table}/roads"})
    deadline = time.monotonic() + 5
    after = scrape(service)
    while value(after, reads[0], method="GET", **reads[1]) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
        after = scrape(service)

    route = "/v1/tables/{table}/shoes/{shoe}/rounds"
    moved = {
        labels: value(after, "roads_rounds_total", outcome=labels)
        - value(before, "roads_rounds_total", outcome=labels)
        for labels in ("stored", "replay", "conflict")
    }
    assert moved == {"stored": 3, "replay": 1, "conflict": 1}
    made = value(after, "roads_http_requests_total", route=route, method="POST", status="201")
    assert (
        made - value(before, "roads_http_requests_total", route=route, method="POST", status="201")
        == 3
    )
    assert value(after, reads[0], method="GET", **reads[1]) >= 4
    cache = sum(
        value(after, "roads_read_cache_total", kind="roads", outcome=outcome)
        for outcome in ("held", "memory", "redis", "built")
    )
    assert cache >= 3
    # Labels name route templates, never a table: the unknown table is in no label.
    assert not any("nowhere" in str(labels) or "ops" in str(labels) for _, labels in after)


def json_key() -> dict[str, str]:
    return {"Content-Type": "application/json", "X-API-Key": KEY}


@pytest.mark.parametrize(
    ("query", "table", "path"), [("?frames=0", "ops2", "direct"), ("", "ops3", "frames")]
)
def test_the_event_feed_is_counted_with_its_lag(service, query, table, path):
    stream = open_stream(service, query)
    try:
        time.sleep(0.5)
        assert value(scrape(service), "roads_feed_clients") >= 1
        before = scrape(service)
        rounds = f"/v1/tables/{table}/shoes/s1/rounds"
        send(service, "POST", rounds, {"round": 1, "result": "B"}, KEY)
        read_until(stream, f'"{table}"'.encode())
        time.sleep(0.2)
        after = scrape(service)
    finally:
        stream.close()
    sent = ("roads_feed_events_total", {"path": path})
    assert value(after, sent[0], **sent[1]) > value(before, sent[0], **sent[1])
    lag = ("roads_feed_lag_seconds_count", {"path": path})
    assert value(after, lag[0], **lag[1]) > value(before, lag[0], **lag[1])


def test_a_request_id_round_trips_into_the_answer_the_error_and_the_log(service, log_file):
    status, headers, body = request(
        service, "GET", "/v1/tables/nowhere/roads", **{"X-Request-ID": "lobby-7.abc"}
    )
    assert status == 404 and headers["X-Request-ID"] == "lobby-7.abc"
    assert json.loads(body)["request_id"] == "lobby-7.abc"
    status, headers, _ = request(service, "GET", "/livez", **{"X-Request-ID": "not sane!"})
    made = headers["X-Request-ID"]
    assert status == 200 and made != "not sane!" and len(made) == 32
    time.sleep(0.3)
    lines = [line for line in log_lines(log_file) if line.get("request_id") == "lobby-7.abc"]
    assert lines, "the access log has the request"
    line = lines[-1]
    assert line["route"] == "/v1/tables/{table}/roads" and line["status"] == 404
    assert line["table"] == "nowhere" and line["method"] == "GET"
    assert line["bytes"] > 0 and line["duration_ms"] >= 0 and line["logger"] == "roads.access"


def test_a_too_long_url_gets_a_json_414_and_logs_no_traceback(service, log_file):
    status, headers, body = request(service, "GET", "/v1/tables/" + "x" * 10_000)
    assert status == 414 and headers["Content-Type"] == "application/json"
    answer = json.loads(body)
    assert answer["code"] == 414 and answer["request_id"] == headers["X-Request-ID"]
    # Refused before the app, it still carries the headers every answer does.
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Content-Security-Policy"].startswith("default-src 'none'")
    time.sleep(0.3)
    text = log_file.read_text()
    assert "Traceback" not in text
    assert any(line.get("status") == 414 for line in log_lines(log_file))


def test_a_body_of_another_type_is_415_naming_json(service):
    status, headers, body = request(
        service, "POST", ROUNDS, b"round=4", **{"Content-Type": "text/plain", "X-API-Key": KEY}
    )
    assert status == 415 and headers["Content-Type"] == "application/json"
    assert "application/json" in json.loads(body)["message"]


def test_an_over_long_chunked_body_is_413(service):
    parts = urlsplit(service)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    chunks = iter([b'{"round": 4, "result": "', b"B" * Settings().max_body, b'"}'])
    connection.request("POST", ROUNDS, body=chunks, headers={**json_key()}, encode_chunked=True)
    answer = connection.getresponse()
    assert answer.status == 413
    assert json.loads(answer.read())["code"] == 413
    connection.close()


def open_stream(base: str, query: str = "") -> socket.socket:
    parts = urlsplit(base)
    stream = socket.create_connection((parts.hostname, parts.port), timeout=10)
    head = f"GET /v1/events{query} HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n"
    stream.sendall(head.encode())
    read_until(stream, b"retry:")
    return stream


def read_until(stream: socket.socket, marker: bytes) -> bytes:
    seen = b""
    while marker not in seen:
        chunk = stream.recv(65536)
        if not chunk:
            raise AssertionError(f"the stream closed before {marker!r}")
        seen += chunk
    return seen


def read_to_end(stream: socket.socket) -> bytes:
    seen = b""
    while chunk := stream.recv(65536):
        seen += chunk
    return seen


def test_sigterm_ends_fifty_open_streams_and_exits_within_two_seconds(redis_server, tmp_path):
    log = tmp_path / "service.log"
    with served(redis_server.url, KEY, workers=2, log=log) as base:
        streams = [open_stream(base) for _ in range(50)]
        idle = socket.create_connection(urlsplit(base).netloc.split(":"), timeout=10)
        started = time.monotonic()
        base.process.send_signal(signal.SIGTERM)
        base.process.wait(timeout=15)
        took = time.monotonic() - started
        endings = [read_to_end(stream) for stream in streams]
        for stream in [*streams, idle]:
            stream.close()
    assert took < 2.0, f"gunicorn took {took:.1f} s to exit"
    assert all(b"retry:" in ending for ending in endings)
    assert "graceful timeout" not in log.read_text().lower()


def test_a_master_killed_outright_leaves_no_metrics_directory_behind(redis_server, tmp_path):
    # Its own on_exit never runs; the next master to start on the host removes the directory.
    folder = {"TMPDIR": str(tmp_path)}
    with served(redis_server.url, KEY, **folder) as first:
        (left,) = tmp_path.glob(f"roads-metrics-{first.process.pid}-*")
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=10)
    assert left.exists()
    with served(redis_server.url, KEY, **folder) as second:
        assert not left.exists()
        assert list(tmp_path.glob(f"roads-metrics-{second.process.pid}-*"))  # its own stays
