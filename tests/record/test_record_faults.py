"""The record under faults: PostgreSQL stopped for a while under ingest (ingest goes on, the lag
shows, the record catches up losing nothing) and a recorder killed (SIGKILL) mid-batch (nothing
lost or doubled); the record's reads bounded (a statement timeout; the pool's wait raises
:class:`RecordBusy`, never a table taken as new). The layers' objects, without the app (the
record's HTTP answers when it is slow or down: tests/http/test_record_unavailable.py)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from api.config import Settings
from api.record.database import RecordBusy
from api.record.recorder import LEASE_MS as LEASE_MS_DEFAULT
from roads import Round
from tests.conftest import KEY
from tests.record.conftest import record_all
from tests.record.test_cold_shoes import flush
from tests.record.test_recording import check_record

ROOT = Path(__file__).resolve().parents[2]


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def ingest(writer, table: str, stop: threading.Event, done: list[int], pause: float) -> None:
    """A dealer at one table: a round every ``pause`` seconds, a new shoe every 60 rounds."""
    number = 0
    while not stop.is_set():
        number += 1
        shoe, at = divmod(number - 1, 60)
        written = writer.append(table, f"s{shoe}", at + 1, Round("BPBBT"[number % 5]))
        assert written.changed
        done.append(number)
        time.sleep(pause)


# PostgreSQL's outage: long enough for the pool's reconnections to fail and back off three times
# (after 1, 2 and 4 s), and for a backlog the recorder takes in several passes (BATCH writes a
# table each) once it is back; longer would only wait longer for the pool's next attempt.
OUTAGE_SECONDS = 6
BATCH = 50


def test_postgresql_down_under_ingest_loses_nothing(parts, postgres_server, redis_client, pg):
    recorder = parts.recorder
    recorder.batch = BATCH
    recorder.start()
    stop, done = threading.Event(), []
    dealer = threading.Thread(target=ingest, args=(parts.writer, "down", stop, done, 0.01))
    dealer.start()
    try:
        time.sleep(1)
        pg.close()
        postgres_server.stop()
        stopped_at = len(done)
        time.sleep(OUTAGE_SECONDS)
        assert len(done) > stopped_at + 100  # ingest went on (a backlog of several batches)
        shoe = parts.tables.current_shoe("down")
        assert parts.states.current("down", shoe)[0] > 0  # and reads
        assert parts.record.behind_seconds(now_ms()) > OUTAGE_SECONDS / 2
        postgres_server.start()
        time.sleep(1)
    finally:
        stop.set()
        dealer.join()
    deadline = time.monotonic() + 30
    while parts.record.behind_seconds(now_ms()) > 0:
        assert time.monotonic() < deadline, "the record did not catch up"
        time.sleep(0.2)
    recorder.stop()
    with psycopg.connect(parts.settings.database_url, autocommit=True) as conn:
        check_record(conn, redis_client, parts.keys, "down")


# The killed recorders' lease: short, since each recorder (forked in a few milliseconds) and the
# test's own wait for the dead one's lease to lapse before taking over; a pass of three writes
# a table renews it well within it (one lapsing under load is taken again on the next pass).
LEASE_MS = 300
# Each recorder is a process of its own, forked from one that imported the app once (an import
# costs a second of CPU, three of them most of the test): this one forks a recorder for each
# line it reads, prints its pid, and once it is dead, how it died (-9: killed by SIGKILL).
RECORDERS = f"""
import os, sys
from api.config import Settings
from api.services import Services

def record():
    os.dup2(2, 1)  # the recorder's own output, if any, stays out of the pids and statuses
    services = Services.build(Settings(redis_url=sys.argv[1], database_url=sys.argv[2]))
    recorder = services.record.recorder
    recorder.batch = 3
    recorder.lease_ms = {LEASE_MS}
    while True:
        recorder.step()

for _ in sys.stdin:
    pid = os.fork()
    if pid == 0:
        try:
            record()
        finally:
            os._exit(1)
    print(pid, flush=True)
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""


def said(process: subprocess.Popen, seconds: float = 20) -> bytes | None:
    """The next line ``process`` prints, or None if it prints none within ``seconds``."""
    if not select.select([process.stdout], [], [], seconds)[0]:
        return None
    return process.stdout.readline()


def test_a_recorder_killed_mid_batch_loses_and_doubles_nothing(
    parts, redis_client, database_url, pg
):
    rounds = [
        (f"k{t}", "s1", n, Round("BPT"[(n * 7 + t) % 3])) for n in range(1, 81) for t in range(30)
    ]
    recorders = subprocess.Popen(
        [sys.executable, "-c", RECORDERS, parts.settings.redis_url, database_url],
        cwd=ROOT,
        env={**os.environ, "ROADS_INGEST_KEYS": KEY},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        bufsize=0,  # unbuffered: a line the select saw is never read ahead into a buffer
    )  # importing the app meanwhile
    try:
        for start in range(0, len(rounds), 200):
            outcomes = parts.writer.append_many(rounds[start : start + 200], "")
            assert all(outcome.changed for outcome in outcomes)
        for _ in range(3):  # killed three times, at whatever point each had reached
            recorders.stdin.write(b"fork\n")
            forked = said(recorders, 30)
            assert forked, "no recorder was forked"
            pid = int(forked)
            try:
                deadline = time.monotonic() + 20
                (before,) = pg.execute("SELECT count(*) FROM record_writes").fetchone()
                while pg.execute("SELECT count(*) FROM record_writes").fetchone()[0] < before + 40:
                    assert time.monotonic() < deadline
                    # Still alive: its death would be the next line printed.
                    assert not select.select([recorders.stdout], [], [], 0)[0], said(recorders)
                    time.sleep(0.01)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            assert said(recorders) == b"-9\n"  # it was running until killed
    finally:
        recorders.stdin.close()  # it forks no more and exits
        try:
            recorders.wait(timeout=10)
        finally:
            recorders.kill()  # nothing, once it has exited
    assert recorders.returncode == 0
    (count,) = pg.execute("SELECT count(*) FROM record_writes").fetchone()
    assert 0 < count < len(rounds)  # the record stopped part of the way
    # The dead holder's lease runs out (within LEASE_MS of its last renewal).
    deadline = time.monotonic() + LEASE_MS / 1000 + 5
    while redis_client.exists(parts.keys.lobby.recorder):
        assert time.monotonic() < deadline, "the dead recorder's lease never ran out"
        time.sleep(0.01)
    record_all(parts.recorder)
    for table in range(30):
        check_record(pg, redis_client, parts.keys, f"k{table}")
    assert pg.execute("SELECT count(*) FROM record_writes").fetchone() == (len(rounds),)


URL = {"REDIS_URL": "redis://127.0.0.1:6379/0"}  # read, never connected to


def test_the_recorders_lease_is_the_setting(record_parts):
    assert Settings.from_env(URL).record_lease_ms == LEASE_MS_DEFAULT == 5000
    assert Settings.from_env({**URL, "ROADS_RECORD_LEASE_MS": "1500"}).record_lease_ms == 1500
    assert record_parts().recorder.lease_ms == LEASE_MS_DEFAULT
    assert record_parts(record_lease_ms=1500).recorder.lease_ms == 1500


def test_the_records_reads_run_under_a_statement_timeout(record_parts):
    database = record_parts(record_timeout_ms=300).record.database
    with database.reading() as conn:
        assert conn.execute("SHOW statement_timeout").fetchone() == ("300ms",)
        assert conn.execute("SHOW transaction_read_only").fetchone() == ("on",)
    with pytest.raises(RecordBusy), database.reading() as conn:
        conn.execute("SELECT pg_sleep(2)")
    with database.transaction() as conn:  # the recorder's batches are not cut at it
        assert conn.execute("SHOW statement_timeout").fetchone() == ("0",)
    default = record_parts().record.database
    with default.reading() as conn:
        assert conn.execute("SHOW statement_timeout").fetchone() == ("5s",)


def test_a_pool_wait_that_times_out_raises_busy_never_a_new_table(parts, redis_client):
    for number, result in enumerate("BPB", 1):
        assert parts.writer.append("held", "s1", number, Round(result)).changed
    record_all(parts.recorder)
    flush(redis_client)  # the table is the record's alone now
    database = parts.record.database
    database.close()
    database.timeout = 0.3  # the pool's wait, short for the test
    pool = database.pool()
    held = [pool.getconn() for _ in range(database.max_size)]  # every connection busy
    try:
        with pytest.raises(RecordBusy, match="did not answer in time"):
            parts.writer.append("held", "s1", 4, Round("T"))
        with pytest.raises(RecordBusy):
            parts.record.reads.shoes("held", 10, None)
    finally:
        for conn in held:
            pool.putconn(conn)
    # Not taken as new meanwhile: the table comes back, and round 4 follows its 3.
    written = parts.writer.append("held", "s1", 4, Round("T"))
    assert written.changed and written.record["round"] == 4
    assert parts.tables.get("held")["current_shoe"] == "s1"
