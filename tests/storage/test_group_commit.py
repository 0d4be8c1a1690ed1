"""Writes made at once by one process share a round trip (group commit, Transport.pipeline), and
each still gets exactly its own answer. The writer and the transport, without the app."""

import threading

import pytest
import redis

from api.storage.failures import NotReplicated
from api.storage.writescripts import APPEND_ROUND
from roads import Round, Scorecard
from tests.layer_parts import Parts, build_parts

WRITERS = 8


def writes(commands) -> bool:
    """Whether a round trip carries a round's write (reads go through the transport too)."""
    return any(command[:2] == ("EVALSHA", APPEND_ROUND.sha) for command in commands)


def held_first_round_trip(
    parts: Parts, monkeypatch, dealer: Parts | None = None
) -> tuple[threading.Event, threading.Event, list]:
    """Deal table tN its first N rounds (by ``dealer``, another process, if given), then hold
    the next write pipeline in flight until released and count the write pipelines sent from
    then on."""
    for n in range(WRITERS):
        for number in range(1, n + 1):
            (dealer or parts).writer.append(f"t{n}", "s1", number, Round("P"))
    entered, release, sent = threading.Event(), threading.Event(), []

    def execute(commands, send):
        if not writes(commands):
            return send(commands)
        sent.append(len(commands))
        if len(sent) == 1:
            entered.set()
            assert release.wait(10)
        return send(commands)

    monkeypatch.setattr(parts.transport, "hook", execute)
    return entered, release, sent


def write_at_once(parts: Parts, entered, release) -> dict:
    """One writer's round holds the round trip; the others come while it is in flight. Each
    table's outcome: what it was written as, or what was raised."""
    outcomes: dict = {}

    def write(n):
        try:
            outcomes[f"t{n}"] = parts.writer.append(f"t{n}", "s1", n + 1, Round("B"))
        except Exception as error:  # recorded for the assertions
            outcomes[f"t{n}"] = error

    first = threading.Thread(target=write, args=(0,))
    first.start()
    assert entered.wait(10)
    others = [threading.Thread(target=write, args=(n,)) for n in range(1, WRITERS)]
    for thread in others:
        thread.start()
    for _ in range(1000):  # until every other writer waits for the next round trip
        if parts.transport.waiting() == WRITERS - 1:
            break
        threading.Event().wait(0.005)
    else:
        raise AssertionError("the writers never queued")
    release.set()
    for thread in [first, *others]:
        thread.join(10)
    return outcomes


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    return build_parts(backend)


def test_writes_in_flight_together_share_one_round_trip(parts, monkeypatch):
    entered, release, sent = held_first_round_trip(parts, monkeypatch)
    outcomes = write_at_once(parts, entered, release)
    assert {table: outcome.changed for table, outcome in outcomes.items()} == {
        f"t{n}": True for n in range(WRITERS)
    }
    # The first write alone (its script and its lobby step), then the seven others together.
    assert sent == [2, 2 * (WRITERS - 1)]
    for n in range(WRITERS):
        written = outcomes[f"t{n}"]  # its own write's, not a neighbour's
        assert written.version == n + 1 and written.record["round"] == n + 1
        version, scorecard = parts.states.current(f"t{n}", "s1")
        assert version == n + 1
        expected = Scorecard.from_rounds("P" * n + "B").as_dict()["big_road"]
        assert scorecard.as_dict()["big_road"] == expected


def test_each_write_of_a_shared_round_trip_gets_the_replicas_count(
    backend, redis_client, monkeypatch
):
    # A lone server has no replica: every write waits for one, and none is confirmed (the
    # rounds before were dealt by a process that does not wait).
    parts = build_parts(backend, write_replicas=1, write_wait_ms=50)
    entered, release, sent = held_first_round_trip(parts, monkeypatch, build_parts(backend))
    outcomes = write_at_once(parts, entered, release)
    assert len(sent) == 2
    assert len(outcomes) == WRITERS
    for outcome in outcomes.values():
        assert isinstance(outcome, NotReplicated) and "0 of 1 replicas" in str(outcome)


def test_a_lost_shared_round_trip_fails_each_of_its_writes_and_each_retry_lands(parts, monkeypatch):
    entered, release, sent = held_first_round_trip(parts, monkeypatch)
    held = parts.transport.hook

    def second_lost(commands, send):
        # the writers that came while the first was held
        if len(sent) == 1 and len(commands) > 2 and writes(commands):
            sent.append(len(commands))
            raise redis.ConnectionError("connection lost before the pipeline went")
        return held(commands, send)

    monkeypatch.setattr(parts.transport, "hook", second_lost)
    outcomes = write_at_once(parts, entered, release)
    assert outcomes.pop("t0").changed
    assert len(outcomes) == WRITERS - 1
    assert all(isinstance(outcome, redis.ConnectionError) for outcome in outcomes.values())
    for table in outcomes:
        n = int(table[1:])
        assert parts.writer.append(table, "s1", n + 1, Round("B")).changed
        assert len(parts.rounds.shoe_rounds(table, "s1")[1]) == n + 1
