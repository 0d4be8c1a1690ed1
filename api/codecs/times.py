"""A moment as the service writes it and reads it in JSON: RFC 3339 (section 5.6).

It writes UTC to the millisecond, ``2026-11-27T08:00:15.000Z`` (:func:`utc_text`). It reads every
form the RFC allows (:func:`read_rfc3339`): ``T`` and ``Z`` in either case, any fraction of a
second, a leap second (``:60``, read as the next second's start), and always an offset; nothing
else (Python's ISO 8601 reader alone would take a date without a time, or no offset).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?"
    r"(?:[Zz]|[+-][0-9]{2}:[0-9]{2})",
    re.ASCII,
)


def utc_text(moment: datetime) -> str:
    """``moment`` (aware) as RFC 3339 in UTC with milliseconds."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_text() -> str:
    """The service's clock now, as :func:`utc_text` writes it."""
    return utc_text(datetime.now(UTC))


DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


def read_day_or_moment(text: str) -> tuple[datetime, bool]:
    """The moment ``text`` states, RFC 3339 or a UTC day ``YYYY-MM-DD`` (its first moment), and
    whether it was a day. Raises ``ValueError`` naming what is wrong."""
    if DAY.fullmatch(text) is None:
        return read_rfc3339(text), False
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC), True
    except ValueError:
        raise ValueError("Not a day: a part out of range.") from None


def read_rfc3339(text: str) -> datetime:
    """The aware moment ``text`` states. Raises ``ValueError`` naming what is wrong. The leap
    second after 9999-12-31T23:59:59 is the latest moment Python holds."""
    if RFC3339.fullmatch(text) is None:
        raise ValueError("Not an RFC 3339 date-time (like 2026-11-27T08:00:15.000Z).")
    text, leap = text.upper(), text[17:19] == "60"
    if leap:
        text = text[:17] + "59" + text[19:]
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("Not a date-time: a part out of range.") from None
    try:
        return moment + timedelta(seconds=1) if leap else moment
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC)
