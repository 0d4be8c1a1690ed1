"""The read cache on its own (api/storage/readcache.py), without the app: an answer built once at
a shoe's version and then found (in this process's memory, or in Redis by any process), built
again when the version moves, never served at another version than its stamp's, this process's
memory of answers bounded, single-flight builds, and unknown or retired shoes refused."""

from __future__ import annotations

import threading

import pytest

from api.codecs.stamps import stamped
from api.storage.failures import NotFound, Retired
from api.storage.readcache import Answer
from roads import Round, Scorecard
from tests.layer_parts import Parts, build_parts

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


class Builds:
    """A build that records each call: the answer is the version and the shoe's results."""

    def __init__(self, pad: int = 0) -> None:
        self.calls: list[int] = []
        self.pad = pad  # bytes added to each answer (to fill the memory's bound)

    def __call__(self, version: int, scorecard: Scorecard) -> bytes:
        self.calls.append(version)
        results = "".join(entry["result"] for entry in scorecard.as_dict()["bead_plate"])
        return f"{version}:{results}".encode() + b"." * self.pad


class Trips:
    """Counts the round trips to Redis through the transport's seam."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, commands, send):
        self.count += 1
        return send(commands)


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    made = build_parts(backend)
    for number, result in enumerate("BP", start=1):
        made.writer.append("t1", "s1", number, Round(result))
    return made


@pytest.fixture
def elsewhere(backend, parts) -> Parts:
    """Another service process on the same Redis (its own memory, versions known none)."""
    return build_parts(backend)


def test_a_miss_is_built_once_then_found(parts, elsewhere, redis_client):
    build, trips = Builds(), Trips()
    assert parts.reads.get_or_build("t1", "s1", "roads", build) == Answer(2, b"2:BP")
    assert build.calls == [2]
    key = parts.keys.shoe("t1", "s1").cache("roads")
    assert redis_client.get(key) == stamped(2, b"2:BP")  # cached for everyone, at its version
    parts.transport.hook = trips
    assert parts.reads.get_or_build("t1", "s1", "roads", build) == Answer(2, b"2:BP")
    assert build.calls == [2] and trips.count == 0  # from this process's memory
    other = Builds()
    assert elsewhere.reads.get_or_build("t1", "s1", "roads", other) == Answer(2, b"2:BP")
    assert other.calls == []  # another process finds it in Redis


def test_a_new_version_is_built_again(parts):
    build = Builds()
    parts.reads.get_or_build("t1", "s1", "roads", build)
    parts.writer.append("t1", "s1", 3, Round("T"))
    assert parts.reads.get_or_build("t1", "s1", "roads", build) == Answer(3, b"3:BPT")
    parts.writer.void("t1", "s1", 1)
    assert parts.reads.get_or_build("t1", "s1", "roads", build) == Answer(4, b"4:PT")
    assert build.calls == [2, 3, 4]


def test_an_answer_is_served_only_at_its_stamps_version(parts, redis_client):
    key = parts.keys.shoe("t1", "s1").cache("roads")
    redis_client.set(key, stamped(1, b"old"))  # built at version 1; the shoe is at 2
    build = Builds()
    assert parts.reads.get_or_build("t1", "s1", "roads", build) == Answer(2, b"2:BP")
    redis_client.set(parts.keys.shoe("t1", "s1").cache("stats"), stamped(2, b"theirs"))
    assert parts.reads.get_or_build("t1", "s1", "stats", build) == Answer(2, b"theirs")
    assert build.calls == [2]


def test_this_processs_memory_of_answers_is_bounded(backend, parts, redis_client):
    reads = build_parts(backend, answers_bytes=1000).reads
    trips = Trips()
    reads.transport.hook = trips
    build = Builds(pad=400)  # each answer a little over 400 bytes: two fit, not three
    for name in ("a", "b", "c"):
        reads.get_or_build("t1", "s1", name, build)
    before = trips.count
    reads.get_or_build("t1", "s1", "c", build)
    reads.get_or_build("t1", "s1", "b", build)
    assert trips.count == before  # the two newest are in memory
    reads.get_or_build("t1", "s1", "a", build)
    assert trips.count == before + 1  # the oldest was let go: read from Redis again
    assert build.calls == [2, 2, 2]  # and nothing built twice
    big = Builds(pad=2000)  # larger than the whole bound: never kept in memory
    reads.get_or_build("t1", "s1", "big", big)
    before = trips.count
    reads.get_or_build("t1", "s1", "big", big)
    assert trips.count == before + 1 and big.calls == [2]


def test_an_answer_the_client_holds_is_not_sent(parts, redis_client):
    build = Builds()
    answer = parts.reads.get_or_build("t1", "s1", "roads", build, held=lambda v: v == 2)
    assert answer == Answer(2, None) and build.calls == []
    # Its claim to build was let go: the next reader may build at once.
    assert not redis_client.exists(parts.keys.shoe("t1", "s1").claim("roads"))


def test_an_answer_not_shared_stays_in_this_process(parts, redis_client):
    build = Builds()
    for _ in range(2):
        answer = parts.reads.get_or_build("t1", "s1", "odds:x", build, shared=False)
        assert answer == Answer(2, b"2:BP")
    assert build.calls == [2]
    assert not redis_client.exists(parts.keys.shoe("t1", "s1").cache("odds:x"))


def test_a_request_waits_for_the_one_building(parts, redis_client):
    keys = parts.keys.shoe("t1", "s1")
    redis_client.set(keys.claim("roads"), 2, px=5000)  # another request is building it
    done = threading.Timer(0.1, redis_client.set, (keys.cache("roads"), stamped(2, b"built")))
    done.start()
    build = Builds()
    assert parts.reads.get_or_build("t1", "s1", "roads", build) == Answer(2, b"built")
    done.join()
    assert build.calls == []
    # Whose bytes never come: built here once the wait is over.
    redis_client.set(keys.claim("stats"), 2, px=5000)
    assert parts.reads.get_or_build("t1", "s1", "stats", build) == Answer(2, b"2:BP")
    assert build.calls == [2]


def test_an_unknown_or_retired_shoe_is_refused(parts):
    build = Builds()
    with pytest.raises(NotFound, match="table t1 has no shoe s9"):
        parts.reads.get_or_build("t1", "s9", "roads", build)
    parts.tables.retire("t1")
    with pytest.raises(Retired):
        parts.reads.get_or_build("t1", "s1", "roads", build)
    assert build.calls == []
