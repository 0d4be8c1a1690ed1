"""The writer on its own (api/writes/writer.py), without the app: a round appended is the stored
round and the shoe's roads; the identical round again is answered as it was and changes nothing;
a round that does not fit is refused naming the round expected, and changes nothing; corrections
and voids rewrite the roads; ``by`` reaches the write's log entry. Any results appended one by one
make the roads :meth:`roads.Scorecard.from_rounds` makes of them (Hypothesis)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.codecs.writelog import LoggedWrite
from api.storage.failures import NotFound
from api.writes.refusals import Conflict
from api.writes.writer import Written
from roads import Round, Scorecard
from tests.api_helpers import dumped
from tests.layer_parts import Parts, build_parts

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def parts(backend, redis_client) -> Parts:
    return build_parts(backend)


def roads_of(parts: Parts, table: str = "t1", shoe: str = "s1") -> dict:
    """The shoe's roads as stored (its scorecard at its version)."""
    return parts.states.current(table, shoe)[1].as_dict()


def feed(parts: Parts, results: str, shoe: str = "s1") -> None:
    for number, result in enumerate(results, start=1):
        assert parts.writer.append("t1", shoe, number, Round(result)).changed


def test_a_round_appended_is_stored_with_the_roads(parts):
    written = parts.writer.append("t1", "s1", 1, Round("B"))
    assert written == Written(True, parts.rounds.record("t1", "s1", 1), 1)
    assert written.record["round"] == 1 and written.record["result"] == "B"
    assert parts.writer.append("t1", "s1", 2, Round("P")).version == 2
    assert roads_of(parts) == Scorecard.from_rounds("BP").as_dict()
    assert parts.tables.current_shoe("t1") == "s1"


def test_the_identical_round_again_is_answered_as_it_was(parts, redis_client):
    first = parts.writer.append("t1", "s1", 1, Round("B"))
    parts.writer.append("t1", "s1", 2, Round("P"))
    before = dumped(redis_client)
    again = parts.writer.append("t1", "s1", 1, Round("B"))
    assert again == Written(False, first.record, 1)
    assert dumped(redis_client) == before


def test_a_round_that_does_not_fit_is_refused_and_changes_nothing(parts, redis_client):
    feed(parts, "BP")
    before = dumped(redis_client)
    with pytest.raises(Conflict, match="round 4 is not the next round of shoe s1") as gap:
        parts.writer.append("t1", "s1", 4, Round("B"))
    assert gap.value.details == {"expected_round": 3}
    with pytest.raises(Conflict, match="already stored with different result") as differs:
        parts.writer.append("t1", "s1", 2, Round("B"))
    assert differs.value.details == {"expected_round": 3, "differs": ["result"]}
    assert dumped(redis_client) == before
    feed(parts, "T", shoe="s2")  # a new shoe closes s1
    before = dumped(redis_client)
    with pytest.raises(Conflict, match="shoe s1 is closed: the table's current shoe is s2"):
        parts.writer.append("t1", "s1", 3, Round("B"))
    assert dumped(redis_client) == before


def test_a_correction_rewrites_the_roads(parts):
    feed(parts, "BPB")
    written = parts.writer.replace("t1", "s1", 2, Round("T"))
    assert (written.changed, written.version, written.record["result"]) == (True, 4, "T")
    assert parts.rounds.record("t1", "s1", 2)["result"] == "T"
    assert roads_of(parts) == Scorecard.from_rounds("BTB").as_dict()
    same = parts.writer.replace("t1", "s1", 2, Round("T"))  # the same correction: a retry
    assert (same.changed, same.version) == (False, 4)
    assert parts.writer.append("t1", "s1", 4, Round("P")).version == 5  # appends go on
    assert roads_of(parts) == Scorecard.from_rounds("BTBP").as_dict()


def test_a_void_takes_the_round_out_of_every_road(parts):
    feed(parts, "BPB")
    written = parts.writer.void("t1", "s1", 2)
    assert (written.changed, written.version, written.record["void"]) == (True, 4, True)
    expected = [Round("B"), Round("P").voided(), Round("B")]
    assert roads_of(parts) == Scorecard.from_rounds(expected).as_dict()
    assert parts.writer.void("t1", "s1", 2) == Written(False, written.record, 4)
    with pytest.raises(Conflict, match="round 2 of shoe s1 is void and cannot be corrected"):
        parts.writer.replace("t1", "s1", 2, Round("T"))


def test_a_rewrite_of_a_round_not_stored_is_not_found(parts):
    feed(parts, "B")
    with pytest.raises(NotFound, match=r"shoe s1 has no round 2 \(it has 1\)"):
        parts.writer.replace("t1", "s1", 2, Round("P"))
    with pytest.raises(NotFound, match="table t1 has no shoe s9"):
        parts.writer.void("t1", "s9", 1)


def test_by_is_carried_into_the_log_entry(backend, redis_client):
    writer = build_parts(backend, logged=True).writer
    writer.append("t1", "s1", 1, Round("B"), by="dealer-7")
    writer.replace("t1", "s1", 1, Round("P"), by="pit-boss")
    writer.void("t1", "s1", 1, by="auditor")
    writer.append("t1", "s1", 2, Round("T"))  # the service's own write: no key
    log = writer.store.keys.table("t1").log
    entries = [LoggedWrite.decode("t1", i, f) for i, f in redis_client.xrange(log)]
    assert [(e.kind, e.by, e.fields["number"]) for e in entries] == [
        ("round", "dealer-7", "1"),
        ("correction", "pit-boss", "1"),
        ("void", "auditor", "1"),
        ("round", "", "2"),
    ]


_shoes = itertools.count()  # a new shoe for each example: no flush between them


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(results=st.text(alphabet="BPT", min_size=1, max_size=40))
def test_results_appended_one_by_one_make_the_roads_of_them_all(parts, results):
    shoe = f"h{next(_shoes)}"
    for number, result in enumerate(results, start=1):
        assert parts.writer.append("h", shoe, number, Round(result)).version == number
    assert roads_of(parts, "h", shoe) == Scorecard.from_rounds(results).as_dict()
    records = parts.rounds.shoe_rounds("h", shoe)[1]
    assert "".join(record["result"] for record in records) == results


def test_many_tables_rounds_at_once_are_each_answered_as_its_own_report(backend, redis_client):
    """:meth:`Writer.append_many` over mixed tables (a table this process wrote last, a shoe
    with a cached state, new tables, a table's later rounds, a resent round, one round that
    does not fit): each outcome is what :meth:`Writer.append` answers for that round alone (run
    in a namespace of its own), and the refused round changes nothing."""
    batch, alone = build_parts(backend), build_parts(backend, namespace="alone")
    for parts in (batch, alone):
        feed(parts, "BP")  # t1/s1: this process's last write
        parts.writer.append("t2", "s2", 1, Round("T"))
        parts.writer.recent.take("t2", "s2")  # t2/s2: read back from Redis, its state cached
    items = [
        ("t1", "s1", 3, Round("B")),
        ("t2", "s2", 2, Round("P")),
        ("t3", "s3", 1, Round("B")),
        ("t1", "s1", 4, Round("T")),
        ("t3", "s3", 3, Round("P")),  # a gap: refused
        ("t4", "s4", 1, Round("P")),
        ("t1", "s1", 2, Round("P")),  # the identical round again
    ]
    outcomes = batch.writer.append_many(items, "dealer-7")
    expected: list[Written | Exception] = []
    for item in items:
        try:
            expected.append(alone.writer.append(*item, by="dealer-7"))
        except Conflict as error:
            expected.append(error)
    refused = outcomes[4]
    assert isinstance(refused, Conflict) and isinstance(expected[4], Conflict)
    assert (refused.message, refused.details) == (expected[4].message, expected[4].details)
    assert refused.details["expected_round"] == 2
    answered = [(o.changed, o.version, o.record) for o in outcomes if isinstance(o, Written)]
    alone_answered = [(o.changed, o.version, o.record) for o in expected if isinstance(o, Written)]
    assert answered == alone_answered and len(answered) == 6
    assert [changed for changed, _, _ in answered] == [True] * 5 + [False]
    for table, shoe, results in (("t1", "s1", "BPBT"), ("t2", "s2", "TP"), ("t3", "s3", "B")):
        assert roads_of(batch, table, shoe) == Scorecard.from_rounds(results).as_dict()
    assert len(batch.rounds.shoe_rounds("t3", "s3")[1]) == 1  # the refused round stored nothing
