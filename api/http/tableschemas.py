"""What a table is set up with and what the studio reports of it: its name, pay table and limits
(``PUT /v1/tables/{table}``), its status (``PUT /v1/tables/{table}/status``) and what happens
between rounds (``POST /v1/tables/{table}/studio``), with the answers to the latter two. The
rules of the status are :mod:`api.codecs.tablestatus`'s, of the studio's events
:mod:`api.codecs.studioevents`'s."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.codecs.studioevents import KINDS, MOST_BURNED
from api.codecs.tablestatus import STATUSES, UNTIL_AHEAD, UNTIL_PAST, UNTIL_REQUIRED
from api.http.fieldtypes import (
    Rfc3339,
    StrictBoolean,
    StrictInteger,
    StrictNumber,
    Text,
    displayed,
)
from api.http.paytableschemas import PayTableChoice
from api.http.requests import CARD, ID, game_id_form
from roads import VARIANTS
from roads.variants import BETS

LARGEST_STAKE = 10**12
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
    paytable = PayTableChoice()
    variant = Text(
        validate=validate.OneOf(VARIANTS),
        metadata={"description": "A preset's name, as paytable (the older name of the field)."},
    )
    now = StrictBoolean(
        load_default=False,
        metadata={
            "description": "true: a new pay table applies at once, from the current shoe's next "
            "round; else, while the table has a current shoe, from the next shoe's first round."
        },
    )
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


class StudioInSchema(ma.Schema):
    """What the studio reports between rounds (:mod:`api.codecs.studioevents` names the fields
    each kind needs and takes: another combination is a 422)."""

    kind = Text(required=True, validate=validate.OneOf(KINDS), metadata={"example": "burn"})
    shoe = Text(
        validate=ID,
        metadata={
            "description": "The shoe it happened in (a shuffle's: the next shoe).",
            "example": "s2",
        },
    )
    cards = fields.List(
        CARD,
        validate=validate.Length(min=1, max=MOST_BURNED),
        metadata={"description": "A burn's cards, by their faces.", "example": ["KD", "4S"]},
    )
    count = StrictInteger(
        validate=validate.Range(min=1, max=MOST_BURNED),
        metadata={
            "description": "A burn's cards when their faces are not read; new decks' number."
        },
    )
    round = StrictInteger(
        validate=validate.Range(min=1, max=4096),
        metadata={
            "description": "The round a cancel voids (left out: a game with no result); the "
            "cut card's: the shoe's last (left out: the one after those reported)."
        },
    )
    reason = Text(
        validate=[validate.Length(min=1, max=200), displayed("reason")],
        metadata={"description": "Why, as players are to read it."},
    )
    report_id = game_id_form(
        "a report id",
        "A burn's retry key, unique per shoe: a burn sent again under it changes nothing "
        "(answered with repeated: true).",
        "burn-20261127-0042",
    )


class StudioSchema(ma.Schema):
    table = fields.String(required=True)
    kind = fields.String(required=True)
    shoe = fields.String()
    cards = fields.List(fields.String())
    count = fields.Integer()
    round = fields.Integer()
    reason = fields.String()
    report_id = fields.String()
    at = fields.String(required=True, metadata={"description": "The service's clock (RFC 3339)."})
    repeated = fields.Boolean(
        metadata={"description": "A burn sent again under its report_id: nothing changed."}
    )
