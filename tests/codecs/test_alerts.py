"""An alert in a table's list of findings (api.codecs.alerts): written by the scripts that raise
alerts, read back for the table's answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from api.codecs import alerts
from api.codecs.alerts import Alert
from api.codecs.jsontext import dumps_text

stream_ids = st.builds("{}-{}".format, st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
kinds = st.from_regex(r"[a-z_]{1,32}", fullmatch=True)
values = st.text() | st.integers(-(2**53), 2**53)
data = st.dictionaries(st.text(max_size=8), values).map(dumps_text)
alert_values = st.builds(Alert, id=stream_ids, kind=kinds, data=data)


@given(alert_values)
def test_an_alert_reads_back_in_python(alert):
    assert Alert.decode(alert.encode()) == alert
    assert Alert.decode(alert.encode().encode()) == alert


WRITE = "return found_entry(ARGV[1], ARGV[2], ARGV[3])"


@given(alert_values)
def test_an_alert_the_scripts_write_reads_back_in_python(lua, alert):
    written = lua(alerts.LUA, WRITE, alert.id, alert.kind, alert.data)
    assert Alert.decode(written) == alert
    assert written.decode() == alert.encode()
