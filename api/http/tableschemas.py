"""What a table is set up with and what the studio reports of it: its name, variant and limits
(``PUT /v1/tables/{table}``), and its status (``PUT /v1/tables/{table}/status``), with the
answer to the latter. The rules of the status are :mod:`api.codecs.tablestatus`'s."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate

from api.codecs.tablestatus import STATUSES, UNTIL_AHEAD, UNTIL_PAST, UNTIL_REQUIRED
from api.codecs.times import read_rfc3339
from api.http.requests import Matches, Text
from roads import VARIANTS
from roads.variants import BETS

# A display name is shown in every player's lobby: no control characters (C0, DEL, C1) and no
# bidirectional overrides or isolates (U+202A-202E, U+2066-2069), which could reorder the text
# around it on the page. So is a status's reason.
DISPLAY_NAME = r"^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$"


def displayed(what: str) -> Matches:
    """Text shown to players: the error names ``what``."""
    return Matches(
        DISPLAY_NAME,
        f"{what} must not hold control characters or bidirectional overrides "
        "(U+202A-202E, U+2066-2069)",
    )


LARGEST_STAKE = 10**12


class StrictNumber(fields.Number):
    """Only a JSON number (not ``true``, not ``"5"``), finite, kept as given (``5`` stays an
    integer)."""

    num_type = float

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int | float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError("Not a number.")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValidationError("Not a finite number.")
        return value

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> int | float | None:
        return value  # as stored: 5 stays 5, as every other answer shows it


class Rfc3339(fields.AwareDateTime):
    """An RFC 3339 date-time, as the document's ``format: date-time`` says
    (:func:`api.codecs.times.read_rfc3339`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="iso", **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> datetime:
        if not isinstance(value, str):
            raise ValidationError("Not an RFC 3339 date-time (like 2026-11-27T08:00:15.000Z).")
        try:
            return read_rfc3339(value)
        except ValueError as error:
            raise ValidationError(str(error)) from None


STAKE = {"validate": validate.Range(min=0, max=LARGEST_STAKE)}


class BoundsSchema(ma.Schema):
    """A stake's bounds: ``min`` above ``max`` is a 422 (:func:`limits_rule`)."""

    min = StrictNumber(required=True, **STAKE, metadata={"example": 10})
    max = StrictNumber(required=True, **STAKE, metadata={"example": 5000})


# One field a bet, so that the document states the bets a table may limit (a closed object).
BetLimitsSchema = ma.Schema.from_dict(
    {bet: fields.Nested(BoundsSchema) for bet in BETS}, name="BetLimitsSchema"
)


class LimitsSchema(ma.Schema):
    """A table's limits in its currency: the table's (the main bets') and each bet's own; ``{}``
    is none."""

    table = fields.Nested(BoundsSchema)
    bets = fields.Nested(
        BetLimitsSchema,
        metadata={"description": "Each bet's own limits, by the bets of /v1/tables/{table}/odds."},
    )


def limits_rule(limits: dict[str, Any] | None) -> str | None:
    """What the limits break that their schema cannot state (a 422), or ``None``."""
    limits = limits or {}
    parts = {"table": limits.get("table")}
    parts |= {f"bets.{bet}": bounds for bet, bounds in (limits.get("bets") or {}).items()}
    for where, bounds in parts.items():
        if bounds is not None and bounds["min"] > bounds["max"]:
            return f"limits.{where}: min is above max"
    return None


class TableInSchema(ma.Schema):
    name = Text(
        required=True,
        validate=[validate.Length(min=1, max=100), displayed("name")],
    )
    variant = Text(load_default="standard", validate=validate.OneOf(VARIANTS))
    limits = fields.Nested(
        LimitsSchema,
        metadata={"description": "The table's limits; left out, the table has none."},
    )


class StatusInSchema(ma.Schema):
    status = Text(required=True, validate=validate.OneOf(STATUSES), metadata={"example": "betting"})
    until = Rfc3339(
        metadata={
            "description": "RFC 3339: when betting closes (required with betting), or when a "
            "shuffle, a pause or a closing is to end, or an open table to close; within 5 s "
            "before the service's clock and a day after it (else 422).",
            "example": "2026-11-27T08:00:15.000Z",
        },
    )
    reason = Text(
        validate=[validate.Length(min=1, max=200), displayed("reason")],
        metadata={"description": "Why (a pause, a closing), as players are to read it."},
    )


def status_rule(body: dict[str, Any], now: datetime | None = None) -> str | None:
    """What a status report breaks that its schema cannot state (a 422), or ``None``: betting
    without its end; an end outside :data:`UNTIL_PAST` before and :data:`UNTIL_AHEAD` after
    the service's clock."""
    status, until = body["status"], body.get("until")
    if until is None:
        return f"until: {status} needs its end time" if status in UNTIL_REQUIRED else None
    now = now or datetime.now(UTC)
    if until < now - UNTIL_PAST:
        return "until: in the past by the service's clock"
    if until > now + UNTIL_AHEAD:
        return "until: more than a day ahead of the service's clock"
    return None


class StatusSchema(ma.Schema):
    table = fields.String(required=True)
    status = fields.String(required=True, metadata={"example": "betting"})
    status_until = fields.String(allow_none=True, required=True)
    status_reason = fields.String(allow_none=True, required=True)
    server_time = fields.String(
        required=True, metadata={"description": "The service's clock as it answered (RFC 3339)."}
    )
