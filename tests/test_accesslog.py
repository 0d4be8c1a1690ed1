"""The access log off the request path (api/accesslog.py): the lines the logging formatter would
write, each once and in order, in whole-line pieces no bigger than a pipe writes atomically; a
full queue drops lines and counts them instead of making a request wait."""

import io
import json
import logging
import threading
import time

from api.accesslog import PIPE_BUF, AccessLog
from api.logs import REQUEST_ID, JsonFormatter
from api.metrics import ACCESS_DROPPED


class Writes(io.RawIOBase):
    """A stream that keeps each write apart, and can be held (a stuck disk or pipe)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.open = threading.Event()
        self.open.set()

    def write(self, data) -> int:
        self.open.wait(10)
        self.writes.append(bytes(data))
        return len(data)

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in b"".join(self.writes).splitlines()]


def fields(number: int) -> dict:
    return {
        "method": "GET",
        "route": "/v1/tables/{table}/roads",
        "path": f"/v1/tables/t{number}/roads",
        "status": 200,
        "duration_ms": 0.125,
        "bytes": 1234,
        "request_id": f"r{number}",
        "table": f"t{number}",
    }


def test_a_line_is_what_the_logging_formatter_writes():
    stream = Writes()
    log = AccessLog(stream)
    log.write(fields(7))
    log.close()
    (line,) = stream.lines()
    record = logging.LogRecord("roads.access", logging.INFO, "", 0, "GET %s %s", None, None)
    record.msg, record.args = "%s %s %s", ("GET", "/v1/tables/{table}/roads", 200)
    record.fields = fields(7)
    record.created = time.time()
    token = REQUEST_ID.set("r7")  # as the request's own line had it
    try:
        expected = json.loads(JsonFormatter().format(record))
    finally:
        REQUEST_ID.reset(token)
    assert list(line) == list(expected)  # the same keys in the same order
    assert {k: v for k, v in line.items() if k != "time"} == {
        k: v for k, v in expected.items() if k != "time"
    }


def test_every_line_is_written_once_in_order_in_whole_pieces_of_a_pipes_size():
    stream = Writes()
    log = AccessLog(stream)
    threads = [
        threading.Thread(
            target=lambda start=start: [log.write(fields(n)) for n in range(start, start + 2000)]
        )
        for start in (0, 10_000, 20_000)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    log.close()
    ids = [line["request_id"] for line in stream.lines()]
    assert sorted(ids) == sorted(f"r{n}" for s in (0, 10_000, 20_000) for n in range(s, s + 2000))
    for start in (0, 10_000, 20_000):  # each writer's lines in the order it wrote them
        mine = [i for i in ids if start <= int(i[1:]) < start + 2000]
        assert mine == [f"r{n}" for n in range(start, start + 2000)]
    assert len(stream.writes) > 1, "batched: many lines a write"
    assert all(len(piece) <= PIPE_BUF and piece.endswith(b"\n") for piece in stream.writes)


def test_a_full_queue_drops_lines_and_counts_them_without_waiting():
    stream = Writes()
    stream.open.clear()  # the disk is stuck
    log = AccessLog(stream, capacity=100)
    log.write(fields(0))
    time.sleep(0.2)  # the writer took line 0 and is stuck writing it
    before = ACCESS_DROPPED._value.get()
    started = time.perf_counter()
    for number in range(1, 151):
        log.write(fields(number))
    assert time.perf_counter() - started < 1.0, "a request never waits for the log"
    assert ACCESS_DROPPED._value.get() - before == 50
    stream.open.set()
    log.close()
    ids = [line["request_id"] for line in stream.lines()]
    assert ids == [f"r{n}" for n in range(101)]


def test_a_forked_child_starts_with_no_lines_of_its_parent():
    stream = Writes()
    stream.open.clear()
    log = AccessLog(stream)
    log.write(fields(1))
    log.write(fields(2))
    log.forked()  # what os.register_at_fork calls in the child
    stream.open.set()
    log.write(fields(3))
    log.close()
    assert [line["request_id"] for line in stream.lines()][-1] == "r3"
    assert "r2" not in [line["request_id"] for line in stream.lines()]


def test_a_request_line_names_its_valid_key_and_never_a_query_key(backend, redis_client):
    """Through the app (api.http.traffic): the line names the key (never the secret), and the
    path is logged without its query, where an event stream's ``?key=`` goes."""
    from api.http import traffic
    from tests.conftest import KEY, make_app

    app = make_app(backend.url, read_keys=("lobby:reader-secret",))
    stream = Writes()
    log = AccessLog(stream)
    app.wsgi_app = traffic.Traffic(app.wsgi_app.app, log=log)  # the same app, logged here
    client = app.test_client()
    for answer in (
        client.get("/v1/tables", headers={"X-API-Key": "reader-secret"}),
        client.put("/v1/tables/t1", json={"name": "One"}, headers={"X-API-Key": KEY}),
        client.get("/v1/tables?key=reader-secret"),
        client.get("/v1/tables", headers={"X-API-Key": "no-such-key"}),
    ):
        answer.close()  # the line is queued as the answer closes
    log.flush()
    text = b"".join(stream.writes).decode()
    assert "reader-secret" not in text and KEY not in text and "no-such-key" not in text
    assert [line.get("key") for line in stream.lines()] == ["lobby", "ingest-1", None, None]
    assert {line["path"] for line in stream.lines()} == {"/v1/tables", "/v1/tables/t1"}
