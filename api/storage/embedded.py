"""The embedded default: an in-process Redis (fakeredis, with Lua) for trying the service out
without a Redis server. One process only; nothing survives a restart."""

from __future__ import annotations

from collections.abc import Callable

import fakeredis
import redis


def embedded_redis() -> Callable[[], redis.Redis]:
    """A factory of clients that all talk to one in-process server."""
    server = fakeredis.FakeServer()
    return lambda: fakeredis.FakeRedis(server=server)
