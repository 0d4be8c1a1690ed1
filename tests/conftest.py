"""Fixtures: a real redis-server started by the tests, and the app on it."""

from __future__ import annotations

import pytest
import redis

from api import create_app
from api.config import Settings

from .redis_server import RedisServer

KEY = "test-ingest-key"
AUTH = {"X-API-Key": KEY}


@pytest.fixture(scope="session")
def redis_server():
    server = RedisServer().start()
    yield server
    server.cleanup()


@pytest.fixture
def redis_client(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    yield client
    client.close()


def make_app(url: str, **overrides):
    settings = Settings(redis_url=url, ingest_keys=(KEY,), **overrides)
    app = create_app(settings)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def app(redis_server, redis_client):
    return make_app(redis_server.url)


@pytest.fixture
def client(app):
    return app.test_client()
