"""Hot reads come from the process's memory while the version watch is subscribed: no Redis round
trip (api/http/hotreads.py, the read cache's memo), and never a stale answer once another
process's write, new shoe or retirement has arrived (two apps on one Redis). (The version watch
on its own: tests/live/test_versions.py.)"""

import time

from tests.api_helpers import feed, post_round
from tests.conftest import AUTH, make_app

# What the background readers of any app in this test process (event hubs, version watches,
# reconnecting) send on their own: not calls a read made.
BACKGROUND = (
    "cmdstat_info",
    "cmdstat_xread",
    "cmdstat_subscribe",
    "cmdstat_ping",
    "cmdstat_client",
)


def redis_calls(redis_client) -> int:
    stats = redis_client.info("commandstats")
    return sum(value["calls"] for name, value in stats.items() if not name.startswith(BACKGROUND))


def until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_a_hot_json_read_asks_redis_nothing(redis_server, redis_client):
    app = make_app(redis_server.url)
    client = app.test_client()
    feed(client, "BPPB")
    store = app.extensions["roads"]
    until(lambda: client.get("/v1/tables/t1/roads") and store.versions.get("t1", "s1") == 4)
    first = client.get("/v1/tables/t1/roads")
    client.get("/v1/tables/t1/shoes/s1/stats")  # built once, kept
    before = redis_calls(redis_client)
    for _ in range(5):
        again = client.get("/v1/tables/t1/roads")
        assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
        assert client.get("/v1/tables/t1/shoes/s1/stats").status_code == 200
    assert redis_calls(redis_client) == before
    store.versions.stop()


def test_another_processs_writes_and_new_shoes_reach_the_reader(redis_server, redis_client):
    reader, writer = make_app(redis_server.url), make_app(redis_server.url)
    client, other = reader.test_client(), writer.test_client()
    feed(other, "BPB")
    store = reader.extensions["roads"]
    until(lambda: client.get("/v1/tables/t1/roads") and store.versions.get("t1", "s1") == 3)
    assert client.get("/v1/tables/t1/roads").json["rounds"] == 3
    post_round(other, 4, result="P")
    until(lambda: client.get("/v1/tables/t1/roads").json["rounds"] == 4)
    post_round(other, 1, shoe="s2", result="B")  # a new shoe: the reader's current shoe moves
    until(lambda: client.get("/v1/tables/t1/roads").json["shoe"] == "s2")
    assert store.versions.current("t1") == "s2"
    for app in (reader, writer):
        app.extensions["roads"].versions.stop()


def test_a_table_another_process_retires_leaves_the_readers_memory(redis_server, redis_client):
    reader, writer = make_app(redis_server.url), make_app(redis_server.url)
    client, other = reader.test_client(), writer.test_client()
    feed(other, "BPB")
    store = reader.extensions["roads"]
    picture = "/v1/tables/t1/roads/big_road.png"
    until(lambda: client.get(picture) and store.versions.get("t1", "s1") == 3)
    assert client.get(picture).status_code == 200  # served from this process's memory
    assert other.delete("/v1/tables/t1", headers=AUTH).status_code == 200
    # The retire raised the shoe's version: the reader's memory of version 3 is never used.
    until(lambda: store.versions.get("t1", "s1") == 4)
    assert client.get(picture).status_code == 404
    assert client.get("/v1/tables/t1/roads").status_code == 404
    for app in (reader, writer):
        app.extensions["roads"].versions.stop()


def test_a_process_that_only_writes_follows_no_versions_until_it_reads(redis_server):
    """A write does not start the version watch (an ingest door's worker would read every
    write's message for readers it does not have); the first read does, and from then on the
    process's own commits are known to it at once."""
    app = make_app(redis_server.url, door="ingest")
    client = app.test_client()
    feed(client, "BPPB", table="w1")
    store = app.extensions["roads"]
    assert not store.versions.following()
    assert client.get("/v1/tables/w1/roads").json["rounds"] == 4
    until(lambda: store.versions.token() is not None)
    assert post_round(client, 5, table="w1", result="P").status_code == 201
    assert store.versions.get("w1", "s1") == 5
    store.versions.stop()
