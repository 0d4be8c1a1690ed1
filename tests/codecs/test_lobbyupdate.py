"""The lobby update and its stored form (api.codecs.lobbyupdate) round-trip."""

from hypothesis import given
from hypothesis import strategies as st

from api.codecs.lobbyupdate import LobbyUpdate, Stored, pairs, parse_pairs

names = st.from_regex(r"[a-z_0-9]{1,16}", fullmatch=True)
events = st.lists(st.tuples(names, st.text(), st.text()), max_size=4).map(tuple)
updates = st.builds(
    LobbyUpdate,
    shoe=names,
    summary=st.text(),
    shape=st.text(),
    matched=st.text(),
    runs=st.text(),
    edges=st.text(),
    events=events,
)


@given(updates)
def test_an_update_reads_back(update):
    assert LobbyUpdate.decode(update.encode()) == update


@given(st.integers(0, 2**53), st.booleans(), updates)
def test_a_stored_update_reads_back(seq, current, update):
    stored = Stored(seq, current, update.encode())
    assert Stored.decode(stored.encode()) == stored
    assert Stored.decode(stored.encode().encode()) == stored


@given(st.dictionaries(names, names))
def test_memberships_read_back(found):
    assert parse_pairs(pairs(found.items())) == found
