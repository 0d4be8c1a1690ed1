"""A connection to one Redis node held for one sender of pipelines, not borrowed for each.

redis-py's pipeline borrows a connection from the client's pool for every execution and, before
using it, checks its socket for unread data: a ``poll``, under gevent a switch to the hub and
back. Of the 125 µs of client CPU a one-command pipeline costs under gevent, that checkout and
the pipeline object take about 70 µs (measured without load, 20,000 pipelines each way). The
service's writes go through :class:`~api.storage.coalesce.Coalescer` batchers, one per node, each
sending one pipeline at a time: such a sender can hold a connection of its own and write its
commands straight to it.

The pool's check did catch a connection the server closed while it lay idle (a restart, a
failover, a ``CLIENT KILL``). A link does the same check, but only before a pipeline that follows
a pause (:data:`IDLE_CHECK_SECONDS`): under load, when pipelines follow each other closely, it
costs nothing; a connection lost in between fails that pipeline, as one lost during it always
did (the writes answer 503 and their retries land), and the next pipeline connects again.

A link leans on redis-py's connection internals (``pack_commands``, ``send_packed_command``,
``read_response``, ``can_read``, ``retry.call_with_retry``): ``tests/storage/test_nodelink.py``
holds them to their contract, so a redis-py upgrade that changes them fails there, loudly.
:class:`PoolLink` is the same interface on redis-py's stock pipeline (``ROADS_TRANSPORT=pipeline``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import redis
import redis.connection

try:
    import hiredis

    _HIREDIS: type | None = redis.connection.HiredisRespSerializer
except ImportError:  # redis-py packs the commands itself
    _HIREDIS = None

IDLE_CHECK_SECONDS = 0.05


class Commands:
    """The commands of one pipeline, as the storage layer queues them: the part of redis-py's
    pipeline interface it uses (``execute_command``)."""

    def __init__(self) -> None:
        self.queued: list[tuple[Any, ...]] = []

    def execute_command(self, *args: Any) -> None:
        self.queued.append(args)

    def __len__(self) -> int:
        return len(self.queued)


class NodeLink:
    """One connection of ``client``'s pool, taken on first use and kept: for a single sender
    (not safe for two at once). It is checked for a close by the server before a pipeline sent
    ``idle_check_seconds`` or more after the last one."""

    def __init__(self, client: redis.Redis, idle_check_seconds: float = IDLE_CHECK_SECONDS) -> None:
        self._pool = client.connection_pool
        self._connection: Any = None
        self._idle_check = idle_check_seconds
        self._last_used = 0.0

    def execute(self, commands: Sequence[tuple[Any, ...]]) -> list:
        """The replies to ``commands``, sent in one write. As with redis-py's pipeline: every
        reply is read before the first error reply is raised (so the connection stays in step),
        and a connection error or timeout disconnects and sends again as the client's retry
        policy allows (safe for the service's scripts, which check the version they were
        computed against)."""
        if self._connection is None:
            self._connection = self._pool.get_connection()  # checked by the pool
        elif time.monotonic() - self._last_used >= self._idle_check:
            _check(self._connection)
        connection = self._connection
        try:
            return connection.retry.call_with_retry(
                lambda: _exchange(connection, commands), lambda error: connection.disconnect()
            )
        finally:
            self._last_used = time.monotonic()


def _check(connection: Any) -> None:
    """Connect again if the server closed the connection, or left anything unread on it (the
    check redis-py's pool makes when it lends a connection)."""
    try:
        if connection.can_read():
            raise redis.ConnectionError("the connection has data nobody asked for")
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        connection.disconnect()
        connection.connect()


def _exchange(connection: Any, commands: Sequence[tuple[Any, ...]]) -> list:
    connection.send_packed_command(_packed(connection, commands))
    replies: list = []
    first_error: redis.ResponseError | None = None
    for _ in commands:
        try:
            replies.append(connection.read_response())
        except redis.ResponseError as error:
            replies.append(error)
            first_error = first_error or error
    if first_error is not None:
        raise first_error
    return replies


def _packed(connection: Any, commands: Sequence[tuple[Any, ...]]) -> list[bytes]:
    """The commands in the Redis protocol, as ``connection.pack_commands`` packs them. With
    hiredis, redis-py hands each command to ``hiredis.pack_command`` after a pass over its words
    (one that splits a first word at its spaces and copies a ``bytearray`` or ``memoryview``);
    a write's two commands hold about 90 words, and that pass cost 3x the packing. The words
    the storage layer sends need neither (a first word of letters; ``str``, ``bytes`` and
    ``int``), so they go to hiredis whole; anything else is packed by redis-py as before."""
    if _HIREDIS is None or type(connection._command_packer) is not _HIREDIS:
        return connection.pack_commands(commands)
    try:
        if any(not (isinstance(command[0], str) and command[0].isalnum()) for command in commands):
            raise TypeError("a first word redis-py would split")
        return [b"".join([hiredis.pack_command(command) for command in commands])]
    except TypeError:  # a bytearray, a memoryview, a bool: redis-py's own way
        return connection.pack_commands(commands)


class PoolLink:
    """redis-py's own pipeline, a connection borrowed from ``client``'s pool for each: the
    stock way, for when the held links are not wanted (``ROADS_TRANSPORT=pipeline``)."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client

    def execute(self, commands: Sequence[tuple[Any, ...]]) -> list:
        """The replies to ``commands``; the first error reply is raised once all are read."""
        pipeline = self._client.pipeline(transaction=False)
        for command in commands:
            pipeline.execute_command(*command)
        return pipeline.execute(raise_on_error=True)
