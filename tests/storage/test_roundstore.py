"""The rounds store on its own (api/storage/rounds.py), without the app: what a write is computed
from, a plan committed whole or not at all (the script compares what the plan was computed from
with what is stored), the version each commit raises, the write's log entry, a shoe's history."""

from __future__ import annotations

import pytest

from api.codecs.stamps import stamped
from api.codecs.writelog import LoggedWrite
from api.plan.plan import Base, Write
from api.plan.planner import plan_append, plan_rewrite
from api.storage.failures import NotFound, Retired
from api.storage.rounds import RoundStore
from api.storage.writescripts import AppendBase
from roads import Round, Scorecard
from roads.shoe import ShoeHead
from tests.layer_parts import Parts, build_parts

# Also run on a local Redis Cluster (see conftest.py): there the lobby step is a second trip.
pytestmark = pytest.mark.cluster


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    return build_parts(backend)


def planned(store: RoundStore, table: str, shoe: str, number: int, result: str) -> Write:
    """The plan of appending ``result`` as round ``number``, computed from a read of the shoe."""
    (read,) = store.read_bases([(table, shoe)])
    scorecard = store.scorecard_at(table, shoe, read.version, read.state)
    assert scorecard is not None
    base = Base(read.head(shoe), read.version, read.variant, scorecard)
    return plan_append(table, shoe, number, Round(result), base)


def feed(store: RoundStore, results: str, table: str = "t1", shoe: str = "s1") -> list[dict]:
    records = []
    for number, result in enumerate(results, start=1):
        plan = planned(store, table, shoe, number, result)
        (reply,) = store.commit([plan])
        assert reply.committed
        records.append(plan.record)
    return records


def test_a_new_shoe_is_read_as_empty(parts):
    store = parts.rounds
    assert store.read_bases([("t1", "s1")]) == [AppendBase(None, "standard", 0, 0, None)]
    empty = store.scorecard_at("t1", "s1", 0, None)
    assert empty is not None and empty.as_dict() == Scorecard.from_rounds([]).as_dict()
    assert store.record("t1", "s1", 1) is None
    with pytest.raises(NotFound, match="table t1 has no shoe s1"):
        store.shoe_rounds("t1", "s1")


def test_a_committed_plan_is_the_shoe_and_raises_its_version(parts):
    store = parts.rounds
    first = planned(store, "t1", "s1", 1, "B")
    (reply,) = store.commit([first])
    assert (reply.committed, reply.version, reply.current) == (True, 1, True)
    assert store.read_bases([("t1", "s1")]) == [
        AppendBase("s1", "standard", 1, 1, stamped(1, first.state))
    ]
    second = planned(store, "t1", "s1", 2, "P")
    (reply,) = store.commit([second])
    assert (reply.committed, reply.version) == (True, 2)
    assert store.record("t1", "s1", 2) == second.record == {**second.record, "round": 2}
    assert store.shoe_rounds("t1", "s1") == (2, [first.record, second.record])
    # This process now knows the shoe's version and the table's current shoe (its own writes).
    assert parts.versions.get("t1", "s1") == 2 and parts.versions.current("t1") == "s1"
    scorecard = store.scorecard_at("t1", "s1", 2, None)  # no state: rebuilt from the rounds
    assert scorecard is not None and scorecard.as_dict() == Scorecard.from_rounds("BP").as_dict()


def test_a_plan_computed_from_a_stale_read_changes_nothing(parts):
    store = parts.rounds
    mine, theirs = planned(store, "t1", "s1", 1, "B"), planned(store, "t1", "s1", 1, "P")
    assert store.commit([mine])[0].committed
    (late,) = store.commit([theirs])  # the shoe is at version 1 now, not 0
    assert (late.committed, late.version) == (False, 1)
    (again,) = store.commit([mine])  # the same plan twice: a repeat is not applied again
    assert not again.committed
    assert store.shoe_rounds("t1", "s1") == (1, [mine.record])
    assert store.scorecard_at("t1", "s1", 0, None) is not None  # version 0: always empty
    assert store.scorecard_at("t1", "s1", 2, None) is None  # a version the shoe is not at


def test_a_plan_whose_head_is_not_the_shoe_changes_nothing(parts):
    store = parts.rounds
    (record,) = feed(store, "B")
    # Computed as if the shoe held 2 rounds (a gap): the version matches, the count does not.
    (read,) = store.read_bases([("t1", "s1")])
    scorecard = Scorecard.from_rounds("BB")
    gap = plan_append(
        "t1", "s1", 3, Round("P"), Base(ShoeHead("s1", 2, "s1"), 1, "standard", scorecard)
    )
    assert not store.commit([gap])[0].committed
    # Computed while s1 was current; then s2 opens: s1 is closed, the plan no longer fits.
    closed = planned(store, "t1", "s1", 2, "P")
    feed(store, "T", shoe="s2")
    assert not store.commit([closed])[0].committed
    assert store.shoe_rounds("t1", "s1") == (1, [record])
    assert read.current == "s1" and store.read_bases([("t1", "s1")])[0].current == "s2"


def test_plans_of_many_tables_commit_in_one_call(parts):
    store = parts.rounds
    tables = [f"m{n}" for n in range(6)]  # on a cluster, spread over its masters
    plans = [planned(store, table, "s1", 1, "BPTBPT"[n]) for n, table in enumerate(tables)]
    replies = store.commit(plans)
    assert [(reply.committed, reply.version) for reply in replies] == [(True, 1)] * 6
    for table, plan in zip(tables, plans, strict=True):
        assert store.shoe_rounds(table, "s1") == (1, [plan.record])
    # Each write's lobby update reached the lobby: every table has its tile with its round.
    tiles = parts.lobby.tiles_of(tables)
    assert [tiles[table].summary["recent"] for table in tables] == [[r] for r in "BPTBPT"]


def test_a_correction_and_a_void_are_committed_over_the_rounds(parts):
    store = parts.rounds
    feed(store, "BPB")
    rounds = [Round(r) for r in "BPB"]
    fix = plan_rewrite(
        "correction", "t1", "s1", 2, rounds, Round("T"), version=3, variant="standard"
    )
    (reply,) = store.commit([fix])
    assert (reply.committed, reply.version) == (True, 4)
    rounds[1] = Round("T")
    void = plan_rewrite(
        "void", "t1", "s1", 1, rounds, rounds[0].voided(), version=4, variant="standard"
    )
    stale = plan_rewrite(
        "void", "t1", "s1", 3, rounds, rounds[2].voided(), version=4, variant="standard"
    )
    assert store.commit([void])[0].committed
    assert not store.commit([stale])[0].committed  # computed at version 4; the shoe is at 5
    version, records = store.shoe_rounds("t1", "s1")
    assert version == 5
    assert [(r["result"], r["void"]) for r in records] == [("B", True), ("T", False), ("B", False)]
    assert store.read_bases([("t1", "s1")])[0].count == 3  # a rewrite adds no round


def test_each_write_is_logged_with_the_key_that_made_it(backend, redis_client):
    store = build_parts(backend, logged=True).rounds
    assert store.commit([planned(store, "t1", "s1", 1, "B")], by="dealer-7")[0].committed
    fix = plan_rewrite(
        "void", "t1", "s1", 1, [Round("B")], Round("B").voided(), version=1, variant="standard"
    )
    store.commit([fix], by="pit-boss")
    log = store.keys.table("t1").log
    entries = [LoggedWrite.decode("t1", i, f) for i, f in redis_client.xrange(log)]
    assert [(e.number, e.kind, e.by, e.shoe) for e in entries] == [
        (1, "round", "dealer-7", "s1"),
        (2, "void", "pit-boss", "s1"),
    ]
    assert entries[0].fields["opens"] == "1" and entries[1].fields["version"] == "2"
    # With the record off the scripts log nothing.
    quiet = build_parts(backend).rounds
    quiet.commit([planned(quiet, "t2", "s1", 1, "B")], by="dealer-7")
    assert not redis_client.exists(quiet.keys.table("t2").log)


def test_a_retired_tables_history_is_read_only_from_the_archive(parts):
    store = parts.rounds
    records = feed(store, "BP")
    with pytest.raises(NotFound, match="table t1 is not retired"):
        store.shoe_rounds("t1", "s1", archived=True)
    assert parts.tables.retire("t1") == ["s1"]
    with pytest.raises(Retired):
        store.shoe_rounds("t1", "s1")
    version, archived = store.shoe_rounds("t1", "s1", archived=True)
    assert archived == records and version == 3  # retiring raised the shoe's version
