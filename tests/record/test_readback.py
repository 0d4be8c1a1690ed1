"""A shoe rebuilt from its chain (api.record.readback): the canonical bytes the ledger hashed
are what comes back, every link checked; any change to a line's bytes, its order or its links
is named at the first bad write."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.codecs.records import encode, record_of
from api.record.ledger import chained
from api.record.readback import Row, TableChain, encode_record, shoe_from, table_chain
from api.storage.coldshoes import RecordTampered
from roads import Round
from roads.chain import GENESIS

NO_TABLE_WRITES = TableChain(None, "standard", [])


def shoe_rows(results: str, *, prev: str = GENESIS, first: int = 1, by: str | None = None):
    """The rows the ledger records for shoe s1 of table t dealt as ``results``."""
    rows, records = [], []
    for offset, result in enumerate(results):
        number, version = first + offset, offset + 1
        record = record_of(offset + 1, Round.from_result(result), version)
        entry = {
            "table": "t",
            "number": number,
            "at": "2026-01-01T00:00:00.000Z",
            "kind": "round",
            "shoe": "s1",
            "round": offset + 1,
            "version": version,
            "record": record,
        }
        if by is not None:
            entry["by"] = by  # a key the reader does not need: ignored
        text, hashed = chained(prev, entry)
        rows.append(Row(number, text, prev, hashed))
        records.append(encode(record))
        prev = hashed
    return rows, records


@given(st.text(alphabet="BPT", min_size=1, max_size=40), st.sampled_from([None, "studio-a"]))
def test_an_intact_chain_gives_back_every_record_byte_for_byte(results, by):
    rows, records = shoe_rows(results, by=by)
    shoe = shoe_from("t", "s1", rows, GENESIS, NO_TABLE_WRITES)
    assert shoe.records == records and shoe.version == len(results)
    assert shoe.head == rows[-1].hash


@given(st.text(alphabet="BPT", min_size=2, max_size=20), st.data())
def test_any_changed_byte_is_named_at_its_write(results, data):
    rows, _ = shoe_rows(results, first=7)
    at = data.draw(st.integers(0, len(rows) - 1))
    text = rows[at].canonical
    place = data.draw(st.integers(0, len(text) - 1))
    changed = text[:place] + ("x" if text[place] != "x" else "y") + text[place + 1 :]
    rows[at] = rows[at]._replace(canonical=changed)
    with pytest.raises(RecordTampered) as broken:
        shoe_from("t", "s1", rows, GENESIS, NO_TABLE_WRITES)
    assert broken.value.number == 7 + at


def test_a_write_taken_out_or_moved_breaks_the_next_link():
    rows, _ = shoe_rows("BPBPB")
    with pytest.raises(RecordTampered) as broken:
        shoe_from("t", "s1", rows[:2] + rows[3:], GENESIS, NO_TABLE_WRITES)
    assert (broken.value.number, broken.value.round) == (4, 4)
    with pytest.raises(RecordTampered) as swapped:
        shoe_from("t", "s1", [rows[1], rows[0], *rows[2:]], GENESIS, NO_TABLE_WRITES)
    assert swapped.value.number == 2


def test_the_first_write_must_link_to_the_previous_shoes_head():
    rows, _ = shoe_rows("BP", prev="ab" * 32)
    assert shoe_from("t", "s1", rows, "ab" * 32, NO_TABLE_WRITES).version == 2
    with pytest.raises(RecordTampered) as broken:
        shoe_from("t", "s1", rows, GENESIS, NO_TABLE_WRITES)
    assert broken.value.number == 1 and "links elsewhere" in str(broken.value)


def test_a_consistent_rewrite_of_the_whole_shoe_passes_here():
    # What the chain alone cannot tell (the signed checkpoints do): documented, pinned.
    rows, _ = shoe_rows("PPP")
    assert shoe_from("t", "s1", rows, GENESIS, NO_TABLE_WRITES).version == 3


def test_a_line_of_another_table_or_shoe_is_refused():
    rows, _ = shoe_rows("B")
    with pytest.raises(RecordTampered, match="misplaced"):
        shoe_from("t", "s2", rows, GENESIS, NO_TABLE_WRITES)
    with pytest.raises(RecordTampered, match="holds none"):
        shoe_from("t", "s1", [], GENESIS, NO_TABLE_WRITES)


def test_the_tables_own_chain_names_it_and_a_later_retirement_raises_the_version():
    entries = [
        {"table": "t", "number": 1, "at": "x", "kind": "table", "name": "T", "variant": "speed"},
        {"table": "t", "number": 9, "at": "x", "kind": "retire", "versions": {"s1": 12}},
    ]
    rows, prev = [], GENESIS
    for entry in entries:
        text, hashed = chained(prev, entry)
        rows.append(Row(entry["number"], text, prev, hashed))
        prev = hashed
    own = table_chain("t", rows)
    assert (own.name, own.variant, own.retirements) == ("T", "speed", [(9, {"s1": 12})])
    shoe, _ = shoe_rows("BP", first=2)
    assert shoe_from("t", "s1", shoe, GENESIS, own).version == 12
    with pytest.raises(RecordTampered) as broken:
        table_chain("t", [rows[0]._replace(canonical=rows[0].canonical.replace("T", "U"))])
    assert broken.value.shoe == "" and "the own writes of table t" in str(broken.value)


def test_a_record_is_encoded_in_the_order_redis_holds_it():
    record = record_of(3, Round.from_result("T").voided(), 9)
    assert encode_record(dict(sorted(record.items()))) == encode(record)
