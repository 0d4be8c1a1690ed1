"""The HTTP tests of the record's answers: apps on the tests' Redis and a PostgreSQL database of
the test's own (the record's own objects are tested without the app, in tests/record)."""

from __future__ import annotations

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
