"""A value stamped with its shoe version (api.codecs.stamps) is used at that version only."""

from hypothesis import given
from hypothesis import strategies as st

from api.codecs.stamps import at_version, stamped


@given(st.integers(0, 2**53), st.binary())
def test_a_stamped_value_reads_back_at_its_version_only(version, payload):
    value = stamped(version, payload)
    assert at_version(value, version) == payload
    assert at_version(value, version + 1) is None
    assert at_version(None, version) is None
