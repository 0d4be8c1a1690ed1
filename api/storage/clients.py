"""Redis clients: how they are made from the settings, and kept per process.

A gunicorn master that preloads the app forks its workers: a client (its pool, its sockets) made
before the fork must never be used in two processes. Objects that keep clients or threads
register with :func:`after_fork` and forget them in the child; they are made again there on first
use.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import redis
from redis.cluster import RedisCluster

from api.config import Settings

Owner = TypeVar("Owner")


def after_fork(owner: Owner, forget: Callable[[Owner], None]) -> None:
    """Call ``forget(owner)`` in every child process forked after this, while ``owner`` lives
    (it is held weakly: an app made in a test and dropped is not kept alive)."""
    ref = weakref.ref(owner)

    def in_child() -> None:
        alive = ref()
        if alive is not None:
            forget(alive)

    os.register_at_fork(after_in_child=in_child)


def connect(settings: Settings, *, blocking_seconds: float = 0) -> redis.Redis:
    """A client for the configured Redis (a ``RedisCluster`` when ``settings.cluster``), with
    short timeouts so an outage answers fast; a client for blocking reads waits
    ``blocking_seconds`` longer."""
    if settings.cluster:
        return RedisCluster.from_url(
            settings.redis_url,
            socket_timeout=settings.redis_timeout + blocking_seconds,
            socket_connect_timeout=settings.redis_timeout,
        )
    return redis.Redis.from_url(
        settings.redis_url,
        socket_timeout=settings.redis_timeout + blocking_seconds,
        socket_connect_timeout=settings.redis_timeout,
        health_check_interval=30,
    )


def database_of(settings: Settings) -> int:
    """The database number the settings' URL names (0 for a cluster or the embedded Redis)."""
    if settings.redis_url is None or settings.cluster:
        return 0
    return int(redis.connection.parse_url(settings.redis_url).get("db", 0) or 0)


@dataclass(frozen=True)
class RedisClients:
    """Factories of the service's two kinds of client: ``plain`` for commands, ``blocking`` for
    blocking reads (the event stream) and ``WAIT`` for replicas, whose socket timeout outlasts
    the wait."""

    plain: Callable[[], redis.Redis]
    blocking: Callable[[], redis.Redis]

    @classmethod
    def of(cls, settings: Settings, *, patience: float) -> RedisClients:
        """The configured Redis, or the embedded one when no URL is set; ``patience``: how much
        longer a blocking client waits."""
        if settings.embedded:
            from api.storage.embedded import embedded_redis

            factory = embedded_redis()
            return cls(factory, factory)
        return cls(
            lambda: connect(settings),
            lambda: connect(settings, blocking_seconds=patience),
        )
