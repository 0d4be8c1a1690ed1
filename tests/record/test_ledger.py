"""The ledger's canonical bytes are the verifier's: orjson's sorted compact JSON equals the
standard library's for every value a write holds (ids, names, cards, counts, flags, nulls)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from api.record.ledger import canonical_bytes
from roads.chain import LINK_FIELDS, canonical

TEXT = st.text(max_size=40)  # any Unicode: names are a client's text
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


# A write's own fields: never the link fields an export adds to it (canonical leaves them out).
FIELDS = TEXT.filter(lambda key: key not in LINK_FIELDS)


@given(st.dictionaries(FIELDS, VALUES, max_size=8))
def test_the_ledgers_canonical_bytes_are_the_verifiers(write):
    assert canonical_bytes(write) == canonical(write)
