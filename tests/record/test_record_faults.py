"""The record under faults: PostgreSQL stopped for 20 s under ingest (ingest goes on, the lag
shows, the record catches up losing nothing) and a recorder killed (SIGKILL) mid-batch (nothing
lost or doubled); the record's reads bounded (a statement timeout, the pool's wait a 503 and
never a table taken as new, a bound per process, anonymous reads that bring a table back never
starving a write to a new table) and their errors naming no address."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from api.record.database import RecordBusy
from tests.conftest import AUTH, KEY
from tests.record.conftest import record_all
from tests.record.test_cold_shoes import flush
from tests.record.test_recording import check_record

ROOT = Path(__file__).resolve().parents[2]


def ingest(client, table: str, stop: threading.Event, done: list[int], pause: float) -> None:
    """A dealer at one table: a round every ``pause`` seconds, a new shoe every 60 rounds."""
    number = 0
    while not stop.is_set():
        number += 1
        shoe, at = divmod(number - 1, 60)
        answer = client.post(
            f"/v1/tables/{table}/shoes/s{shoe}/rounds",
            json={"round": at + 1, "result": "BPBBT"[number % 5]},
            headers=AUTH,
        )
        assert answer.status_code == 201, answer.json
        done.append(number)
        time.sleep(pause)


def test_postgresql_down_for_20_seconds_loses_nothing(
    record_app, postgres_server, redis_client, pg
):
    client, services = record_app.test_client(), record_app.extensions["roads"]
    recorder = services.record.recorder
    recorder.start()
    stop, done = threading.Event(), []
    dealer = threading.Thread(target=ingest, args=(client, "down", stop, done, 0.01))
    dealer.start()
    try:
        time.sleep(1)
        pg.close()
        postgres_server.stop()
        stopped_at = len(done)
        time.sleep(20)
        assert len(done) > stopped_at + 100  # ingest went on
        assert client.get("/v1/tables/down/roads").status_code == 200  # and reads
        assert client.get("/readyz").json["record"]["behind_seconds"] > 10
        postgres_server.start()
        time.sleep(1)
    finally:
        stop.set()
        dealer.join()
    deadline = time.monotonic() + 30
    while client.get("/readyz").json["record"]["behind_seconds"] > 0:
        assert time.monotonic() < deadline, "the record did not catch up"
        time.sleep(0.2)
    recorder.stop()
    with psycopg.connect(services.settings.database_url, autocommit=True) as conn:
        check_record(conn, redis_client, services.keys, "down")


RECORDER = """
import sys
from api.config import Settings
from api.services import Services
services = Services.build(Settings(redis_url=sys.argv[1], database_url=sys.argv[2]))
recorder = services.record.recorder
recorder.batch = 3
while True:
    recorder.step()
"""


def test_a_recorder_killed_mid_batch_loses_and_doubles_nothing(
    record_app, redis_client, database_url, pg
):
    client, services = record_app.test_client(), record_app.extensions["roads"]
    rounds = [
        {"table": f"k{t}", "shoe": "s1", "round": n, "result": "BPT"[(n * 7 + t) % 3]}
        for n in range(1, 81)
        for t in range(30)
    ]
    for start in range(0, len(rounds), 200):
        answer = client.post(
            "/v1/rounds", json={"rounds": rounds[start : start + 200]}, headers=AUTH
        )
        assert answer.status_code == 200
    for _ in range(3):  # killed three times, at whatever point each had reached
        process = subprocess.Popen(
            [sys.executable, "-c", RECORDER, services.settings.redis_url, database_url],
            cwd=ROOT,
            env={**os.environ, "ROADS_INGEST_KEYS": KEY},
        )
        try:
            deadline = time.monotonic() + 20
            (before,) = pg.execute("SELECT count(*) FROM record_writes").fetchone()
            while pg.execute("SELECT count(*) FROM record_writes").fetchone()[0] < before + 40:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.01)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
    (count,) = pg.execute("SELECT count(*) FROM record_writes").fetchone()
    assert 0 < count < len(rounds)  # the record stopped part of the way
    time.sleep(services.record.recorder.lease_ms / 1000)  # the dead holder's lease runs out
    record_all(services.record.recorder)
    for table in range(30):
        check_record(pg, redis_client, services.keys, f"k{table}")
    assert pg.execute("SELECT count(*) FROM record_writes").fetchone() == (len(rounds),)


def test_the_records_reads_run_under_a_statement_timeout(record_apps):
    database = record_apps(record_timeout_ms=300).extensions["roads"].record.database
    with database.reading() as conn:
        assert conn.execute("SHOW statement_timeout").fetchone() == ("300ms",)
        assert conn.execute("SHOW transaction_read_only").fetchone() == ("on",)
    with pytest.raises(RecordBusy), database.reading() as conn:
        conn.execute("SELECT pg_sleep(2)")
    with database.transaction() as conn:  # the recorder's batches are not cut at it
        assert conn.execute("SHOW statement_timeout").fetchone() == ("0",)
    default = record_apps().extensions["roads"].record.database
    with default.reading() as conn:
        assert conn.execute("SHOW statement_timeout").fetchone() == ("5s",)


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
        for path in ("/v1/tables/none/shoes", "/v1/archive/tables/none"):
            answer = client.get(path)
            assert answer.status_code == 503 and answer.headers["Retry-After"], path
            assert "reads of the record" in answer.json["message"]
    assert client.get("/v1/tables/none/shoes").status_code == 404


def test_postgresql_stopped_the_503_names_no_address_port_or_user(record_apps, postgres_server, pg):
    app = record_apps(public_record=True)
    client = app.test_client()
    assert client.get("/v1/tables/nowhere/shoes").status_code == 404  # the pool is in use
    app.extensions["roads"].record.database.timeout = 0.5
    app.extensions["roads"].record.database.close()
    pg.close()
    postgres_server.stop()
    try:
        answer = client.get("/v1/tables/nowhere/shoes")
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
