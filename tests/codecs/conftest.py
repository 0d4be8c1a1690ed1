"""The codecs' Lua halves, run on the tests' redis-server: a format's fragment (its ``.lua``
file, as the scripts include it) ahead of a few lines that call it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib.resources.abc import Traversable
from typing import Any

import pytest
import redis


@pytest.fixture(scope="session")
def lua(redis_server) -> Iterator[Callable[..., Any]]:
    """``lua(fragment, body, *args)``: ``body`` run after ``fragment``'s functions, ``args`` its
    ARGV (no keys)."""
    client = redis.Redis.from_url(redis_server.url)

    def run(fragment: Traversable, body: str, *args: Any) -> Any:
        return client.eval(fragment.read_text() + body, 0, *args)

    yield run
    client.close()
