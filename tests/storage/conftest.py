"""The storage tests' fixtures beyond the suite's: a plain client on the tests' Redis, flushed."""

from __future__ import annotations

import pytest
import redis


@pytest.fixture
def plain(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    yield client
    client.close()
