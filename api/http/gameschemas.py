"""What the lookups of rounds by what the studio knows of them take and answer: one round by its
game id, a table's last games, its rounds by the time they were dealt, and every table's rounds
of a time range exported (:mod:`api.http.gameviews`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.codecs.times import read_day_or_moment
from api.http.fieldtypes import Matches, Text
from api.http.querynumbers import QueryInteger
from api.http.responses import RoundRecordSchema

#: A table's last games asked at most, its rounds on a page at most, and the range of an export
#: at most.
MOST_GAMES = 500
PAGE = 200
LONGEST_EXPORT = timedelta(days=31)
# The moments a range may name: the record holds nothing before 1970, and the reads look a day
# past a range's end (api.record.roundreads), which Python cannot past 9999.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)


# A UTC day or an RFC 3339 date-time, as text: a text of another form is a 400; one of this
# form that names no moment (a 13th month) a 422 (time_range).
DAY_OR_MOMENT = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(?:[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[+-][0-9]{2}:[0-9]{2}))?$"
)
DAY_OR_MOMENT_ERROR = "Not a day (YYYY-MM-DD) or an RFC 3339 date-time."


def day_or_moment(**kwargs: Any) -> Text:
    return Text(validate=Matches(DAY_OR_MOMENT, DAY_OR_MOMENT_ERROR), **kwargs)


class OutOfRange(ValueError):
    """A range whose form is right that names no moment, or runs backwards or too long (a
    422)."""


RANGE = {
    "from": "A UTC day (YYYY-MM-DD: from its start) or an RFC 3339 date-time.",
    "to": "A UTC day (YYYY-MM-DD: through its end) or an RFC 3339 date-time (not included); "
    "left out, the end of the day of ``from`` when it is a day, else a day after it.",
}


class RangeSchema(ma.Schema):
    start = day_or_moment(data_key="from", required=True, metadata={"description": RANGE["from"]})
    end = day_or_moment(data_key="to", metadata={"description": RANGE["to"]})


def time_range(
    query: dict[str, Any], longest: timedelta | None = None
) -> tuple[datetime, datetime]:
    """The moments a range query states: from its start, to before its end (a day's end is
    the next day's start). Raises :class:`OutOfRange` naming what is wrong: a text that names
    no moment, an end not after the start, a range longer than ``longest``."""
    start, _ = _moment("from", query["start"])
    if not EARLIEST <= start <= LATEST:
        raise OutOfRange(f"from: between {EARLIEST:%Y} and {LATEST:%Y}")
    if "end" in query:
        end, is_day = _moment("to", query["end"])
        if end > LATEST:
            raise OutOfRange(f"to: before {LATEST:%Y}")
        end = end + timedelta(days=1) if is_day else end
    else:
        end = start + timedelta(days=1)
    if end <= start:
        raise OutOfRange("to: not after from")
    if longest is not None and end - start > longest:
        raise OutOfRange(f"to: a range of at most {longest.days} days")
    return start, end


def _moment(name: str, text: str) -> tuple[datetime, bool]:
    try:
        return read_day_or_moment(text)
    except ValueError as error:
        raise OutOfRange(f"{name}: {error}") from None


class GamesQuerySchema(ma.Schema):
    last = QueryInteger(
        load_default=10,
        validate=validate.Range(min=1, max=MOST_GAMES),
        metadata={"description": f"How many of the table's last games (1-{MOST_GAMES})."},
    )


class RoundsQuerySchema(RangeSchema):
    cursor = Text(
        validate=validate.Length(max=200),
        metadata={"description": "The ``next_cursor`` of the page before (opaque)."},
    )
    limit = QueryInteger(
        load_default=PAGE,
        validate=validate.Range(min=1, max=PAGE),
        metadata={"description": f"Rounds on a page (1-{PAGE})."},
    )


class ExportRangeQuerySchema(RangeSchema):
    format = Text(
        load_default="ndjson",
        validate=validate.OneOf(["ndjson", "csv"]),
        metadata={"description": "``ndjson`` (one JSON object a line) or ``csv``."},
    )


class ChainPlaceSchema(ma.Schema):
    number = fields.Integer(required=True, metadata={"description": "The table's log number."})
    hash = fields.String(required=True, metadata={"description": "The write's hash (hex)."})


class GameSchema(RoundRecordSchema):
    table = fields.String(required=True)
    shoe = fields.String(required=True)
    corrected = fields.Boolean(
        allow_none=True,
        required=True,
        metadata={"description": "Whether it was corrected (null: not in the record yet)."},
    )
    chain = fields.Nested(
        ChainPlaceSchema,
        allow_none=True,
        required=True,
        metadata={
            "description": "Its latest write's place in the record's chain (null: not in the "
            "record yet)."
        },
    )
    source = fields.String(
        required=True,
        validate=validate.OneOf(["redis", "record"]),
        metadata={"description": "Where it was read: Redis (the hot tier) or the record."},
    )


class GamesSchema(ma.Schema):
    table = fields.String(required=True)
    games = fields.List(
        fields.Nested(GameSchema), required=True, metadata={"description": "Oldest first."}
    )


class RoundPageSchema(ma.Schema):
    table = fields.String(required=True)
    rounds = fields.List(fields.Nested(GameSchema), required=True)
    next_cursor = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Pass as ``cursor`` for the next page; null on the last."},
    )
