"""Response schemas of the lobby's answers (marshmallow 4): the patterns, the tiles of
``GET /v1/tables`` (each with the cells it draws of each lobby road) and the Good Roads found.
The roads' own shapes are in :mod:`api.http.responses`."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from api.codecs.tablestatus import STATUSES
from api.http.responses import DealerOutSchema, StreakSchema, streaks_schema
from api.http.tableschemas import LimitsSchema
from roads.lobby import LOBBY_ROADS


class PatternSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String(required=True)
    chance = fields.Float(
        required=True,
        metadata={"description": "The chance that a shoe of ``hands`` hands shows it (exact)."},
    )


class PatternsSchema(ma.Schema):
    profile = fields.String(required=True)
    profiles = fields.List(fields.String(), required=True)
    lang = fields.String(required=True)
    hands = fields.Integer(
        required=True, metadata={"description": "The hands of the shoe each chance is of."}
    )
    patterns = fields.List(fields.Nested(PatternSchema), required=True)
    custom = fields.String(
        required=True, metadata={"description": "How to write a pattern of your own."}
    )


class GoodRoadRefSchema(ma.Schema):
    pattern = fields.String(required=True)
    since_round = fields.Integer(required=True)


class TileRoadSchema(ma.Schema):
    """The newest grid columns of a road, as a tile draws them (``roads.tileroads``)."""

    from_ = fields.Integer(
        required=True,
        data_key="from",
        attribute="from",
        metadata={"description": "The first grid column shown."},
    )
    cols = fields.String(
        required=True,
        metadata={
            "description": "Each column from `from` on, its rows from the top (B, P on the Big "
            "Road; r, b on a derived road; . empty), joined by commas.",
        },
    )
    extras = fields.List(
        fields.List(fields.Integer()),
        metadata={"description": "Big Road: [col, row, ties, pairs (1 Banker, 2 Player)]."},
    )
    lead = fields.Integer(metadata={"description": "Big Road: the ties before its first cell."})


class Figure(fields.Float):
    """A chance as a tile states it (``roads.rarity.figure``): 0 and 1 stay integers, a byte
    each in a frame."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return super()._serialize(value, attr, obj, **kwargs)


class CurrentRunSchema(StreakSchema):
    """A tile's current run, with how unusual it is (``roads.rarity``; null without a run)."""

    chance = Figure(
        allow_none=True,
        metadata={
            "description": "The chance that a shoe (ROADS_RARITY_HANDS hands) shows a run at "
            "least this long of this side (Big Road) or colour (derived roads)."
        },
    )
    lobby_chance = Figure(
        allow_none=True,
        metadata={"description": "The chance that at least one of the lobby's tables does."},
    )


class TileRunsSchema(ma.Schema):
    current = fields.Nested(CurrentRunSchema, required=True)
    longest = fields.Nested(StreakSchema, required=True)


TileStreaksSchema = streaks_schema(TileRunsSchema, "TileStreaks")


class TileSchema(ma.Schema):
    table = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(
        required=True, metadata={"description": "The pay table in force (GET /v1/paytables)."}
    )
    next_variant = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The pay table from the next shoe's first round (null: none)."},
    )
    limits = fields.Nested(
        LimitsSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The table's limits, as set with it (null: none)."},
    )
    status = fields.String(
        required=True,
        validate=validate.OneOf(STATUSES),
        metadata={"description": "What the table is doing, as last reported (PUT .../status)."},
    )
    status_until = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "RFC 3339: when betting closes, or a shuffle or pause ends."},
    )
    status_reason = fields.String(
        allow_none=True, required=True, metadata={"description": "Why, when the studio said."}
    )
    dealer = fields.Nested(
        DealerOutSchema,
        allow_none=True,
        required=True,
        metadata={"description": "Who deals at the table, as its last round said (null: none)."},
    )
    format = fields.Integer(
        metadata={
            "description": "The tile's format (2 since 0.11.0); the service makes a tile an "
            "earlier release stored again before it serves it."
        }
    )
    shoe = fields.String(allow_none=True, required=True)
    version = fields.Integer(required=True)
    rounds_played = fields.Integer(required=True)
    recent = fields.List(fields.String(), required=True)
    streaks = fields.Nested(TileStreaksSchema, required=True)
    good_roads = fields.List(fields.Nested(GoodRoadRefSchema), required=True)
    edge = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        required=True,
        metadata={"description": "Bets whose return is above 100% now, with their returns."},
    )
    roads = fields.Dict(
        keys=fields.String(validate=validate.OneOf(LOBBY_ROADS)),
        values=fields.Nested(TileRoadSchema),
        required=True,
        metadata={"description": "The cells the tile draws of each lobby road."},
    )


class TablesSchema(ma.Schema):
    cursor = fields.Integer(required=True)
    grown = fields.Integer(
        metadata={"description": "With ``since``: tables whose run on ``road`` grew since."}
    )
    tables = fields.List(fields.Nested(TileSchema), required=True)


class GoodRoadSchema(ma.Schema):
    table = fields.String(required=True)
    pattern = fields.String(required=True)
    since_round = fields.Integer(required=True)
    summary = fields.Nested(TileSchema, required=True)


class GoodRoadsSchema(ma.Schema):
    good_roads = fields.List(fields.Nested(GoodRoadSchema), required=True)
