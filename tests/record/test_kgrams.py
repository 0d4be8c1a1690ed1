"""The integrity watch's lasting k-gram index in the record: a replay of a shoe Redis's index no
longer holds is named from the record, with the table, shoe and round it repeats."""

import random

from roads.simulator import deal_rounds, shuffled_shoe
from tests.record.conftest import record_all


def repeats(parts, table):
    """The table's ``repeated_shoe`` findings, as the operators' view lists them."""
    found = [alert.as_dict() for alert in parts.integrity.findings(table)]
    return [f for f in found if f["type"] == "repeated_shoe"]


def deal(parts, rounds, table, shoe, first=1):
    for number, round in enumerate(rounds, start=first):
        assert parts.writer.append(table, shoe, number, round).changed


def test_a_replay_older_than_redis_index_is_named_from_the_record(record_parts, redis_client, pg):
    parts = record_parts(watched=True)
    recorder = parts.recorder
    rounds = list(deal_rounds(shuffled_shoe(random.Random(30))))
    deal(parts, rounds[:30], "t1", "long-ago")
    deal(parts, list(deal_rounds(shuffled_shoe(random.Random(31))))[:30], "t3", "other")
    record_all(recorder)
    recorder.step()  # the anchors handed over after the last write
    held = pg.execute("SELECT count(*), count(DISTINCT shoe) FROM record_kgrams").fetchone()
    assert held[0] > 40 and held[1] == 2
    keys = parts.keys.integrity
    redis_client.delete(keys.index, keys.index_old)  # Redis's index has moved on since
    deal(parts, rounds[:4], "t2", "today")
    assert repeats(parts, "t2") == []  # Redis no longer knows the shoe it repeats
    record_all(recorder)
    recorder.step()
    (found,) = repeats(parts, "t2")
    assert found["shoe"] == "today" and found["from"] == "record"
    assert found["earlier"]["table"] == "t1" and found["earlier"]["shoe"] == "long-ago"
    assert found["earlier"]["round"] == found["from_round"] <= 4
    deal(parts, rounds[4:10], "t2", "today", first=5)
    record_all(recorder)
    recorder.step()
    assert len(repeats(parts, "t2")) == 1  # named once
    assert repeats(parts, "t3") == []
