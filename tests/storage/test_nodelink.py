"""A held connection for the write pipelines (api.storage.nodelink), against a real
redis-server: the replies in order, an error reply raised only once every reply is read, and a
connection lost between two pipelines made again as redis-py's own pipeline would."""

import inspect

import pytest
import redis

from api.storage.nodelink import Commands, NodeLink, PoolLink


@pytest.fixture
def client(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.delete("link:n", "link:s")
    yield client
    client.close()


def commands(*queued: tuple) -> list[tuple]:
    batch = Commands()
    for command in queued:
        batch.execute_command(*command)
    return batch.queued


def test_the_replies_come_in_order_and_scripts_queue_by_sha(client):
    sha = client.script_load("return {KEYS[1], ARGV[1]}")
    batch = Commands()
    batch.execute_command("INCRBY", "link:n", 2)
    batch.execute_command("EVALSHA", sha, 1, "link:k", "a")
    batch.execute_command("GET", "link:n")
    assert len(batch) == 3
    assert NodeLink(client).execute(batch.queued) == [2, [b"link:k", b"a"], b"2"]


def test_an_error_reply_is_raised_after_every_reply_is_read(client):
    link = NodeLink(client)
    client.set("link:s", "text")
    with pytest.raises(redis.ResponseError):
        link.execute(commands(("INCR", "link:n"), ("INCR", "link:s"), ("INCR", "link:n")))
    assert client.get("link:n") == b"2"  # the commands after the error ran too
    # The connection is still in step: the next pipeline gets its own replies, not leftovers.
    assert link.execute(commands(("INCR", "link:n"), ("GET", "link:s"))) == [3, b"text"]


def test_an_unknown_script_raises_noscript(client):
    with pytest.raises(redis.exceptions.NoScriptError):
        NodeLink(client).execute(commands(("EVALSHA", "0" * 40, 0)))


def test_a_connection_lost_during_a_pause_is_made_again(client):
    link = NodeLink(client, idle_check_seconds=0)  # every pipeline follows a pause
    assert link.execute(commands(("CLIENT", "SETNAME", "held-link"), ("INCR", "link:n"))) == [
        b"OK",
        1,
    ]
    assert client.client_kill_filter(_id=held_id(client)) == 1
    assert link.execute(commands(("INCR", "link:n"))) == [2]


def test_a_connection_lost_between_close_pipelines_fails_one_and_the_next_reconnects(client):
    link = NodeLink(client, idle_check_seconds=60)  # no pause: no check
    link.execute(commands(("CLIENT", "SETNAME", "held-link")))
    client.client_kill_filter(_id=held_id(client))
    with pytest.raises(redis.ConnectionError):
        link.execute(commands(("INCR", "link:n")))
    assert link.execute(commands(("INCR", "link:n"))) == [1]


def held_id(client: redis.Redis) -> int:
    (found,) = [c for c in client.client_list() if c["name"] == "held-link"]
    return int(found["id"])


def test_the_redis_py_internals_a_link_relies_on(client):
    # A link writes packed commands and reads replies on a pooled connection itself: should a
    # redis-py upgrade rename or change any of these, this fails first, and loudly.
    connection = client.connection_pool.get_connection()
    try:
        for name in ("pack_commands", "send_packed_command", "read_response", "can_read"):
            assert callable(getattr(connection, name, None)), f"redis-py lost Connection.{name}"
        assert callable(getattr(connection, "disconnect", None))
        assert callable(getattr(connection, "connect", None))
        retry = inspect.signature(connection.retry.call_with_retry)
        assert list(retry.parameters)[:2] == ["do", "fail"], retry
        connection.send_packed_command(connection.pack_commands([("ECHO", "a"), ("ECHO", "b")]))
        assert [connection.read_response(), connection.read_response()] == [b"a", b"b"]
        assert connection.can_read() is False
    finally:
        client.connection_pool.release(connection)


@pytest.mark.parametrize("link", [NodeLink, PoolLink])
def test_both_links_answer_alike(client, link):
    # The commands the service sends (scripts, counters, reads): the same replies either way.
    sha = client.script_load("return {KEYS[1], ARGV[1]}")
    queued = commands(
        ("INCRBY", "link:n", 5), ("EVALSHA", sha, 1, "link:k", "a"), ("GET", "link:n")
    )
    assert link(client).execute(queued) == [5, [b"link:k", b"a"], b"5"]
    with pytest.raises(redis.ResponseError):
        link(client).execute(commands(("INCR", "link:n"), ("HGET", "link:n", "f")))
    assert client.get("link:n") == b"6"  # the command before the error was made


@pytest.mark.parametrize(
    "queued",
    [
        [("EVALSHA", "a" * 40, 2, "k1", "k2", 7, b"\x00\xffstate", "é", -3, 1.5)],
        [("INCR", "link:n"), ("GET", "link:s"), ("WAIT", 1, 100)],
        [("CLIENT SETNAME", "x"), ("SET", "k", bytearray(b"v")), ("SET", "k", memoryview(b"v"))],
        [("SET", "k", b"x" * 20_000), ("SET", "j", True)],
    ],
)
def test_commands_are_packed_as_redis_py_packs_them(client, queued):
    """What a link sends is the bytes redis-py's own packing makes (its fast way when every
    word is plain, redis-py's otherwise; a word hiredis refuses fails as in redis-py)."""
    from api.storage.nodelink import _packed

    connection = client.connection_pool.get_connection()
    try:
        try:
            expected = b"".join(connection.pack_commands(queued))
        except redis.DataError:
            with pytest.raises(redis.DataError):
                _packed(connection, queued)
            return
        assert b"".join(_packed(connection, queued)) == expected
    finally:
        client.connection_pool.release(connection)
