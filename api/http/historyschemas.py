"""The answers of a table's past, from the record (:mod:`api.http.historyviews`)."""

import marshmallow as ma
from marshmallow import fields


class ShoeSummarySchema(ma.Schema):
    shoe = fields.String(required=True)
    rounds = fields.Integer(required=True, metadata={"description": "Rounds reported."})
    rounds_played = fields.Integer(required=True, metadata={"description": "Not void."})
    banker = fields.Integer(required=True)
    player = fields.Integer(required=True)
    tie = fields.Integer(required=True)
    opened_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC."})
    closed_at = fields.String(
        allow_none=True, required=True, metadata={"description": "When the next shoe opened."}
    )
    head = fields.String(
        required=True,
        metadata={"description": "The hash of the shoe's last recorded write (its chain's head)."},
    )
    writes = fields.Integer(required=True, metadata={"description": "Writes recorded."})


class ShoeListSchema(ma.Schema):
    table = fields.String(required=True)
    shoes = fields.List(fields.Nested(ShoeSummarySchema), required=True)
    next_cursor = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Pass as ``cursor`` for the next page; null on the last."},
    )


class RecordedShoeSchema(ShoeSummarySchema):
    table = fields.String(required=True)
