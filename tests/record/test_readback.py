"""A shoe rebuilt from its chain (api.record.readback): the canonical bytes the ledger hashed
are what comes back, every link checked; any change to a line's bytes, its order or its links
is named at the first bad write; a line that is hash-valid but not a write the service makes
(a consistent rewrite) is refused as tampered, never a KeyError; a shoe's row that disagrees
with its chain (a cut at its end, its outcomes rewritten) is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.codecs.records import decode, encode, record_of, round_of
from api.record.ledger import canonical_bytes, chained
from api.record.readback import (
    Row,
    Summary,
    TableChain,
    check_row,
    encode_record,
    shoe_from,
    summary_of,
    table_chain,
)
from api.storage.coldshoes import RecordTampered
from roads import Round
from roads.chain import GENESIS, link

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
    assert shoe.summary == Summary(results, rows[-1].hash, len(results))
    assert summary_of("t", "s1", rows, GENESIS) == shoe.summary


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


def test_the_rows_summary_must_be_the_chains():
    rows, _ = shoe_rows("BPTB")
    chain = summary_of("t", "s1", rows, GENESIS)
    check_row("t", "s1", chain, chain)
    cut = summary_of("t", "s1", rows[:2], GENESIS)  # the last two writes deleted
    with pytest.raises(RecordTampered, match="its row counts 4 writes, the record holds 2"):
        check_row("t", "s1", chain, cut)
    for forged in (chain._replace(head="ab" * 32), chain._replace(outcomes="PPTB")):
        with pytest.raises(RecordTampered, match="its row"):
            check_row("t", "s1", forged, chain)


def line(prev: str, entry: dict, number: int) -> Row:
    """A row whose hash is right for ``entry``, whatever it holds (a consistent rewrite)."""
    return Row(number, canonical_bytes(entry).decode(), prev, link(prev, entry))


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
FIELDS = ("table", "number", "kind", "shoe", "round", "version", "record", "versions", "name")


@given(st.data())
def test_any_json_object_with_right_hashes_is_served_whole_or_refused_never_a_500(data):
    rows, _ = shoe_rows("BPT")
    entries = [decode(row.canonical) for row in rows]
    at = data.draw(st.integers(0, len(entries) - 1))
    entry = entries[at]
    if data.draw(st.booleans()):
        entry = data.draw(st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=4), JSON))
    else:  # some of a true line's fields dropped or replaced, the record's too
        for name in data.draw(st.lists(st.sampled_from(FIELDS), max_size=3)):
            entry.pop(name, None) if data.draw(st.booleans()) else entry.update(
                {name: data.draw(JSON)}
            )
        record = entry.get("record")
        if isinstance(record, dict) and record and data.draw(st.booleans()):
            record[data.draw(st.sampled_from(sorted(record)))] = data.draw(JSON)
    entries[at] = entry
    prev, rewritten = GENESIS, []
    for number, written in enumerate(entries, 1):
        rewritten.append(line(prev, written, number))
        prev = rewritten[-1].hash
    own = data.draw(st.sampled_from([NO_TABLE_WRITES, TableChain(None, "standard", [(9, {})])]))
    try:
        shoe = shoe_from("t", "s1", rewritten, GENESIS, own)
    except RecordTampered as refused:
        assert refused.number in (at + 1, None) and "shoe s1 of table t" in str(refused)
        return
    for record in shoe.records:  # what is served is a round every read can take
        round_of(decode(record))
    assert isinstance(shoe.version, int)


@given(
    st.sampled_from(["table", "retire"]),
    st.dictionaries(st.sampled_from(["name", "variant", "versions"]), JSON | st.just("speed")),
)
def test_any_json_object_as_a_tables_own_write_is_taken_or_refused(kind, fields):
    entry = {"table": "t", "number": 1, "at": "x", "kind": kind, **fields}
    try:
        own = table_chain("t", [line(GENESIS, entry, 1)])
    except RecordTampered as refused:
        assert refused.shoe == "" and refused.number == 1
        return
    assert own.name is None or isinstance(own.name, str)
    assert all(isinstance(v, int) for _, versions in own.retirements for v in versions.values())


@pytest.mark.parametrize(
    "change",
    [
        lambda e: e.pop("version"),
        lambda e: e.update(version="3"),
        lambda e: e.update(round=True),
        lambda e: e.update(round=10**6),
        lambda e: e["record"].pop("result"),
        lambda e: e["record"].update(result="B"),
        lambda e: e.update(record=[]),
        lambda e: e.update(kind=["round"]),
        lambda e: e.update(hash="ab" * 32),
    ],
    ids=[
        "no-version",
        "text-version",
        "bool-round",
        "huge-round",
        "no-result",
        "result-against-cards",
        "record-not-object",
        "kind-not-text",
        "a-link-field-inside",
    ],
)
def test_a_malformed_line_with_right_hashes_is_refused_as_tampered(change):
    rows, _ = shoe_rows("BP")
    entry = decode(rows[1].canonical)
    entry["record"] = {
        **entry["record"],
        "player_cards": ["9H", "KS"],
        "banker_cards": ["KD", "QC"],
    }
    entry["record"]["result"] = "P"  # a natural 9 against 0: a true round, served
    assert shoe_from("t", "s1", [rows[0], line(rows[0].hash, entry, 2)], GENESIS, NO_TABLE_WRITES)
    change(entry)
    with pytest.raises(RecordTampered) as refused:
        shoe_from("t", "s1", [rows[0], line(rows[0].hash, entry, 2)], GENESIS, NO_TABLE_WRITES)
    assert refused.value.number == 2


def test_a_retirement_that_names_other_shoes_or_bad_versions():
    def own(versions):
        entry = {"table": "t", "number": 9, "at": "x", "kind": "retire", "versions": versions}
        return table_chain("t", [line(GENESIS, entry, 9)])

    rows, _ = shoe_rows("BP")
    assert shoe_from("t", "s1", rows, GENESIS, own({"s7": 5})).version == 2  # not this shoe's
    for versions in ({"s1": "12"}, ["s1"], {"s1": None}):
        with pytest.raises(RecordTampered, match="raises no shoe's version"):
            own(versions)
