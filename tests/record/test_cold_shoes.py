"""Redis is the hot tier: a closed shoe leaves it once recorded and ``ROADS_HOT_SECONDS`` old and
comes back from the record as it was (its records, version and roads); a Redis that lost
everything is rebuilt from the record, and ingest goes on at the next round; a record whose chain
breaks is refused, never brought back. The storage, write and record layers' objects, without the
app (what the HTTP reads serve of a shoe that left, byte for byte: tests/http/test_cold_reads.py).

Most tests let a closed shoe leave at the recorder's next pass (``hot_seconds=0``); the first
waits for ``ROADS_HOT_SECONDS`` itself."""

from __future__ import annotations

import json
import time

import pytest
from prometheus_client import REGISTRY

from api.storage.coldshoes import RecordTampered
from api.storage.failures import NotFound, Retired
from api.writes.refusals import Conflict
from roads import Round
from roads.chain import link
from roads.paytables import pay_table
from roads.presets import PRESETS
from roads.simulator import deal_shoe
from tests.api_helpers import keys as all_keys
from tests.layer_parts import Parts, build_parts
from tests.record.conftest import record_all

# Also run on a local Redis Cluster (see tests/conftest.py).
pytestmark = pytest.mark.cluster

ROUNDS = deal_shoe(7)  # dealt by the rules, with cards


def deal(parts: Parts, table: str, shoe: str, count: int, start: int = 1) -> None:
    for number in range(start, start + count):
        assert parts.writer.append(table, shoe, number, ROUNDS[number - 1]).changed


def dealt(parts: Parts, table: str, shoe: str, results: str) -> None:
    for number, result in enumerate(results, 1):
        assert parts.writer.append(table, shoe, number, Round(result)).changed


def as_served(parts: Parts, table: str, shoe: str) -> tuple:
    """What every read of the shoe is built from: its version and records, and its roads."""
    version, scorecard = parts.states.current(table, shoe)
    return parts.rounds.shoe_rounds(table, shoe), version, scorecard.to_bytes()


def flush(redis_client) -> None:
    """Redis loses everything (every master of a cluster)."""
    for key in all_keys(redis_client, "*"):
        redis_client.delete(key)


def in_redis(redis_client, parts: Parts, table: str, shoe: str) -> list[bool]:
    shoe_keys = parts.keys.shoe(table, shoe)
    return [bool(redis_client.exists(k)) for k in (shoe_keys.info, shoe_keys.rounds)]


def left_redis(parts: Parts, redis_client, table: str, results: str) -> None:
    """Shoe s1 of ``table`` dealt as ``results``, closed by s2, recorded and out of Redis."""
    dealt(parts, table, "s1", results)
    dealt(parts, table, "s2", "B")
    record_all(parts.recorder)
    assert in_redis(redis_client, parts, table, "s1") == [False, False]


def results_of(parts: Parts, table: str, shoe: str = "s1") -> str:
    return "".join(record["result"] for record in parts.rounds.shoe_rounds(table, shoe)[1])


def test_a_closed_shoe_leaves_redis_and_comes_back_as_it_was(record_parts, redis_client):
    parts = record_parts(hot_seconds=1)
    deal(parts, "cold", "s1", 12)
    parts.writer.void("cold", "s1", 3)
    deal(parts, "cold", "s2", 3)  # s1 closes
    before, current = as_served(parts, "cold", "s1"), as_served(parts, "cold", "s2")
    record_all(parts.recorder)
    time.sleep(1.1)
    record_all(parts.recorder)  # a pass with nothing behind evicts
    assert in_redis(redis_client, parts, "cold", "s1") == [False, False]
    assert in_redis(redis_client, parts, "cold", "s2") == [True, True]  # the current shoe stays
    fresh = record_parts(hot_seconds=1)  # another process: nothing of the shoe in its memory
    assert as_served(fresh, "cold", "s1") == before
    assert as_served(fresh, "cold", "s2") == current
    assert in_redis(redis_client, parts, "cold", "s1") == [True, True]


def test_a_shoe_that_left_is_still_closed_to_new_rounds_and_takes_corrections(
    record_parts, redis_client
):
    parts = record_parts(hot_seconds=0)
    deal(parts, "gone", "s1", 4)
    deal(parts, "gone", "s2", 1)
    record_all(parts.recorder)
    assert in_redis(redis_client, parts, "gone", "s1") == [False, False]
    with pytest.raises(Conflict, match="round 1 of shoe s1 is already stored with different"):
        parts.writer.append("gone", "s1", 1, Round("B"))  # brought back to be compared
    record_all(parts.recorder)
    assert in_redis(redis_client, parts, "gone", "s1") == [False, False]  # and left again
    fixed = parts.writer.replace("gone", "s1", 2, Round("T"))
    assert fixed.changed and fixed.record["result"] == "T"
    record_all(parts.recorder)
    assert results_of(record_parts(), "gone")[1] == "T"


def test_redis_losing_everything_is_rebuilt_from_the_record(parts, redis_client):
    parts.tables.put("lost", "Lost", "speed")
    deal(parts, "lost", "s1", 6)
    deal(parts, "lost", "s2", 5)
    before = {shoe: parts.rounds.shoe_rounds("lost", shoe)[1] for shoe in ("s1", "s2")}
    record_all(parts.recorder)
    flush(redis_client)

    for shoe in ("s1", "s2"):
        assert parts.rounds.shoe_rounds("lost", shoe)[1] == before[shoe]
    table = parts.tables.get("lost")
    assert (table["name"], table["variant"], table["current_shoe"]) == ("Lost", "speed", "s2")
    deal(parts, "lost", "s2", 2, start=6)  # ingest goes on at the next round
    assert parts.states.current("lost", "s2")[1].as_dict()["bead_plate"]
    record_all(parts.recorder)
    summary = parts.record.cold.checked(parts.record.reads.shoe, "lost", "s2").as_dict()
    assert summary["rounds"] == 7 and summary["writes"] == 7


def test_a_tables_limits_are_recorded_and_come_back_with_it(parts, redis_client):
    # 1e-7: a number two JSON encoders spell two ways (the record chains the limits' text).
    limits = {"table": {"min": 1e-7, "max": 5000}, "bets": {"tie": {"min": 0.5, "max": 500}}}
    parts.tables.put("capped", "Capped", "standard", limits=limits)
    parts.tables.put("free", "Free", "standard")  # without limits: its chain's entry has none
    deal(parts, "capped", "s1", 3)
    deal(parts, "free", "s1", 3)
    record_all(parts.recorder)
    flush(redis_client)
    assert parts.tables.get("capped")["limits"] == limits
    assert parts.tables.get("free")["limits"] is None
    own = parts.record.reads.table("free")
    assert own is not None and own.limits is None
    # The chain checks with the standard library's encoder too (roads.chain, the verifier).
    exported = list(parts.record.reads.export("capped", ""))
    assert exported and all(
        link(line.prev_hash, json.loads(line.canonical)) == line.hash for line in exported
    )


def test_a_tables_own_pay_table_is_recorded_and_comes_back_with_it(
    parts, record_parts, redis_client
):
    own = pay_table({**PRESETS["lucky_6"].as_dict(), "name": "house_lucky", "source": "ours"})
    parts.tables.put("lucky", "Lucky", own)
    deal(parts, "lucky", "s1", 3)
    record_all(parts.recorder)
    chain = parts.record.reads.table("lucky")
    assert chain is not None and chain.variant == "house_lucky"
    (named, document), *_ = chain.paytables
    assert named == "house_lucky" and pay_table(json.loads(document)) == own  # in the chain
    flush(redis_client)
    fresh = record_parts()  # a process that never read it
    assert fresh.tables.get("lucky")["paytable"] == own.as_dict()
    assert fresh.tables.paytables.resolve("house_lucky") == own
    deal(fresh, "lucky", "s1", 1, start=4)  # priced under it again
    assert fresh.rounds.shoe_rounds("lucky", "s1")[1][-1]["paytable"] == "house_lucky"


@pytest.mark.parametrize("started", [False, True])
def test_a_pay_table_waiting_for_the_next_shoe_comes_back_waiting(
    parts, record_parts, redis_client, started
):
    """A pay table set mid-shoe waits for the next shoe, and a table brought back from the
    record still has it waiting (its current shoe's rounds name the one in force), or in force
    once a shoe's first round was priced under it."""
    own = pay_table({**PRESETS["lucky_6"].as_dict(), "name": "house_next", "source": "ours"})
    parts.tables.put("wait", "Wait", "speed")
    deal(parts, "wait", "s1", 3)
    parts.tables.put("wait", "Wait", own)
    assert parts.tables.get("wait")["next_variant"] == "house_next"
    if started:
        deal(parts, "wait", "s2", 2)
    record_all(parts.recorder)
    flush(redis_client)
    fresh = record_parts()
    table = fresh.tables.get("wait")
    expected = ("house_next", None) if started else ("speed", "house_next")
    assert (table["variant"], table["next_variant"]) == expected
    current = "s2" if started else "s1"
    deal(fresh, "wait", current, 1, start=4 if not started else 3)
    assert fresh.rounds.shoe_rounds("wait", current)[1][-1]["paytable"] == expected[0]
    if not started:
        deal(fresh, "wait", "s2", 1)
        assert fresh.rounds.shoe_rounds("wait", "s2")[1][-1]["paytable"] == "house_next"
        assert fresh.tables.get("wait")["next_variant"] is None


def test_a_new_table_after_a_flush_starts_as_new(parts, redis_client):
    flush(redis_client)
    deal(parts, "brandnew", "s1", 2)
    record_all(parts.recorder)
    shoes, _ = parts.record.reads.shoes("brandnew", 10, None)
    assert [shoe.as_dict()["rounds"] for shoe in shoes] == [2]
    with pytest.raises(NotFound, match="table nosuch has no shoe s1"):
        parts.states.current("nosuch", "s1")


@pytest.mark.parametrize("read", ["roads", "rounds"])
def test_an_unknown_shoe_of_a_known_table_is_not_found(parts, read):
    deal(parts, "known", "s1", 1)
    record_all(parts.recorder)
    reads = {"roads": parts.states.current, "rounds": parts.rounds.shoe_rounds}
    with pytest.raises(NotFound, match="table known has no shoe nope"):
        reads[read]("known", "nope")


def test_a_retired_tables_shoes_that_left_are_read_from_the_archive(record_parts, redis_client):
    parts = record_parts(hot_seconds=0)
    deal(parts, "old", "s1", 5)
    deal(parts, "old", "s2", 2)
    before = parts.rounds.shoe_rounds("old", "s1")
    assert parts.tables.retire("old") == ["s1", "s2"]
    record_all(parts.recorder)
    assert in_redis(redis_client, parts, "old", "s1") == [False, False]
    version, archived = parts.rounds.shoe_rounds("old", "s1", archived=True)
    assert archived == before[1] and version > before[0]  # retiring raised its version
    with pytest.raises(Retired):
        parts.rounds.shoe_rounds("old", "s1")


def test_a_shoe_begun_before_the_record_was_on_never_leaves_redis(
    backend, record_parts, redis_client
):
    deal(build_parts(backend), "early", "s1", 3)  # no record yet: these writes are not logged
    parts = record_parts(hot_seconds=0)
    deal(parts, "early", "s1", 2, start=4)
    deal(parts, "early", "s2", 1)
    record_all(parts.recorder)
    assert in_redis(redis_client, parts, "early", "s1") == [True, True]
    assert len(parts.rounds.shoe_rounds("early", "s1")[1]) == 5


def test_a_tampered_record_column_is_ignored_the_true_round_is_served(
    record_parts, redis_client, pg
):
    left_redis(record_parts(hot_seconds=0), redis_client, "forged", "BPBP")
    pg.execute(
        'UPDATE record_writes SET record = replace(record, \'"result":"B"\', \'"result":"P"\')'
        " WHERE table_id = 'forged' AND shoe = 's1' AND round = 1"
    )
    assert results_of(record_parts(), "forged") == "BPBP"  # rebuilt from what the chain covers


def alerts_counted(kind: str) -> float:
    found = REGISTRY.get_sample_value("roads_integrity_alerts_total", {"kind": kind})
    return found or 0.0


def test_a_tampered_canonical_breaks_the_chain_the_shoe_is_refused_and_alerted(
    record_parts, redis_client, pg
):
    parts = record_parts(hot_seconds=0)
    left_redis(parts, redis_client, "rewritten", "BPBPT")
    pg.execute(
        'UPDATE record_writes SET canonical = replace(canonical, \'"result":"B"\','
        " '\"result\":\"P\"') WHERE table_id = 'rewritten' AND shoe = 's1' AND round = 3"
    )
    counted = alerts_counted("record_tampered")
    fresh = record_parts()
    reads = (
        lambda: fresh.rounds.shoe_rounds("rewritten", "s1"),
        lambda: fresh.states.current("rewritten", "s1"),
        lambda: fresh.writer.replace("rewritten", "s1", 2, Round("T")),  # nothing written over it
    )
    for read in reads:
        with pytest.raises(RecordTampered) as refused:
            read()
        message = str(refused.value)
        assert "shoe s1 of table rewritten" in message and "write 3 (round 3)" in message
    assert in_redis(redis_client, parts, "rewritten", "s1") == [False, False]
    alerts = [a.as_dict() for a in parts.integrity.after("-")]
    tampered = [a for a in alerts if a["type"] == "record_tampered"]
    assert len(tampered) == 1  # once per shoe, however often it is asked for
    assert (tampered[0]["table"], tampered[0]["shoe"], tampered[0]["write"]) == (
        "rewritten",
        "s1",
        3,
    )
    assert tampered[0]["round"] == 3
    assert alerts_counted("record_tampered") == counted + 1


def test_a_write_taken_out_of_a_shoe_breaks_its_chain(record_parts, redis_client, pg):
    left_redis(record_parts(hot_seconds=0), redis_client, "cut", "BPBPB")
    pg.execute("DELETE FROM record_writes WHERE table_id = 'cut' AND shoe = 's1' AND round = 2")
    with pytest.raises(RecordTampered, match=r"write 3 \(round 3\)"):
        record_parts().rounds.shoe_rounds("cut", "s1")


def test_writes_cut_from_the_end_of_a_shoe_are_caught_by_its_row(record_parts, redis_client, pg):
    left_redis(record_parts(hot_seconds=0), redis_client, "trim", "BPBPB")
    where = "WHERE table_id = 'trim' AND shoe = 's1'"
    pg.execute(f"DELETE FROM record_writes {where} AND round >= 4")  # record_shoes left as is
    fresh = record_parts()
    reads = (
        lambda: fresh.rounds.shoe_rounds("trim", "s1"),
        lambda: fresh.states.current("trim", "s1"),
        lambda: fresh.record.cold.checked(fresh.record.reads.shoe, "trim", "s1"),  # its summary
    )
    for read in reads:
        with pytest.raises(RecordTampered, match="its row counts 5 writes, the record holds 3"):
            read()


def test_a_consistent_cut_passes_its_own_shoe_and_breaks_the_next_ones_first_link(
    record_parts, redis_client, pg
):
    # record_shoes set back with the rows: only the signed checkpoints catch this for the shoe
    # itself (docs/security.md); the next shoe linked to the head that was cut.
    left_redis(record_parts(hot_seconds=0), redis_client, "settled", "BPBPB")
    where = "WHERE table_id = 'settled' AND shoe = 's1'"
    pg.execute(f"DELETE FROM record_writes {where} AND round = 5")
    pg.execute(
        f"UPDATE record_shoes SET writes = 4, outcomes = 'BPBP', head = (SELECT hash FROM"
        f" record_writes {where} ORDER BY number DESC LIMIT 1) {where}"
    )
    fresh = record_parts()
    assert results_of(fresh, "settled") == "BPBP"
    with pytest.raises(RecordTampered, match="links elsewhere"):
        fresh.record.cold.checked(fresh.record.reads.shoe, "settled", "s2")


def test_a_table_comes_back_with_its_current_shoe_or_not_at_all(parts, redis_client, pg):
    """Redis lost the table; its current shoe's record is refused (tampered) as a write brings
    the table back: nothing is restored, so the retried write is refused again rather than
    taken as the shoe's first round."""
    deal(parts, "whole", "s1", 5)
    record_all(parts.recorder)
    flush(redis_client)
    pg.execute(
        "UPDATE record_writes SET canonical = replace(canonical, '\"round\":2', '\"round\":9')"
        " WHERE table_id = 'whole' AND shoe = 's1' AND round = 2"
    )
    for _ in range(2):  # the game server retries
        with pytest.raises(RecordTampered, match="fails its chain"):
            parts.writer.append("whole", "s1", 6, Round("B"))
        assert not redis_client.exists(parts.keys.table("whole").meta)  # not brought back
