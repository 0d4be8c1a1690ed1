"""The embedded default: an in-process Redis (fakeredis, with Lua) for trying the service out
without a Redis server. One process only; nothing survives a restart.

fakeredis is the ``demo`` extra's (``pip install 'baccarat-roads[demo]'``), not the service's:
a service with a ``REDIS_URL`` never imports it. Without it the demo's start fails with a
:class:`~api.config.ConfigError` that says what to install, before anything is served."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from types import ModuleType

import redis

from api.config import ConfigError

MISSING = (
    "no REDIS_URL, so this is the embedded demo, but its in-process Redis is not installed: "
    "pip install 'baccarat-roads[demo]' (or set REDIS_URL to a Redis server)"
)


def fakeredis() -> ModuleType:
    """The fakeredis module with its Lua (lupa), or :class:`ConfigError` naming the extra: the
    service's scripts are Lua, so fakeredis without lupa would fail at the first write."""
    try:
        module = import_module("fakeredis")
        import_module("lupa")
    except ModuleNotFoundError as error:
        raise ConfigError(MISSING) from error
    return module


def embedded_redis() -> Callable[[], redis.Redis]:
    """A factory of clients that all talk to one in-process server."""
    module = fakeredis()
    server = module.FakeServer()
    return lambda: module.FakeRedis(server=server)
