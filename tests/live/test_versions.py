"""The version watch on its own (api/live/versions.py), on the tests' Redis without the app: what
another process commits (a round, a new shoe, a retirement) reaches the watch by pub/sub, the
current shoe follows the table's write order, and the watch waits past the socket's timeout and
stops when told."""

import time

import pytest
import redis

from api.live.versions import VersionWatch
from api.storage.keys import Keyspace
from api.storage.versionfeed import VersionFeed
from roads import Round


def until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.fixture
def watch(parts):
    made = VersionWatch(VersionFeed(parts.clients.plain, parts.keys.versions_channel).subscribe)
    until(lambda: made.token() is not None)
    yield made
    made.stop()


def test_another_processs_writes_new_shoes_and_retirements_reach_the_watch(parts, watch):
    """``parts`` writes as another process would: this watch only hears its messages."""
    for number, result in enumerate("BPB", start=1):
        parts.writer.append("t1", "s1", number, Round(result))
    until(lambda: watch.get("t1", "s1") == 3)
    assert watch.current("t1") == "s1"
    parts.writer.append("t1", "s1", 4, Round("P"))
    until(lambda: watch.get("t1", "s1") == 4)
    parts.writer.append("t1", "s2", 1, Round("B"))  # a new shoe: the table's current moves
    until(lambda: watch.current("t1") == "s2")
    assert watch.get("t1", "s2") == 1 and watch.get("t1", "s1") == 4
    parts.tables.retire("t1")  # the retire raises each shoe's version: no memory of it is used
    until(lambda: watch.get("t1", "s2") == 2)


def test_the_current_shoe_follows_the_tables_write_order(redis_server):
    feed = VersionFeed(lambda: redis.Redis.from_url(redis_server.url), "roads:versions")
    watch = VersionWatch(feed.subscribe)
    until(lambda: watch.token() is not None)
    token = watch.token()
    watch.saw_current("t1", "s2", 7, token)
    watch.saw_current("t1", "s1", 5, token)  # an older read arriving late changes nothing
    assert watch.current("t1") == "s2"
    watch.saw_current("t1", "s3", 8, token)  # this process's own newer write
    assert watch.current("t1") == "s3"
    watch.stop()


def test_the_watch_waits_past_the_socket_timeout_and_stops_when_told(redis_server):
    channel = Keyspace().versions_channel

    connect = lambda: redis.Redis.from_url(redis_server.url, socket_timeout=0.2)  # noqa: E731
    watch = VersionWatch(VersionFeed(connect, channel).subscribe)
    until(lambda: watch.token() is not None)
    subscribed = watch.token()
    time.sleep(1.0)  # five socket timeouts with no message: still the same subscription
    assert watch.token() == subscribed
    redis.Redis.from_url(redis_server.url).publish(channel, "t1\x1fs1\x1f3\x1fcurrent\x1f4")
    until(lambda: watch.get("t1", "s1") == 3)
    assert watch.token() == subscribed
    watch.stop()
    until(lambda: not watch.following(), seconds=2.0)
