"""A moment in JSON (api/codecs/times.py): what it writes it reads back, every RFC 3339 form is
read, and nothing else is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.codecs.times import read_rfc3339, utc_text

MOMENTS = st.datetimes(
    min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
)


@given(MOMENTS)
def test_what_it_writes_it_reads_back_to_the_millisecond(moment):
    text = utc_text(moment)
    assert text.endswith("Z") and len(text) == 24
    assert read_rfc3339(text) == moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def test_a_moment_is_written_in_utc():
    east = datetime(2026, 11, 27, 10, 0, 15, 250_000, tzinfo=timezone(timedelta(hours=2)))
    assert utc_text(east) == "2026-11-27T08:00:15.250Z"


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("2026-11-27t08:00:00z", datetime(2026, 11, 27, 8, tzinfo=UTC)),
        ("2026-11-27T10:00:00+02:00", datetime(2026, 11, 27, 8, tzinfo=UTC)),
        ("2016-12-31T23:59:60Z", datetime(2017, 1, 1, tzinfo=UTC)),
        ("2026-11-27T08:00:00.123456789Z", datetime(2026, 11, 27, 8, 0, 0, 123456, tzinfo=UTC)),
        ("9999-12-31T23:59:60Z", datetime.max.replace(tzinfo=UTC)),
    ],
)
def test_every_form_the_rfc_allows_is_read(text, moment):
    assert read_rfc3339(text) == moment


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-27",
        "2026-11-27T08:00:00",
        "2026-11-27 08:00:00Z",
        "20261127T080000Z",
        "2026-13-01T00:00:00Z",
    ],
)
def test_anything_else_is_refused(text):
    with pytest.raises(ValueError):
        read_rfc3339(text)
