"""The integrity watch's answers (:mod:`api.http.integrity`), for the OpenAPI document."""

from __future__ import annotations

from datetime import date

import marshmallow as ma
from marshmallow import fields

from api.http.fieldtypes import Matches

KINDS = [
    "unshuffled",
    "repeated_shoe",
    "impossible_cards",
    "drift",
    "dealer_drift",
    "side_bet_exposed",
    "record_tampered",
]


def findings_field() -> fields.List:
    """Alerts, each an object: its stream ``id``, its ``type`` (one of :data:`KINDS`), ``table``
    and ``shoe``, and the fields of its type (docs/operations.md, "The integrity watch")."""
    return fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "alerts, newest first: id, type ("
            + ", ".join(KINDS)
            + "), table, shoe and what the check found"
        },
    )


class ShoeChecksSchema(ma.Schema):
    shoe = fields.String(required=True)
    current = fields.Boolean(required=True)
    checks = fields.Dict(
        required=True,
        metadata={
            "description": "rounds, cards_known, shuffle (cards, chained: the cards that "
            "followed a run, chance: an upper bound on a fair shuffle's chance of such evidence; "
            "unshuffled), cards_used, cut_card (with last_round when the studio reported it), "
            "new_decks (as the studio reported them, or null), side_bets (closes_after, open)"
        },
    )
    findings = findings_field()


class DriftSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    rounds = fields.Integer(required=True)
    tests = fields.Dict(required=True)
    p = fields.Float(allow_none=True, required=True)
    adjusted_p = fields.Float(allow_none=True, required=True)
    discovery = fields.Boolean(required=True)
    alert = fields.Boolean(required=True)


class TableIntegritySchema(ma.Schema):
    table = fields.String(required=True)
    policy = fields.Dict(required=True)
    shoes = fields.List(fields.Nested(ShoeChecksSchema), required=True)
    drift = fields.Nested(DriftSchema, allow_none=True, required=True)
    findings = findings_field()


class DayBoundsSchema(ma.Schema):
    """What a day's drift report is judged by (``api.http.integrity._bounds``)."""

    day = fields.String(required=True)
    false_discovery_rate = fields.Float(required=True)
    alert_below = fields.Float(required=True)
    min_rounds = fields.Integer(required=True)


class DriftDaySchema(DayBoundsSchema):
    tables = fields.Dict(keys=fields.String(), values=fields.Nested(DriftSchema), required=True)


def real_day(value: str) -> None:
    """A day the calendar has (2026-02-30 is not), from 1970 to before 9000 (a day's report
    reads the day after it too)."""
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise ma.ValidationError("Not a day of the calendar.") from None
    if not 1970 <= day.year < 9000:
        raise ma.ValidationError("Not a day of the calendar between 1970 and 9000.")


class DriftQuerySchema(ma.Schema):
    day = fields.String(
        validate=[Matches(r"\d{4}-\d{2}-\d{2}", "Not a day: write YYYY-MM-DD."), real_day],
        metadata={"description": "the UTC day (YYYY-MM-DD); today by default"},
    )


class DealerDaySchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    rounds = fields.Integer(
        metadata={
            "description": "Rounds the drift watch tallied for the dealer (with cards or not)."
        }
    )
    tests = fields.Dict()
    p = fields.Float(allow_none=True)
    adjusted_p = fields.Float(allow_none=True)
    discovery = fields.Boolean()
    alert = fields.Boolean()
    rounds_dealt = fields.Integer(metadata={"description": "From the record: rounds dealt."})
    voids = fields.Integer()
    corrections = fields.Integer()
    void_rate = fields.Float()
    correction_rate = fields.Float()
    mean_round_seconds = fields.Float(
        allow_none=True,
        metadata={"description": "Mean time from the round before in the same shoe, same dealer."},
    )


class DealersDaySchema(DayBoundsSchema):
    dealers = fields.Dict(
        keys=fields.String(), values=fields.Nested(DealerDaySchema), required=True
    )
