"""The write log's entries, one kind at a time: written through the real write scripts (the
fields spelled only in :mod:`api.codecs.writelog`'s Lua half) and read back by its Python half,
:class:`~api.codecs.writelog.LoggedWrite`, every field equal and none more (Hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from roads import Round
from roads.variants import VARIANTS
from tests.conftest import make_app
from tests.storage.script_parts import SLOW, ids, names


@SLOW
@given(by=names, table=ids)
def test_every_logged_write_carries_the_name_of_its_key(plain, redis_server, by, table):
    """The write scripts log ``by`` with every kind, and :class:`LoggedWrite` reads it back."""
    from api.codecs.writelog import LoggedWrite
    from api.storage.writelog import clock

    services = make_app(redis_server.url).extensions["roads"]
    services.rounds.clock = services.tables.clock = clock(True)
    services.tables.put(table, "A table", "standard", by)
    services.writer.append(table, "s1", 1, Round("B"), by)
    services.writer.replace(table, "s1", 1, Round("P"), by)
    services.writer.void(table, "s1", 1, by)
    services.tables.retire(table, by)
    services.versions.stop()
    log = services.keys.table(table).log
    entries = [LoggedWrite.decode(table, i, fields) for i, fields in plain.xrange(log)]
    assert [(e.kind, e.by) for e in entries] == [
        (kind, by) for kind in ("table", "round", "correction", "void", "retire")
    ]
    assert entries[-1].versions == {"s1": 4}  # the retirement's shoes, read after ``by``
    plain.flushdb()


# Each kind of write the scripts log, written through the real script and read back by
# LoggedWrite: every field it reads is the one written, and the entry holds no other.
def logging_services(redis_server):
    from api.storage.writelog import clock

    services = make_app(redis_server.url).extensions["roads"]
    services.rounds.clock = services.tables.clock = clock(True)
    return services


def logged(plain, services, table):
    from api.codecs.writelog import LoggedWrite

    log = services.keys.table(table).log
    return [LoggedWrite.decode(table, i, fields) for i, fields in plain.xrange(log)]


def read_back(entry, expected: dict) -> dict:
    """``entry``'s values of the names in ``expected`` (the kind, then its properties); the
    entry's own fields are ``by`` and one per property, no more."""
    assert len(entry.fields) == len(expected) - 1  # ``kind`` is not among them
    return {name: getattr(entry, name) for name in expected}


def stored(plain, services, table, shoe, number) -> str:
    return plain.lindex(services.keys.shoe(table, shoe).rounds, number - 1).decode()


@SLOW
@given(table=ids, name=st.text(max_size=40), variant=st.sampled_from(VARIANTS), by=names)
def test_a_logged_table_write_reads_back(plain, redis_server, table, name, variant, by):
    services = logging_services(redis_server)
    services.tables.put(table, name, variant, by)
    services.versions.stop()
    (entry,) = logged(plain, services, table)
    expected = {"kind": "table", "by": by, "name": name, "variant": variant}
    assert read_back(entry, expected) == expected
    plain.flushdb()


@SLOW
@given(table=ids, shoe=ids, results=st.text(alphabet="BPT", min_size=1, max_size=6), by=names)
def test_a_logged_round_reads_back(plain, redis_server, table, shoe, results, by):
    services = logging_services(redis_server)
    versions = [
        services.writer.append(table, shoe, number, Round(result), by).version
        for number, result in enumerate(results, start=1)
    ]
    services.versions.stop()
    entries = logged(plain, services, table)
    assert len(entries) == len(results)
    for number, (entry, version) in enumerate(zip(entries, versions, strict=True), start=1):
        expected = {
            "kind": "round",
            "by": by,
            "shoe": shoe,
            "round_number": number,
            "version": version,
            "record": stored(plain, services, table, shoe, number),
            "opens": number == 1,
        }
        assert read_back(entry, expected) == expected
    plain.flushdb()


@SLOW
@given(table=ids, shoe=ids, void=st.booleans(), number=st.integers(1, 3), by=names)
def test_a_logged_correction_or_void_reads_back(plain, redis_server, table, shoe, void, number, by):
    services = logging_services(redis_server)
    for at, result in enumerate("BPB", start=1):
        services.writer.append(table, shoe, at, Round(result))
    if void:
        written = services.writer.void(table, shoe, number, by)
    else:
        written = services.writer.replace(table, shoe, number, Round("T"), by)
    services.versions.stop()
    entry = logged(plain, services, table)[-1]
    expected = {
        "kind": "void" if void else "correction",
        "by": by,
        "shoe": shoe,
        "round_number": number,
        "version": written.version,
        "record": stored(plain, services, table, shoe, number),
    }
    assert read_back(entry, expected) == expected
    plain.flushdb()


@SLOW
@given(table=ids, shoes=st.lists(ids, min_size=0, max_size=3, unique=True), by=names)
def test_a_logged_retirement_reads_back(plain, redis_server, table, shoes, by):
    services = logging_services(redis_server)
    services.tables.put(table, "A table", "standard")
    for shoe in shoes:
        services.writer.append(table, shoe, 1, Round("B"))
    services.tables.retire(table, by)
    services.versions.stop()
    entry = logged(plain, services, table)[-1]
    raised = {
        shoe: int(plain.hget(services.keys.shoe(table, shoe).info, "version")) for shoe in shoes
    }
    expected = {"kind": "retire", "by": by, "versions": raised}
    assert read_back(entry, expected) == expected
    plain.flushdb()
