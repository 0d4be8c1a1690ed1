"""A held connection for the write pipelines (api.nodelink), against a real redis-server: the
replies in order, an error reply raised only once every reply is read, and a connection lost
between two pipelines made again as redis-py's own pipeline would."""

import pytest
import redis

from api.nodelink import Commands, NodeLink


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
    batch.evalsha(sha, 1, "link:k", "a")
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
