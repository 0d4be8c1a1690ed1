"""A plain round report loads as the schema's fields load it (api.http.plainreports): the same
dict in the same order, or the fields' own answer (an error) for anything that is not plain."""

from __future__ import annotations

import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.http.requests import PLAIN, BatchRoundSchema, RoundInSchema

CARD = st.sampled_from(["AS", "10D", "td", "KH", "9c", "2S", "1S", "AX", "", "A S", "AS\n", "é"])
VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 4100),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["B", "P", "T", "b", "X", ""]),
    st.lists(CARD, max_size=4),
    CARD,
)
NAMES = ["round", "player", "banker", "result", "player_pair", "banker_pair", "natural"]
NAMES += ["player_total", "banker_total", "table", "extra"]
PLAIN_CARDS = st.fixed_dictionaries(
    {
        "round": st.integers(0, 4097),
        "player": st.lists(CARD, min_size=1, max_size=4),
        "banker": st.lists(CARD, min_size=1, max_size=4),
    }
)
PLAIN_RESULT = st.fixed_dictionaries(
    {"round": st.integers(0, 4097), "result": st.sampled_from(["B", "P", "T", "X"])},
    optional={
        "player_pair": st.one_of(st.booleans(), st.integers(0, 1)),
        "banker_pair": st.booleans(),
        "natural": st.booleans(),
        "player_total": st.one_of(st.integers(-1, 10), st.booleans()),
        "banker_total": st.integers(-1, 10),
    },
)
# A round's own facts (api.codecs.roundfacts), plain and not.
TEXT = st.sampled_from(["G-1", "a.b:c_d", "x" * 64, "x" * 65, "", "a b", "é", "\u202e", "1\n"])
MOMENT = st.sampled_from(
    ["2026-11-27T08:00:15Z", "2026-11-27t08:00:15.5+02:00", "2026-11-27", "2026-13-01T00:00:00Z"]
)
DEALER = st.one_of(
    st.fixed_dictionaries({"id": TEXT}, optional={"name": st.one_of(TEXT, st.integers())}),
    st.dictionaries(st.sampled_from(["id", "name", "extra"]), TEXT, max_size=3),
    VALUE,
)
FACTS = {
    "game_id": st.one_of(TEXT, VALUE),
    "dealt_at": st.one_of(MOMENT, VALUE),
    "dealer": DEALER,
}
WITH_FACTS = st.one_of(
    st.tuples(PLAIN_CARDS, st.fixed_dictionaries({}, optional=FACTS)),
    st.tuples(PLAIN_RESULT, st.fixed_dictionaries({}, optional=FACTS)),
).map(lambda pair: {**pair[0], **pair[1]})
REPORTS = st.one_of(
    PLAIN_CARDS,
    PLAIN_RESULT,
    WITH_FACTS,
    st.dictionaries(st.sampled_from(NAMES), VALUE, max_size=6),
    VALUE,
)


def fields_load(data):
    """What the fields make of ``data`` (marshmallow's own load, not the plain path)."""
    return outcome(lambda: ma.Schema.load(RoundInSchema(), data))


def outcome(load):
    try:
        return ("loaded", load())
    except ma.ValidationError as error:
        return ("error", error.messages)


@settings(max_examples=900, deadline=None)
@given(REPORTS)
def test_a_report_loads_as_the_fields_load_it(data):
    plain = PLAIN.load(data)
    expected = fields_load(data)
    if plain is not None:  # taken as it is: only what the fields take, made the same
        assert expected[0] == "loaded"
        assert plain == expected[1] and list(plain) == list(expected[1])
    got = outcome(lambda: RoundInSchema().load(data))
    assert got == expected
    if got[0] == "loaded":
        assert list(got[1]) == list(expected[1])


@pytest.mark.parametrize(
    ("data", "plain"),
    [
        ({"round": 3, "player": ["2S", "3D", "9C"], "banker": ["KH", "7C"]}, True),
        ({"banker": ["KH", "7C"], "round": 1, "player": ["10d", "tS"]}, True),
        ({"round": 9, "result": "T", "natural": True, "banker_total": 0}, True),
        ({"round": 1.0, "result": "B"}, False),  # the fields make it 1
        ({"round": True, "result": "B"}, False),
        ({"round": 1, "result": "B", "player": ["AS", "AD"]}, False),
        ({"round": 1, "player": ["AS", "AD"], "banker": ["AS", "AD", "AC", "AH"]}, False),
        ({"round": 1, "result": "B", "game_id": "G-1", "dealer": {"id": "d", "name": "Mei"}}, True),
        ({"round": 1, "result": "B", "dealt_at": "2026-11-27T08:00:15.5+02:00"}, True),
        ({"round": 1, "result": "B", "dealer": {"id": "d", "name": ""}}, False),
        ({"round": 1, "result": "B", "game_id": "G 1"}, False),
    ],
)
def test_the_plain_forms(data, plain):
    assert (PLAIN.load(data) is not None) is plain
    assert outcome(lambda: RoundInSchema().load(data)) == fields_load(data)


def test_a_batch_item_is_never_taken_plain():
    """A batch item is a subclass with fields of its own: a plain round without its table and
    shoe is an error there."""
    with pytest.raises(ma.ValidationError) as raised:
        BatchRoundSchema().load({"round": 1, "player": ["AS", "AD"], "banker": ["KS", "2C"]})
    assert set(raised.value.messages) == {"table", "shoe"}
