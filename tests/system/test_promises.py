"""The service's promises under faults, one drill each (README, "What the service promises").

Each drill is bounded in time and runs against real processes: gunicorn workers, redis-server
with an AOF, a local Redis Cluster. "Acknowledged" means the client got a 200 or 201.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest
import redis

from roads import Scorecard
from tests.api_helpers import delete, feed, keys, post_round, roads
from tests.conftest import KEY, make_app
from tests.gunicorn_server import gunicorn
from tests.redis_cluster import LocalCluster
from tests.redis_server import RedisServer


def send(base: str, path: str, body: dict, timeout: float = 5) -> tuple[int, dict]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-API-Key": KEY},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def history(client, table: str, shoe: str = "s1") -> list[dict]:
    return client.get(f"/v1/tables/{table}/shoes/{shoe}/rounds").json["rounds"]


def test_a_worker_killed_mid_ingest_loses_and_duplicates_nothing(redis_server, redis_client):
    rng = random.Random(3)
    kills_wanted = 4
    kills = 0
    # Each dealer deals whole shoes until the last kill is done, so every kill lands while rounds
    # are being sent, however fast this machine ingests (bounded: at most 40 shoes a table).
    dealt: dict[str, dict[str, str]] = {f"k{n}": {} for n in range(4)}
    acknowledged: dict[tuple[str, str], set[int]] = {}
    retried = {"created": 0, "repeat": 0}
    failures: list[str] = []
    env = {"REDIS_URL": redis_server.url, "ROADS_INGEST_KEYS": KEY, "ROADS_WORKERS": "2"}
    with gunicorn("wsgi:app", env) as base:

        def deal(table: str, shoe: str, results: str) -> None:
            number = 1
            failed = False
            while number <= len(results):
                try:
                    status, _ = send(
                        base,
                        f"/v1/tables/{table}/shoes/{shoe}/rounds",
                        {"round": number, "result": results[number - 1]},
                        2,
                    )
                except (OSError, http.client.HTTPException):  # the worker died: no whole answer
                    failed = True
                    time.sleep(0.05)
                    continue
                if status in (200, 201):
                    if failed:
                        retried["created" if status == 201 else "repeat"] += 1
                    acknowledged.setdefault((table, shoe), set()).add(number)
                    number, failed = number + 1, False
                else:
                    assert status == 503, (table, shoe, number, status, _)
                    time.sleep(0.05)

        def dealer(table: str, seed: int) -> None:
            shoes = random.Random(seed)
            try:
                while kills < kills_wanted and len(dealt[table]) < 40:
                    shoe = f"s{len(dealt[table]) + 1}"
                    dealt[table][shoe] = "".join(shoes.choice("BBPPT") for _ in range(40))
                    deal(table, shoe, dealt[table][shoe])
            except Exception as error:  # reported by the test: a thread's error is otherwise lost
                failures.append(repr(error))

        threads = [threading.Thread(target=dealer, args=(table, rng.random())) for table in dealt]
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads) and kills < kills_wanted:
            time.sleep(0.3)
            workers = base.workers()
            if workers:
                os.kill(rng.choice(workers), signal.SIGKILL)
                kills += 1
        for thread in threads:
            thread.join(timeout=60)
        assert kills == kills_wanted
    assert failures == []
    assert sum(retried.values()) > 0  # some kill took a request down with it
    client = make_app(redis_server.url).test_client()
    for table, shoes in dealt.items():
        for shoe, results in shoes.items():
            stored = history(client, table, shoe)
            assert [r["round"] for r in stored] == list(range(1, len(results) + 1))
            assert "".join(r["result"] for r in stored) == results
            assert acknowledged[table, shoe] == set(range(1, len(results) + 1))


def test_redis_crash_with_aof_keeps_every_round_older_than_a_second():
    server = RedisServer(None, "--appendonly", "yes", "--appendfsync", "everysec").start()
    try:
        app = make_app(server.url)
        client = app.test_client()
        feed(client, "BPPBBPTB")
        time.sleep(1.5)  # everysec: what was acknowledged a second ago is on disk
        server.kill()
        start = time.monotonic()
        assert client.get("/v1/tables/t1/roads").status_code == 503
        assert post_round(client, 9, result="P").status_code == 503
        assert time.monotonic() - start < 3
        server.start()  # same port, same folder: it loads the AOF
        deadline = time.monotonic() + 10
        while client.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert [r["result"] for r in history(client, "t1")] == list("BPPBBPTB")
        assert post_round(client, 9, result="P").status_code == 201  # same app, no restart
        assert roads(client)["rounds"] == 9
    finally:
        server.cleanup()


def test_an_unreplicated_write_is_never_acknowledged(redis_server, redis_client):
    # A lone server has no replica: with ROADS_WRITE_REPLICAS=1 no write can be confirmed.
    client = make_app(redis_server.url, write_replicas=1, write_wait_ms=50).test_client()
    answer = post_round(client, 1, result="B")
    assert answer.status_code == 503 and "replicas" in answer.json["message"]
    again = post_round(client, 1, result="B")  # stored on the master, still not confirmed
    assert again.status_code == 503


@pytest.fixture
def own_cluster():
    # Two replicas per master: after a failover the new master still has one, so writes that
    # wait for a replica (WAIT 1) can resume without anyone restarting the dead node.
    cluster = LocalCluster(replicas=2, node_timeout_ms=1000).start()
    yield cluster
    cluster.cleanup()


def test_a_cluster_master_killed_fails_over_and_loses_nothing_acknowledged(own_cluster):
    app = make_app(own_cluster.url, cluster=True, write_replicas=1, write_wait_ms=2000)
    client = app.test_client()
    results = "BPPBBBPTBP"
    feed(client, results)  # every round acknowledged: on the master and a replica
    assert roads(client)["rounds"] == 10
    own_cluster.kill(own_cluster.master_of("{t:t1}:meta"))
    deadline = time.monotonic() + 30
    unavailable = 0
    while True:  # reads and writes resume once the replica is promoted
        read = client.get("/v1/tables/t1/shoes/s1/roads")
        written = post_round(client, 11, result="B") if read.status_code == 200 else read
        if read.status_code == 200 and written.status_code in (200, 201):
            break
        assert read.status_code in (200, 503) and written.status_code in (200, 201, 503)
        unavailable += 1
        assert time.monotonic() < deadline, "the cluster did not fail over"
        time.sleep(0.2)
    stored = history(client, "t1")
    assert "".join(r["result"] for r in stored) == results + "B"
    assert roads(client)["rounds"] == 11


def test_sixteen_writers_with_retries_on_fifty_shoes(redis_server, redis_client):
    rng = random.Random(11)
    shoes = {f"s{n}": "".join(rng.choice("BBBPPPT") for _ in range(12)) for n in range(50)}
    env = {"REDIS_URL": redis_server.url, "ROADS_INGEST_KEYS": KEY, "ROADS_WORKERS": "2"}
    errors: list = []
    with gunicorn("wsgi:app", env) as base:

        def writer(seed: int) -> None:
            order = random.Random(seed)
            # Every writer feeds every shoe, in its own order, each from where it stands.
            for shoe in order.sample(sorted(shoes), len(shoes)):
                results, number = shoes[shoe], 1
                while number <= len(results):
                    path = f"/v1/tables/w{int(shoe[1:]) % 5}/shoes/{shoe}/rounds"
                    status, body = send(
                        base, path, {"round": number, "result": results[number - 1]}
                    )
                    if status in (200, 201):
                        number += 1
                    elif status == 409 and "expected_round" in body:
                        if "closed" in body["message"]:
                            break  # another writer moved the table on to a later shoe
                        number = body["expected_round"]
                    elif status == 503:
                        time.sleep(order.random() / 50)
                    else:
                        errors.append((status, body))
                        return

        threads = [threading.Thread(target=writer, args=(seed,)) for seed in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not errors
    client = make_app(redis_server.url).test_client()
    for shoe, results in shoes.items():
        table = f"w{int(shoe[1:]) % 5}"
        stored = history(client, table, shoe)
        numbers = [r["round"] for r in stored]
        assert numbers == list(range(1, len(numbers) + 1))  # no gap, no duplicate
        assert "".join(r["result"] for r in stored) == results[: len(stored)]
        served = client.get(f"/v1/tables/{table}/shoes/{shoe}/roads").json
        expected = Scorecard.from_rounds(results[: len(stored)]).as_dict()
        assert {
            k: v for k, v in served.items() if k not in ("table", "shoe", "version")
        } == expected


def test_every_read_rebuilds_after_eviction_under_a_small_maxmemory():
    server = RedisServer(None, "--maxmemory-policy", "volatile-lru").start()
    try:
        admin = redis.Redis.from_url(server.url)
        client = make_app(server.url).test_client()
        rng = random.Random(5)
        tables = {f"e{n}": "".join(rng.choice("BBPPT") for _ in range(50)) for n in range(12)}
        for table, results in tables.items():
            feed(client, results, table=table)
        # Room beyond the rounds and their events for a few pictures, not for all of them:
        # caches get evicted.
        admin.config_set("maxmemory", admin.info("memory")["used_memory"] + 500_000)
        for table in tables:
            for road in ("scorecard", "big_road", "bead_plate", "big_eye_boy"):
                for theme in ("light", "dark"):
                    path = f"/v1/tables/{table}/roads/{road}.png?theme={theme}&scale=2"
                    assert client.get(path).status_code == 200
        info = admin.info("stats")
        assert info["evicted_keys"] > 0  # the caches did not all fit
        other = make_app(server.url).test_client()  # a process that remembers nothing
        for table, results in tables.items():
            assert [r["result"] for r in history(other, table)] == list(results)
            served = other.get(f"/v1/tables/{table}/roads").json
            expected = Scorecard.from_rounds(results).as_dict()
            assert {k: v for k, v in served.items() if k not in ("table", "shoe", "version")} == (
                expected
            )
            assert other.get(f"/v1/tables/{table}/roads/scorecard.png").status_code == 200
    finally:
        server.cleanup()


def test_every_read_rebuilds_when_every_cache_key_is_deleted(redis_server, redis_client):
    client = make_app(redis_server.url).test_client()
    feed(client, "BPPBBBPTBPP", table="c1")
    before = roads(client, "c1")
    picture = client.get("/v1/tables/c1/roads/scorecard.png").data
    delete(redis_client, keys(redis_client, "*:state") + keys(redis_client, "*:cache:*"))
    other = make_app(redis_server.url).test_client()
    assert roads(other, "c1") == before
    assert other.get("/v1/tables/c1/roads/scorecard.png").data == picture
