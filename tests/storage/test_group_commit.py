"""Writes made at once by one process share a round trip (group commit, Transport.pipeline), and
each still gets exactly its own answer."""

import threading

import redis

from api.storage.writescripts import APPEND_ROUND
from roads import Scorecard
from tests.api_helpers import post_round, roads
from tests.conftest import make_app

WRITERS = 8


def writes(commands) -> bool:
    """Whether a round trip carries a round's write (reads go through the transport too)."""
    return any(command[:2] == ("EVALSHA", APPEND_ROUND.sha) for command in commands)


def held_first_round_trip(app, monkeypatch) -> tuple[threading.Event, threading.Event, list]:
    """Deal table tN its first N rounds, then hold the app's next write pipeline in flight until
    released and count the write pipelines sent from then on."""
    client = app.test_client()
    for n in range(WRITERS):
        for number in range(1, n + 1):
            # (201, or 503 where no write can reach the replicas it waits for)
            assert post_round(client, number, f"t{n}", result="P").status_code in (201, 503)
    entered, release, sent = threading.Event(), threading.Event(), []

    def execute(commands, send):
        if not writes(commands):
            return send(commands)
        sent.append(len(commands))
        if len(sent) == 1:
            entered.set()
            assert release.wait(10)
        return send(commands)

    monkeypatch.setattr(app.extensions["roads"].transport, "hook", execute)
    return entered, release, sent


def write_at_once(app, entered, release) -> dict:
    """One writer's round holds the round trip; the others come while it is in flight."""
    answers: dict = {}

    def write(n):
        answers[f"t{n}"] = post_round(app.test_client(), n + 1, f"t{n}", result="B")

    first = threading.Thread(target=write, args=(0,))
    first.start()
    assert entered.wait(10)
    others = [threading.Thread(target=write, args=(n,)) for n in range(1, WRITERS)]
    for thread in others:
        thread.start()
    transport = app.extensions["roads"].transport
    for _ in range(1000):  # until every other writer waits for the next round trip
        if transport.waiting() == WRITERS - 1:
            break
        threading.Event().wait(0.005)
    else:
        raise AssertionError("the writers never queued")
    release.set()
    for thread in [first, *others]:
        thread.join(10)
    return answers


def test_writes_in_flight_together_share_one_round_trip(redis_server, redis_client, monkeypatch):
    app = make_app(redis_server.url)
    entered, release, sent = held_first_round_trip(app, monkeypatch)
    answers = write_at_once(app, entered, release)
    assert {table: answer.status_code for table, answer in answers.items()} == {
        f"t{n}": 201 for n in range(WRITERS)
    }
    # The first write alone (its script and its lobby step), then the seven others together.
    assert sent == [2, 2 * (WRITERS - 1)]
    client = app.test_client()
    for n in range(WRITERS):
        answer = answers[f"t{n}"].json  # its own write's, not a neighbour's
        assert answer["version"] == n + 1 and answer["round"]["round"] == n + 1
        served = roads(client, table=f"t{n}")
        assert served["version"] == n + 1
        assert served["big_road"] == Scorecard.from_rounds("P" * n + "B").as_dict()["big_road"]


def test_each_write_of_a_shared_round_trip_gets_the_replicas_count(
    redis_server, redis_client, monkeypatch
):
    # A lone server has no replica: every write waits for one, and none is confirmed.
    app = make_app(redis_server.url, write_replicas=1, write_wait_ms=50)
    entered, release, sent = held_first_round_trip(app, monkeypatch)
    answers = write_at_once(app, entered, release)
    assert len(sent) == 2
    for answer in answers.values():
        assert answer.status_code == 503 and "0 of 1 replicas" in answer.json["message"]


def test_a_lost_shared_round_trip_fails_each_of_its_writes_and_each_retry_lands(
    redis_server, redis_client, monkeypatch
):
    app = make_app(redis_server.url)
    entered, release, sent = held_first_round_trip(app, monkeypatch)
    transport = app.extensions["roads"].transport
    held = transport.hook

    def second_lost(commands, send):
        # the writers that came while the first was held
        if len(sent) == 1 and len(commands) > 2 and writes(commands):
            sent.append(len(commands))
            raise redis.ConnectionError("connection lost before the pipeline went")
        return held(commands, send)

    monkeypatch.setattr(transport, "hook", second_lost)
    answers = write_at_once(app, entered, release)
    assert answers.pop("t0").status_code == 201
    assert {answer.status_code for answer in answers.values()} == {503}
    client = app.test_client()
    for table in answers:
        n = int(table[1:])
        assert post_round(client, n + 1, table, result="B").status_code == 201
        assert roads(client, table=table)["rounds"] == n + 1
