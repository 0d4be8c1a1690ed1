"""The version message (api.codecs.versionmessage) round-trips; the scripts' side of it is held
to the same bytes in tests/storage/test_script_formats.py."""

from hypothesis import given
from hypothesis import strategies as st

from api.codecs.versionmessage import VersionMessage

ids = st.from_regex(r"[A-Za-z0-9_-]{1,64}", fullmatch=True)


@given(ids, ids, st.integers(0, 2**53), st.booleans(), st.integers(0, 2**53))
def test_a_version_message_reads_back(table, shoe, version, current, seq):
    message = VersionMessage(table, shoe, version, current, seq)
    assert VersionMessage.decode(message.encode()) == message
