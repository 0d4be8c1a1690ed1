"""The record's HTTP answers when PostgreSQL is slow or down: a pool wait that times out is a 503
to retry (never a table taken as new), reads of the record past the process's bound are a 503,
PostgreSQL stopped is a 503 naming no address, port or user, and anonymous reads that bring a
table back never starve a write to a new table. (The record's own objects under faults, without
the app: tests/record/test_record_faults.py.)"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from tests.api_helpers import delete, keys
from tests.conftest import AUTH
from tests.record.conftest import record_all


def flush(redis_client) -> None:
    """Redis loses everything."""
    delete(redis_client, keys(redis_client, "*"))


def test_a_pool_wait_that_times_out_is_a_503_never_a_new_table(record_apps, redis_client):
    app = record_apps(public_record=True)
    client, services = app.test_client(), app.extensions["roads"]
    for number, result in enumerate("BPB", 1):
        body = {"round": number, "result": result}
        assert client.post("/v1/tables/held/shoes/s1/rounds", json=body, headers=AUTH).status_code
    record_all(services.record.recorder)
    flush(redis_client)  # the table is the record's alone now
    database = services.record.database
    database.close()
    database.timeout = 0.3  # the pool's wait, short for the test
    pool = database.pool()
    held = [pool.getconn() for _ in range(database.max_size)]  # every connection busy
    try:
        body = {"round": 4, "result": "T"}
        busy = client.post("/v1/tables/held/shoes/s1/rounds", json=body, headers=AUTH)
        assert busy.status_code == 503 and busy.headers["Retry-After"], busy.json
        assert "did not answer in time" in busy.json["message"]
        listed = client.get("/v1/tables/held/shoes")
        assert listed.status_code == 503 and listed.headers["Retry-After"]
    finally:
        for conn in held:
            pool.putconn(conn)
    # Not taken as new meanwhile: the table comes back, and round 4 follows its 3.
    answer = client.post("/v1/tables/held/shoes/s1/rounds", json=body, headers=AUTH)
    assert answer.status_code == 201, answer.json
    assert client.get("/v1/tables/held").json["current_shoe"] == "s1"


def test_record_reads_past_the_process_bound_are_a_503_to_retry(record_apps):
    app = record_apps(public_record=True, record_reads=1)
    client, services = app.test_client(), app.extensions["roads"]
    assert client.get("/v1/tables/none/shoes").status_code == 404
    with services.record_reads.entered():  # one read of the record under way here
        for path in ("/v1/tables/none/shoes?limit=50", "/v1/archive/tables/none"):
            answer = client.get(path)
            assert answer.status_code == 503 and answer.headers["Retry-After"], path
            assert "reads of the record" in answer.json["message"]
        # A first page read a moment ago is served without a reader's slot (api.record.shoelists).
        assert client.get("/v1/tables/none/shoes").status_code == 404
    assert client.get("/v1/tables/none/shoes?limit=50").status_code == 404


def test_postgresql_stopped_the_503_names_no_address_port_or_user(record_apps, postgres_server, pg):
    app = record_apps(public_record=True)
    client = app.test_client()
    assert client.get("/v1/tables/nowhere/shoes").status_code == 404  # the pool is in use
    app.extensions["roads"].record.database.timeout = 0.5
    app.extensions["roads"].record.database.close()
    pg.close()
    postgres_server.stop()
    try:
        answer = client.get("/v1/tables/elsewhere/shoes")  # (nowhere's listing is kept 5 s)
        assert answer.status_code == 503, answer.json
        text = answer.get_data(as_text=True)
        assert "record" in answer.json["message"]
        for secret in ("127.0.0.1", "localhost", str(postgres_server.port), "postgres", "port"):
            assert secret not in text, (secret, text)
    finally:
        postgres_server.start()


def test_anonymous_cold_reads_never_starve_a_write_to_a_new_table(record_apps, pg, monkeypatch):
    # Anonymous reads of tables that do not exist each ask the record (a table Redis may have
    # lost). Held in PostgreSQL (an advisory lock), they take at most the pool's size less one
    # connections; one more is a 503 at once, and a write to a new table still gets its answer.
    app = record_apps()  # the record's own reads need keys; these live reads do not
    database = app.extensions["roads"].record.database
    reading, entered = database.reading, threading.Semaphore(0)

    @contextmanager
    def held_when_a_reader(*args, **kwargs):
        with reading(*args, **kwargs) as conn:
            if threading.current_thread().name.startswith("reader"):
                entered.release()
                conn.execute("SELECT pg_advisory_xact_lock_shared(4242)")
            yield conn

    monkeypatch.setattr(database, "reading", held_when_a_reader)
    answers: list[int] = []

    def read(number: int) -> None:
        answer = app.test_client().get(f"/v1/tables/ghost{number}/shoes/s1/rounds")
        answers.append(answer.status_code)

    readers = [
        threading.Thread(target=read, args=(n,), name=f"reader{n}")
        for n in range(database.max_size + 2)
    ]
    pg.execute("SELECT pg_advisory_lock(4242)")
    try:
        for reader in readers:
            reader.start()
        for _ in range(database.max_size - 1):
            assert entered.acquire(timeout=10), "the readers did not reach the record"
        deadline = time.monotonic() + 10
        while len(answers) < 3:  # the readers past the bound: refused at once
            assert time.monotonic() < deadline, answers
            time.sleep(0.01)
        assert answers == [503, 503, 503]
        started = time.monotonic()
        body = {"round": 1, "result": "B"}
        client = app.test_client()
        written = client.post("/v1/tables/fresh/shoes/s1/rounds", json=body, headers=AUTH)
        assert written.status_code == 201, written.json
        assert time.monotonic() - started < database.timeout
    finally:
        pg.execute("SELECT pg_advisory_unlock(4242)")
        for reader in readers:
            reader.join(timeout=10)
    assert sorted(answers) == [404] * (database.max_size - 1) + [503] * 3
