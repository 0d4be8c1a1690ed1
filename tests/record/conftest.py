"""The record's tests: the app on the tests' Redis and a PostgreSQL database of the test's own."""

from __future__ import annotations

import psycopg
import pytest

from tests.conftest import make_app


@pytest.fixture
def record_apps(backend, redis_client, database_url):
    """Makes apps on the test's Redis and database (settings as given); closes their pools."""
    made = []

    def make(**overrides):
        app = make_app(backend.url, cluster=backend.cluster, database_url=database_url, **overrides)
        made.append(app)
        app.extensions["roads"].record.recorder.evict_seconds = 0  # every pass: no waiting
        return app

    yield make
    for app in made:
        app.extensions["roads"].record.database.close()


@pytest.fixture
def record_app(record_apps):
    return record_apps()


@pytest.fixture
def record_client(record_app):
    return record_app.test_client()


@pytest.fixture
def recorder(record_app):
    return record_app.extensions["roads"].record.recorder


@pytest.fixture
def pg(database_url):
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn


def record_all(recorder, passes: int = 50) -> None:
    """Drive the recorder until it finds nothing behind."""
    for _ in range(passes):
        if not recorder.step() and recorder.writelog.behind_since() == 0:
            return
    raise AssertionError("the recorder did not catch up")
