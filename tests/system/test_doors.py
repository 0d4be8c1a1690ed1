"""The two doors of one deployment (api/doors.py) as they run: started by one command, each a
gunicorn master of its own (the public one's workers at nice 10), behind nginx with the
project's snippet (deploy/nginx/doors.conf), which sends writes to the ingest door and the
rest to the public one; the supervisor forwards SIGTERM and, when a door dies, stops the other
and exits non-zero. And the plan each shape starts (api.doors.planned), without servers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import redis

from api.config import ConfigError
from api.doors import door_of, planned
from api.http.misdirected import MESSAGE
from tests.conftest import KEY
from tests.doors_server import children, doors, nice_of
from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
SNIPPET = ROOT / "deploy" / "nginx" / "doors.conf"
WRAPPER = """pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    include {dir}/doors.conf;
}}
"""


def snippet_for(ingest: str, public: str, listen: str) -> str:
    """The project's snippet with the test's addresses for its defaults (each found once)."""
    text = SNIPPET.read_text()
    for default, address in (
        ("server 127.0.0.1:8001;", f"server {ingest};"),
        ("server 127.0.0.1:8000;", f"server {public};"),
        ("listen 8080;", f"listen {listen};"),
    ):
        assert text.count(default) == 1, default
        text = text.replace(default, address)
    return text


@contextmanager
def nginx(ingest: str, public: str) -> Iterator[str]:
    """nginx with the snippet in front of the two doors, on a free port: its base URL."""
    folder = tempfile.mkdtemp(prefix="roads-doors-nginx-")
    port = free_port()
    Path(folder, "doors.conf").write_text(snippet_for(ingest, public, f"127.0.0.1:{port}"))
    config = Path(folder, "nginx.conf")
    config.write_text(WRAPPER.format(dir=folder))
    process = subprocess.Popen(
        [
            "nginx",
            "-c",
            str(config),
            "-p",
            folder,
            "-e",
            f"{folder}/error.log",
            "-g",
            "daemon off;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert time.monotonic() < deadline and process.poll() is None, "nginx did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGQUIT)
            process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def call(url: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict]:
    """A request with the ingest key; its status and JSON answer (errors too)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={"Content-Type": "application/json", "X-API-Key": KEY},
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_nginx_accepts_the_doors_snippet(tmp_path):
    (tmp_path / "doors.conf").write_text(snippet_for("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"))
    (tmp_path / "nginx.conf").write_text(WRAPPER.format(dir=tmp_path))
    checked = subprocess.run(
        ["nginx", "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path), "-e", "stderr"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


@pytest.fixture
def served(redis_server):
    """Both doors (one worker each) on the tests' emptied Redis."""
    redis.Redis.from_url(redis_server.url).flushdb()
    env = {"REDIS_URL": redis_server.url, "ROADS_INGEST_KEYS": KEY, "ROADS_WORKERS": "1"}
    with doors(env) as running:
        yield running


def test_a_round_through_nginx_goes_to_the_ingest_door_and_reads_back(served):
    masters = served.masters()
    assert set(masters) == {"ingest", "public"}
    assert [nice_of(pid) for pid in children(masters["ingest"])] == [0]
    assert [nice_of(pid) for pid in children(masters["public"])] == [10]
    with nginx(
        served.ingest.removeprefix("http://"), served.public.removeprefix("http://")
    ) as edge:
        status, answer = call(
            f"{edge}/v1/tables/t1/shoes/s1/rounds", "POST", {"round": 1, "result": "B"}
        )
        assert status == 201, answer
        status, answer = call(f"{edge}/v1/tables/t1/shoes/s1/rounds")
        assert status == 200 and [each["result"] for each in answer["rounds"]] == ["B"]
    # Sent to the public door itself: refused, in the service's error shape, without an address.
    status, answer = call(
        f"{served.public}/v1/tables/t1/shoes/s1/rounds", "POST", {"round": 2, "result": "P"}
    )
    assert status == 421 and answer["message"] == MESSAGE and answer["door"] == "public"
    assert "127.0.0.1" not in json.dumps(answer)
    # The ingest door reads too (game servers read back); each door has its own /metrics.
    assert call(f"{served.ingest}/v1/tables/t1/shoes/s1/rounds")[1]["rounds"][0]["round"] == 1
    scraped = {
        door: urllib.request.urlopen(f"{base}/metrics", timeout=10).read().decode()
        for door, base in (("ingest", served.ingest), ("public", served.public))
    }
    assert 'status="201"' in scraped["ingest"] and 'status="201"' not in scraped["public"]
    assert 'status="421"' in scraped["public"]
    # SIGHUP to the supervisor reloads both doors: each master forks new workers.
    workers = {door: set(children(pid)) for door, pid in masters.items()}
    served.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 60
    while any(set(children(pid)) & workers[door] for door, pid in masters.items()):
        assert time.monotonic() < deadline, "a door did not reload on SIGHUP"
        time.sleep(0.2)
    assert served.process.poll() is None and served.masters() == masters
    # SIGTERM to the supervisor stops both doors, and it exits 0.
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=60) == 0
    assert not any(Path(f"/proc/{pid}").exists() for pid in masters.values())


def test_a_door_that_dies_stops_the_other_and_the_supervisor_fails(served):
    masters = served.masters()
    os.kill(masters["public"], signal.SIGKILL)
    assert served.process.wait(timeout=60) != 0
    deadline = time.monotonic() + 10
    while Path(f"/proc/{masters['ingest']}").exists():  # reaped by the supervisor: gone
        assert time.monotonic() < deadline, "the ingest door outlived the supervisor"
        time.sleep(0.1)


def test_the_recorder_runs_once_beside_the_ingest_door(redis_server, database_url):
    redis.Redis.from_url(redis_server.url).flushdb()
    env = {
        "REDIS_URL": redis_server.url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_WORKERS": "1",
        "ROADS_DATABASE_URL": database_url,
    }
    with doors(env) as served:
        masters = served.masters()

        def recorders(door: str) -> list[int]:
            return [
                pid
                for pid in children(masters[door])
                if b"api.record.run" in Path(f"/proc/{pid}/cmdline").read_bytes()
            ]

        deadline = time.monotonic() + 30
        while not recorders("ingest"):
            assert time.monotonic() < deadline, "no recorder beside the ingest door"
            time.sleep(0.2)
        status, _ = call(
            f"{served.ingest}/v1/tables/t1/shoes/s1/rounds", "POST", {"round": 1, "result": "T"}
        )
        assert status == 201
        with psycopg.connect(database_url, autocommit=True) as conn:
            while conn.execute("SELECT count(*) FROM record_writes").fetchone()[0] != 1:
                assert time.monotonic() < deadline + 30, "the round was not recorded"
                time.sleep(0.2)
        assert len(recorders("ingest")) == 1 and recorders("public") == []


# The plan of each shape, before anything starts.
REDIS = {"REDIS_URL": "redis://127.0.0.1:6379/0"}


def test_two_doors_by_default_with_the_recorder_in_the_ingest_door_alone():
    plans = planned(False, None, REDIS)
    assert [each["ROADS_DOOR"] for each in plans] == ["ingest", "public"]
    ingest, public = (door_of(each) for each in plans)
    assert (ingest.bind, ingest.workers, ingest.nice, ingest.recorder) == (
        "127.0.0.1:8001",
        1,
        0,
        True,
    )
    assert (public.bind, public.nice, public.recorder, public.jobs) == (
        "127.0.0.1:8000",
        10,
        False,
        True,
    )
    assert not ingest.jobs


def test_without_a_redis_url_one_door_takes_everything():
    (plan,) = planned(False, None, {"ROADS_DEMO": "1"})
    door = door_of(plan)
    assert (door.name, door.workers, door.nice, door.recorder) == ("both", 1, 0, True)
    with pytest.raises(ConfigError, match="ROADS_DOOR=public needs REDIS_URL"):
        planned(False, "public", {"ROADS_DEMO": "1"})


def test_a_door_of_its_own_keeps_no_recorder_and_single_keeps_it():
    (alone,) = planned(False, "ingest", REDIS)
    assert alone["ROADS_RECORDER"] == "0" and not door_of(alone).recorder
    (single,) = planned(True, None, {**REDIS, "ROADS_NICE": "5"})
    assert door_of(single).recorder and door_of(single).nice == 5
    (chosen,) = planned(False, None, {**REDIS, "ROADS_DOOR": "public"})
    assert chosen["ROADS_DOOR"] == "public" and chosen["ROADS_RECORDER"] == "0"


def test_each_door_scrapes_its_own_metrics_folder_of_the_operators():
    plans = planned(False, None, {**REDIS, "PROMETHEUS_MULTIPROC_DIR": "/m"})
    assert [each["PROMETHEUS_MULTIPROC_DIR"] for each in plans] == ["/m/ingest", "/m/public"]


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"ROADS_DOOR": "side"}, "ROADS_DOOR"),
        ({"ROADS_NICE": "25"}, "ROADS_NICE"),
        ({"ROADS_INGEST_WORKERS": "0"}, "ROADS_INGEST_WORKERS"),
        ({"ROADS_BIND": "127.0.0.1:9000", "ROADS_INGEST_BIND": "127.0.0.1:9000"}, "differ"),
    ],
)
def test_a_setting_the_doors_cannot_use_is_named(env, named):
    with pytest.raises(ConfigError, match=named):
        planned(False, None, {**REDIS, **env})
