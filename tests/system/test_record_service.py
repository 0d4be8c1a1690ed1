"""The record under gunicorn as deployed: the recorder runs in a process of its own beside the
workers, records what they acknowledge, and is started again when killed (SIGKILL) mid-run,
losing nothing and doubling nothing."""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
import urllib.request
from pathlib import Path

import psycopg

from tests.gunicorn_server import send, service

KEY = "record-key"
# The recorders' lease (ROADS_RECORD_LEASE_MS, 5000 by default): short, so that a killed
# recorder's successor waits a second, not five, for the dead holder's lease to lapse.
LEASE_MS = "1000"


def recorders(master: int) -> list[int]:
    """The pids of the master's recorder processes."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = stat.parent.joinpath("cmdline").read_bytes()
        except OSError:
            continue
        if parent == master and b"api.record.run" in command:
            found.append(int(stat.parent.name))
    return found


def recorded(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT count(*) FROM record_writes").fetchone()[0]


def wait_for(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.1)


def test_the_recorder_process_records_and_comes_back_when_killed(redis_server, database_url):
    env = {
        "ROADS_DATABASE_URL": database_url,
        "ROADS_PUBLIC_RECORD": "1",  # read anonymously
        "ROADS_RECORD_LEASE_MS": LEASE_MS,
    }
    with service(redis_server.url, KEY, workers=2, **env) as base:
        wait_for(lambda: len(recorders(base.process.pid)) == 1)
        rounds = [
            {"table": f"r{t}", "shoe": "s1", "round": n, "result": "BPT"[(n + t) % 3]}
            for n in range(1, 41)
            for t in range(5)
        ]
        for start in range(0, 100, 20):
            send(base, "POST", "/v1/rounds", {"rounds": rounds[start : start + 20]}, KEY)
        wait_for(lambda: recorded(database_url) == 100)
        (first,) = recorders(base.process.pid)
        os.kill(first, signal.SIGKILL)
        for start in range(100, 200, 20):
            send(base, "POST", "/v1/rounds", {"rounds": rounds[start : start + 20]}, KEY)
        wait_for(lambda: recorders(base.process.pid) not in ([], [first]))
        wait_for(lambda: recorded(database_url) == 200, seconds=30)  # the dead lease expires
        with urllib.request.urlopen(base + "/v1/tables/r3/shoes") as answer:
            shoes = json.load(answer)["shoes"]
        assert shoes[0]["rounds"] == 40 and shoes[0]["writes"] == 40
        wait_for(
            lambda: (
                json.load(urllib.request.urlopen(base + "/readyz"))["record"]
                == {"behind_seconds": 0}
            )
        )
        master = base.process.pid
        survivors = recorders(master)
    time.sleep(0.5)
    assert all(not Path(f"/proc/{pid}").exists() for pid in survivors)  # stopped with the master
    with psycopg.connect(database_url) as conn:
        numbers = conn.execute(
            "SELECT table_id, array_agg(number ORDER BY number) FROM record_writes GROUP BY 1"
        ).fetchall()
    assert all(list(n) == list(range(1, 41)) for _, n in numbers) and len(numbers) == 5


def test_a_sighup_keeps_one_recorder_and_the_masters_exit_still_stops_it(
    redis_server, database_url
):
    """gunicorn reads its config file again on SIGHUP (a key rotation): the recorder started
    before it is the one the master stops at exit, and no second one starts."""
    with service(redis_server.url, KEY, workers=1, ROADS_DATABASE_URL=database_url) as base:
        master = base.process.pid
        wait_for(lambda: len(recorders(master)) == 1)
        (first,) = recorders(master)
        os.kill(master, signal.SIGHUP)
        time.sleep(2)  # the reload: new workers, the config file executed again
        assert recorders(master) == [first]
        send(base, "POST", "/v1/tables/h1/shoes/s1/rounds", {"round": 1, "result": "B"}, KEY)
        wait_for(lambda: recorded(database_url) >= 1)
    time.sleep(0.5)
    assert not Path(f"/proc/{first}").exists()  # stopped with the master, not orphaned
    # and the metrics directory the master made before the reload went with it
    assert not list(Path(tempfile.gettempdir()).glob(f"roads-metrics-{master}-*"))
