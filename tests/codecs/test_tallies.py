"""What the integrity watch keeps of a day's drift (api.codecs.tallies): a round waiting for its
tally, written by the watch's Lua from a write's watch part and read by the drift evaluator, and
a table's tally of a day, read and written by the Lua that adds to it and read by Python."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.codecs import tallies
from api.codecs.tallies import decode_round, decode_tally, encode_round, encode_tally
from api.codecs.watchupdate import encode_append
from roads.integrity.drift import FIELDS, OUTCOMES, DayTally, RoundEntry
from roads.integrity.shoewatch import AppendWatch

ids = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)
days = st.dates().map(lambda day: day.isoformat())
n = len(OUTCOMES)
observed = st.tuples(*[st.sampled_from((-1, 0, 1))] * n)
chances = st.tuples(*[st.floats(0, 1)] * n)
entries = st.builds(
    RoundEntry,
    table=ids,
    day=days,
    observed=observed,
    side=st.sampled_from((0, 1, 2)),
    expect=chances,
    dealer=st.one_of(st.just(""), st.from_regex(r"[A-Za-z0-9_.:-]{1,64}", fullmatch=True)),
)
numbers = st.floats(0, 1e12, allow_subnormal=False)
day_tallies = st.tuples(*[numbers] * len(FIELDS)).map(DayTally)


@given(entries)
def test_a_round_reads_back_in_python(entry):
    assert decode_round(encode_round(entry)) == entry
    assert decode_round(encode_round(entry).encode()) == entry


# The Lua writes the entry from the watch part as api.codecs.watchupdate encodes it: its texts
# of the outcomes and the chances as they are, the side a JSON number.
WRITE_ROUND = """
local tally = cjson.decode(ARGV[3]).tally
return tally_round(ARGV[1], ARGV[2], tally.observed, tally.side, tally.expect, tally.dealer)
"""


@given(entry=entries, shoe=ids, number=st.integers(1, 90))
def test_a_round_the_watch_writes_reads_back_in_python(lua, entry, shoe, number):
    watch = AppendWatch((), (), entry.observed, entry.side, entry.expect, entry.expect, ())
    part = encode_append(entry.table, shoe, number, watch, entry.dealer or None)
    written = lua(tallies.LUA, WRITE_ROUND, entry.table, entry.day, part)
    assert decode_round(written) == entry
    assert written.decode() == encode_round(entry)


@given(day_tallies)
def test_a_tally_reads_back_in_python(tally):
    assert decode_tally(encode_tally(tally)) == tally


READ_AND_WRITE = "return tally_text(read_tally(ARGV[1], tonumber(ARGV[2])))"
NONE_YET = "return tally_text(read_tally(false, tonumber(ARGV[1])))"


def fourteen_digits(value: float) -> float:
    """A number as Lua writes it (tostring: 14 significant digits)."""
    return float(f"{value:.14g}")


@given(day_tallies)
def test_a_tally_the_lua_keeps_reads_back_in_python(lua, tally):
    kept = lua(tallies.LUA, READ_AND_WRITE, encode_tally(tally), len(FIELDS))
    assert decode_tally(kept).values == tuple(map(fourteen_digits, tally.values))


def test_a_table_without_a_tally_of_the_day_starts_from_zeros(lua):
    kept = lua(tallies.LUA, NONE_YET, len(FIELDS))
    assert decode_tally(kept) == DayTally((0.0,) * len(FIELDS))


def test_a_tally_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="numbers"):
        decode_tally("1,2,3")
