"""What the storage layer raises when a write or a read cannot be done as asked (the HTTP layer
maps each to its status, :mod:`api.http.errorreplies`)."""

from __future__ import annotations

import redis


class NotFound(Exception):
    """No such table, shoe or round (404)."""


class Retired(NotFound):
    """The table was retired (``DELETE``): its shoes and rounds are read from the archive now,
    until a write brings it back (404)."""

    def __init__(self, table: str) -> None:
        super().__init__(f"table {table} was retired")
        self.table = table


class NotReplicated(Exception):
    """The write is on the master but not yet confirmed on enough replicas (503, retry)."""

    def __init__(self, replicas: int, wanted: int) -> None:
        super().__init__(
            f"the write is stored but only {replicas} of {wanted} replicas confirmed it in time; "
            "retry (the retry is answered once it is replicated)"
        )


class Contended(Exception):
    """Other writers kept changing the shoe while this write was computed (503, retry)."""


REDIS_DOWN = "the round store (Redis) is unreachable; retry shortly"
# A Redis Cluster failing over: a master is down, a slot moves, a replica is read-only until it
# is promoted. All pass within seconds; the client's retry is safe.
FAILING_OVER = "the round store (Redis Cluster) is failing over; retry shortly"
# Redis at its maxmemory with nothing it may evict (rounds never expire): writes wait for room.
OUT_OF_MEMORY = "the round store (Redis) is out of memory; retry once it has room"
# An ACL that does not let the service's user run a command (Redis names the user: not said).
DENIED = "the round store (Redis) refused this service a command; an operator must look"

# Each message is the whole answer: never the client's own text, which names the server's
# address and port (``Error 111 connecting to 10.0.0.5:6379``) or its user (docs/security.md).

#: The store down, full or failing over: (what Redis's client raises, what a client is told, the
#: cause it is counted under). Each passes; the client's retry is safe.
STORE_UNAVAILABLE: tuple[tuple[type[Exception], str, str], ...] = (
    (redis.exceptions.OutOfMemoryError, OUT_OF_MEMORY, "out_of_memory"),
    (redis.exceptions.NoPermissionError, DENIED, "redis_down"),
    (redis.exceptions.ConnectionError, REDIS_DOWN, "redis_down"),
    (redis.exceptions.TimeoutError, REDIS_DOWN, "redis_down"),
    (redis.exceptions.ClusterError, FAILING_OVER, "failing_over"),
    (redis.exceptions.RedisClusterException, FAILING_OVER, "failing_over"),
    (redis.exceptions.TryAgainError, FAILING_OVER, "failing_over"),
    (redis.exceptions.ReadOnlyError, FAILING_OVER, "failing_over"),
    (redis.exceptions.AskError, FAILING_OVER, "failing_over"),
)

#: Redis refused an argument it was sent (a stream id past 64 bits, a number out of its range):
#: the request's fault, answered 400 naming it. Checked after :data:`STORE_UNAVAILABLE`, whose
#: out-of-memory and read-only errors are kinds of it.
REFUSED = redis.exceptions.ResponseError
