"""The k-gram index's sightings and the anchors handed to the record (api.codecs.anchors): the
watch's Lua writes and reads a sighting, and writes an anchor the recorder reads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from api.codecs import anchors
from api.codecs.anchors import Anchor
from api.codecs.jsontext import dumps_text

ids = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)
fingerprints = st.binary(min_size=10, max_size=10).map(bytes.hex)
anchor_values = st.builds(
    Anchor, fingerprint=fingerprints, table=ids, shoe=ids, round=st.integers(1, 10**9)
)


@given(anchor_values)
def test_an_anchor_reads_back_in_python(anchor):
    assert Anchor.decode(anchor.encode()) == anchor
    assert Anchor.decode(anchor.encode().encode()) == anchor


# As the watch does: the anchor as the write's watch part carries it ([fingerprint, round], the
# round a JSON number), its sighting indexed, then handed over, and the sighting read back.
WRITE_AND_READ = """
local anchor = cjson.decode(ARGV[3])
local seen = sighting(ARGV[1], ARGV[2], anchor[2])
local t, s, r = parse_sighting(seen)
return {anchor_entry(anchor[1], seen), t, s, r}
"""


@given(anchor_values)
def test_an_anchor_the_watch_writes_reads_back_in_python(lua, anchor):
    carried = dumps_text([anchor.fingerprint, anchor.round])
    entry, *seen = lua(anchors.LUA, WRITE_AND_READ, anchor.table, anchor.shoe, carried)
    assert Anchor.decode(entry) == anchor
    assert entry.decode() == anchor.encode()
    assert [part.decode() for part in seen] == [anchor.table, anchor.shoe, str(anchor.round)]
