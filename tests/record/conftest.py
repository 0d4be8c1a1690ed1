"""The record's tests: the storage, write and record layers' objects (:mod:`tests.layer_parts`)
on the tests' Redis and a PostgreSQL database of the test's own, without the Flask app (the
record's HTTP answers are tested in tests/http, with the app: ``record_apps`` there)."""

from __future__ import annotations

import pytest

from tests.layer_parts import Parts, build_parts


@pytest.fixture
def record_parts(backend, redis_client, database_url):
    """Makes the layers' objects with the record on, on the test's Redis and database (settings
    as given); closes their pools. Each call stands for a process of its own."""
    made: list[Parts] = []

    def make(**overrides) -> Parts:
        parts = build_parts(backend, database_url=database_url, **overrides)
        parts.recorder.evict_seconds = 0  # every pass: no waiting
        made.append(parts)
        return parts

    yield make
    for parts in made:
        parts.close()


@pytest.fixture
def parts(record_parts) -> Parts:
    return record_parts()


@pytest.fixture
def recorder(parts):
    return parts.recorder


def record_all(recorder, passes: int = 50) -> None:
    """Drive the recorder until it finds nothing behind."""
    for _ in range(passes):
        if not recorder.step() and recorder.writelog.behind_since() == 0:
            return
    raise AssertionError("the recorder did not catch up")
