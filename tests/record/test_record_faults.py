"""The record under faults: PostgreSQL stopped for 20 s under ingest (ingest goes on, the lag
shows, the record catches up losing nothing) and a recorder killed (SIGKILL) mid-batch (nothing
lost or doubled)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg

from tests.conftest import AUTH, KEY
from tests.record.conftest import record_all
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
