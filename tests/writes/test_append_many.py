"""Rounds of many tables reported together (:meth:`Writer.append_many`): each stored exactly as
its single report would be, the first round of each table planned from one read per node and all
committed at once, one round trip per node, against a real Redis (and a local Redis Cluster).
The writer, without the app (``POST /v1/rounds``, its validation and its statuses:
tests/http/test_batch.py)."""

import random
import time

import pytest

from api.writes.refusals import Conflict
from api.writes.writer import Written
from roads import Round, Scorecard, ShoeError
from roads.simulator import deal_shoe
from tests.layer_parts import Parts, build_parts

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    return build_parts(backend)


def item(table: str, number: int, result: str, shoe: str = "s1") -> tuple:
    return (table, shoe, number, Round(result))


def written(outcomes) -> list[Written]:
    """The outcomes, each of which must be a round written."""
    assert all(isinstance(outcome, Written) for outcome in outcomes), outcomes
    return list(outcomes)


def feed(parts: Parts, results: str, table: str = "t1", shoe: str = "s1") -> None:
    for number, result in enumerate(results, start=1):
        assert parts.writer.append(table, shoe, number, Round(result)).changed


def roads_of(parts: Parts, table: str, shoe: str = "s1") -> dict:
    return parts.states.current(table, shoe)[1].as_dict()


def test_interleaved_shoes_in_batches_give_each_tables_scorecard(parts):
    shoes = {f"g{n}": deal_shoe(40 + n)[:30] for n in range(5)}
    pending = [(table, number) for number in range(1, 31) for table in shoes]
    rng = random.Random(7)
    while pending:
        size = rng.randint(1, 12)
        batch, pending = pending[:size], pending[size:]
        items = [(t, "s1", n, shoes[t][n - 1]) for t, n in batch]
        outcomes = written(parts.writer.append_many(items, ""))
        for (_, number), outcome in zip(batch, outcomes, strict=True):
            assert outcome.changed
            assert outcome.version == number and outcome.record["round"] == number
    for table, rounds in shoes.items():
        assert roads_of(parts, table) == Scorecard.from_rounds(rounds).as_dict()
    tiles = parts.lobby.tiles_of(list(shoes))
    assert {table: tiles[table].summary["rounds_played"] for table in shoes} == {
        table: len(Scorecard.from_rounds(rounds)) for table, rounds in shoes.items()
    }


def test_each_round_gets_the_answer_its_single_report_would(parts):
    feed(parts, "BP", table="a")
    feed(parts, "B", table="b")
    outcomes = parts.writer.append_many(
        [
            item("a", 3, "B"),  # stored
            item("a", 2, "P"),  # the identical round again
            item("b", 3, "P"),  # a gap
            item("b", 1, "P"),  # differs from the stored round 1
            item("c", 1, "T"),  # a new table
            item("a", 4, "P"),  # the same table again, after its round 3
        ],
        "",
    )
    kinds = [
        ("written", o.changed) if isinstance(o, Written) else ("refused", type(o)) for o in outcomes
    ]
    assert kinds == [
        ("written", True),
        ("written", False),
        ("refused", Conflict),
        ("refused", Conflict),
        ("written", True),
        ("written", True),
    ]
    assert outcomes[1].version == 2 and outcomes[1].record["round"] == 2
    assert outcomes[2].details == {"expected_round": 2}
    assert "not the next round" in outcomes[2].message
    assert outcomes[3].details["expected_round"] == 2 and "already stored" in outcomes[3].message
    records = parts.rounds.shoe_rounds("a", "s1")[1]
    assert [r["result"] for r in records] == list("BPBP")
    assert len(parts.rounds.shoe_rounds("b", "s1")[1]) == 1


def test_a_tables_rounds_out_of_order_in_one_batch(parts):
    refused, stored = parts.writer.append_many([item("t1", 2, "B"), item("t1", 1, "P")], "")
    assert isinstance(refused, Conflict) and refused.details == {"expected_round": 1}
    assert isinstance(stored, Written) and stored.changed


def test_a_round_after_a_new_shoe_elsewhere_is_told_the_shoe_is_closed(parts):
    feed(parts, "BB")
    opened, late = parts.writer.append_many([item("t1", 1, "P", shoe="s2"), item("t1", 3, "B")], "")
    assert isinstance(opened, Written) and opened.changed
    assert isinstance(late, Conflict) and "s2" in late.message


def test_another_process_writing_between_two_batches(backend, parts):
    # The second batch is computed from this process's last write: a guess the script checks.
    other = build_parts(backend)
    written(parts.writer.append_many([item("t1", 1, "B"), item("t2", 1, "P")], ""))
    assert other.writer.void("t1", "s1", 1).changed
    assert other.writer.append("t2", "s1", 2, Round("P")).changed
    outcomes = written(
        parts.writer.append_many([item("t1", 2, "P"), item("t2", 3, "B"), item("t2", 2, "P")], "")
    )
    assert [outcome.changed for outcome in outcomes] == [True, True, False]
    assert outcomes[0].version == 3  # after the void's version 2
    expected = Scorecard.from_rounds([Round("B").voided(), Round("P")]).as_dict()
    assert roads_of(parts, "t1") == expected
    assert roads_of(parts, "t2") == Scorecard.from_rounds("PPB").as_dict()


def test_a_batch_of_one_round_per_table_reaches_the_lobby(parts):
    tables = [f"l{n}" for n in range(6)]
    for number, result in enumerate("BPB", start=1):
        # From the second batch on, every round is this process's guess, all sent at once.
        outcomes = written(parts.writer.append_many([item(t, number, result) for t in tables], ""))
        assert all(outcome.changed for outcome in outcomes)
    tiles = parts.lobby.tiles_of(tables)
    for table in tables:
        summary = tiles[table].summary
        assert summary["rounds_played"] == 3 and summary["recent"] == ["B", "P", "B"]


def test_a_batch_of_new_shoes_is_read_and_written_a_round_trip_per_node(
    parts, backend, monkeypatch
):
    sent = []

    def count(commands, send):
        sent.append(len(commands))
        return send(commands)

    feed(parts, "B", table="warm-up")  # the scripts are loaded: no pipeline is sent twice
    monkeypatch.setattr(parts.transport, "hook", count)
    tables = [f"n{n}" for n in range(12)]
    written(parts.writer.append_many([item(table, 1, "P") for table in tables], ""))
    # One Redis server: the reads in one pipeline, the writes (and lobby steps) in another.
    # A cluster of 3 masters: reads and writes one pipeline per master, and the lobby's one.
    assert len(sent) <= (7 if backend.cluster else 2)
    assert sum(sent) >= 2 * len(tables)
    for table in tables:
        assert len(parts.rounds.shoe_rounds(table, "s1")[1]) == 1


@pytest.mark.parametrize("backend", ["cluster"], indirect=True)  # one server is one node
def test_a_batch_writes_to_every_node_at_once(parts, monkeypatch):
    in_flight, most = [], []

    def slow(commands, send):
        in_flight.append(commands)
        most.append(len(in_flight))
        time.sleep(0.05)  # long enough for the other nodes' pipelines to be sent meanwhile
        try:
            return send(commands)
        finally:
            in_flight.remove(commands)

    tables = [f"w{n}" for n in range(12)]
    written(parts.writer.append_many([item(t, 1, "B") for t in tables], ""))  # known here now
    monkeypatch.setattr(parts.transport, "hook", slow)
    written(parts.writer.append_many([item(t, 2, "P") for t in tables], ""))
    assert max(most) >= 2  # 12 tables: on more than one of the 3 masters, in flight together
    for table in tables:
        assert len(parts.rounds.shoe_rounds(table, "s1")[1]) == 2


def test_a_ninth_copy_of_a_card_refuses_that_round_alone_and_stores_the_others(parts):
    """docs/api.md: what depends on the shoe's stored cards is judged per table."""
    for number in range(1, 5):  # eight Aces of Spades dealt (8 decks), two a round
        dealt = Round.from_cards(["AS", "AS"], ["9H", "KD"])
        assert parts.writer.append("full", "s1", number, dealt).changed
    ninth = Round.from_cards(["AS", "2C"], ["9H", "KD"])
    refused, stored = parts.writer.append_many(
        [("full", "s1", 5, ninth), item("other", 1, "B")], ""
    )
    assert isinstance(refused, ShoeError) and "AS" in str(refused)
    assert isinstance(stored, Written) and stored.changed
    assert len(parts.rounds.shoe_rounds("full", "s1")[1]) == 4
    assert len(parts.rounds.shoe_rounds("other", "s1")[1]) == 1
