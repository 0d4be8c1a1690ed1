"""Appends computed from this process's last write (api/writes/recentwrites.py): a guess the write
script checks. Two writers on one Redis stand for two service processes; whatever one does
between the other's writes, every write lands on the shoe as it really is. The layers' objects,
without the app."""

import pytest

import api.plan.planner
from api.writes.recentwrites import LastWrite, RecentWrites
from api.writes.refusals import Conflict
from roads import Round, Scorecard
from tests.layer_parts import Parts, build_parts

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    return build_parts(backend)


@pytest.fixture
def other(backend, redis_client) -> Parts:
    """A second service process on the same Redis."""
    return build_parts(backend)


def feed(parts: Parts, results: str, shoe: str = "s1") -> None:
    for number, result in enumerate(results, start=1):
        assert parts.writer.append("t1", shoe, number, Round(result)).changed


def stored_rounds(parts: Parts, table="t1", shoe="s1") -> list[Round]:
    records = parts.rounds.shoe_rounds(table, shoe)[1]
    rounds = [Round(record["result"]) for record in records]
    return [r.voided() if record["void"] else r for r, record in zip(rounds, records, strict=True)]


def assert_roads_match_the_stored_rounds(parts: Parts) -> None:
    _, scorecard = parts.states.current("t1", "s1")
    assert scorecard.as_dict() == Scorecard.from_rounds(stored_rounds(parts)).as_dict()


def test_two_processes_taking_turns_on_one_shoe(parts, other):
    for number, result in enumerate("BBPTPBBPPB", start=1):
        writer = parts if number % 2 else other
        written = writer.writer.append("t1", "s1", number, Round(result))
        assert written.changed and written.version == number
    assert_roads_match_the_stored_rounds(parts)
    assert_roads_match_the_stored_rounds(other)


def test_a_void_made_elsewhere_between_two_writes(parts, other):
    feed(parts, "BBPB")  # this process now guesses the shoe is at version 4
    assert other.writer.void("t1", "s1", 2).changed
    written = parts.writer.append("t1", "s1", 5, Round("B"))
    assert written.changed
    assert written.version == 6  # after the void's version 5
    assert_roads_match_the_stored_rounds(parts)
    tile = parts.lobby.tiles_of(["t1"])["t1"].summary
    assert tile["rounds_played"] == 4 and tile["recent"] == ["B", "P", "B", "B"]


def test_a_new_shoe_made_elsewhere_closes_the_guessed_one(parts, other):
    feed(parts, "BBP")
    assert other.writer.append("t1", "s2", 1, Round("P")).changed
    with pytest.raises(Conflict, match="closed"):
        parts.writer.append("t1", "s1", 4, Round("B"))


def test_a_pay_table_changed_elsewhere_is_what_the_next_write_uses(parts, other, monkeypatch):
    feed(parts, "BBP")
    other.tables.put("t1", "T1", "no_commission", now=True)  # mid-shoe: at once
    seen = []
    real = api.plan.planner.lobby_update

    def spy(*args, **kwargs):
        seen.append(kwargs["variant"])
        return real(*args, **kwargs)

    monkeypatch.setattr(api.plan.planner, "lobby_update", spy)
    assert parts.writer.append("t1", "s1", 4, Round("B")).changed
    assert seen[-1] == "no_commission"
    # The first try used the stale guess and was refused by the script; the second read afresh.
    assert seen == ["standard", "no_commission"]


def test_writes_go_on_after_the_server_forgets_its_scripts(parts, redis_client):
    feed(parts, "BP")
    redis_client.script_flush()  # as after a restart (on a cluster: every master)
    assert parts.writer.append("t1", "s1", 3, Round("T")).changed
    assert parts.lobby.tiles_of(["t1"])["t1"].summary["rounds_played"] == 3


def test_the_kept_writes_are_bounded_and_taken_once():
    writes = RecentWrites(max_tables=2)
    for table in ("a", "b", "c"):
        writes.keep(table, LastWrite("s1", 1, 1, "standard", Scorecard()))
    assert writes.take("a", "s1") is None  # the least recently written table was dropped
    assert writes.take("b", "s2") is None  # another shoe's guess is no guess (and is dropped)
    assert writes.take("b", "s1") is None
    kept = writes.take("c", "s1")
    assert kept is not None and kept.shoe == "s1"
    assert writes.take("c", "s1") is None  # taken: two requests never share one
