"""Request and response schemas (marshmallow 4), which also make the OpenAPI document."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate, validates_schema

from api.store import VARIANTS
from roads.lobby import LOBBY_ROADS
from roads.odds import BETS


class StrictBoolean(fields.Boolean):
    """Only JSON ``true``/``false``: ``0``, ``1`` and ``"true"`` are errors."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a boolean (use true or false).")
        return value


class StrictInteger(fields.Integer):
    """Only JSON integers: ``true``, ``1.0`` and ``"1"`` are errors."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not an integer.")
        return super()._deserialize(value, attr, data, **kwargs)


CARD = fields.String(validate=validate.Length(min=2, max=3), metadata={"example": "AS"})
TOTAL = {"validate": validate.Range(min=0, max=9)}


class ReportSchema(ma.Schema):
    """A round as the dealer reports it: its cards, or its result with optional details."""

    player = fields.List(
        CARD,
        validate=validate.Length(min=2, max=3),
        metadata={"description": 'Player cards in deal order, e.g. ["AS", "9D", "2C"]'},
    )
    banker = fields.List(CARD, validate=validate.Length(min=2, max=3))
    result = fields.String(validate=validate.OneOf(["B", "P", "T"]))
    player_pair = StrictBoolean()
    banker_pair = StrictBoolean()
    natural = StrictBoolean()
    player_total = StrictInteger(**TOTAL)
    banker_total = StrictInteger(**TOTAL)

    @validates_schema
    def cards_or_result(self, data: dict[str, Any], **kwargs: Any) -> None:
        has_cards = "player" in data or "banker" in data
        details = {
            "result",
            "player_pair",
            "banker_pair",
            "natural",
            "player_total",
            "banker_total",
        } & data.keys()
        if has_cards and details:
            raise ValidationError(
                "send either the cards (player, banker) or the result with its details, not both"
            )
        if has_cards and not ("player" in data and "banker" in data):
            raise ValidationError("send both hands: player and banker")
        if not has_cards and "result" not in data:
            raise ValidationError("send the cards (player, banker) or the result")


class RoundInSchema(ReportSchema):
    round = StrictInteger(
        required=True,
        validate=validate.Range(min=1, max=4096),
        metadata={"description": "The round's number in the shoe: 1 for a new shoe, then n+1."},
    )


# Table and shoe ids: the paths' (api.views.common.IdConverter) and the batch items'.
ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"
ID = validate.Regexp(f"^{ID_PATTERN}$", error="ids are 1-64 letters, digits, _ or -")
MAX_BATCH = 200


class BatchRoundSchema(RoundInSchema):
    table = fields.String(required=True, validate=ID)
    shoe = fields.String(required=True, validate=ID)


class BatchInSchema(ma.Schema):
    rounds = fields.List(
        fields.Nested(BatchRoundSchema),
        required=True,
        validate=validate.Length(min=1, max=MAX_BATCH),
        metadata={
            "description": f"1 to {MAX_BATCH} rounds of any tables, each as for "
            "POST /v1/tables/{table}/shoes/{shoe}/rounds plus its table and shoe; one table's "
            "rounds are stored in the order given."
        },
    )


class CorrectionSchema(ReportSchema):
    round = StrictInteger(
        validate=validate.Range(min=1, max=4096),
        metadata={"description": "Optional; must equal the round number of the path."},
    )


class TableInSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=100))
    variant = fields.String(load_default="standard", validate=validate.OneOf(VARIANTS))


class RoadsQuerySchema(ma.Schema):
    ask = fields.String(
        validate=validate.OneOf(["B", "P"]),
        metadata={
            "description": "Preview the roads as if this result came next (nothing is stored)."
        },
    )
    tail = fields.String(
        load_default="stay",
        validate=validate.OneOf(["stay", "drop"]),
        metadata={"description": "Dragon-tail convention of the grids."},
    )


class ImageQuerySchema(ma.Schema):
    cols = fields.Integer(
        validate=validate.Range(min=1, max=120),
        metadata={"description": "Grid columns shown; the view keeps the newest whole columns."},
    )
    theme = fields.String(load_default="light", validate=validate.OneOf(["light", "dark"]))
    scale = fields.Float(
        load_default=1.0,
        validate=validate.Range(min=0.5, max=4),
        metadata={"description": "Pixel size factor (a Big Road cell is 20 px at 1)."},
    )
    bead = fields.String(
        load_default="letters",
        validate=validate.OneOf(["letters", "totals"]),
        metadata={"description": "Bead Plate shows B/P/T, or the winning total when known."},
    )
    ask = fields.String(
        validate=validate.OneOf(["B", "P"]),
        metadata={"description": "Draw the preview of this next result, new cells highlighted."},
    )


class LobbyQuerySchema(ma.Schema):
    sort = fields.String(
        validate=validate.OneOf(["streak"]),
        metadata={"description": "``streak``: longest current run on ``road`` first."},
    )
    road = fields.String(
        load_default="big_road",
        validate=validate.OneOf(LOBBY_ROADS),
        metadata={"description": "The road sorted by and counted in ``grown``."},
    )
    since = fields.Integer(
        validate=validate.Range(min=0),
        metadata={
            "description": "A ``cursor`` from an earlier answer: ``grown`` then counts the tables "
            "whose current run on ``road`` grew since (the lobby's red badge)."
        },
    )


class GoodRoadsQuerySchema(ma.Schema):
    patterns = fields.String(
        metadata={
            "description": "Comma-separated pattern ids (see /v1/patterns). Without it and "
            "without ``custom``: every built-in pattern."
        },
    )
    custom = fields.List(
        fields.String(validate=validate.Length(max=100)),
        validate=validate.Length(max=8),
        metadata={"description": "A pattern of your own, e.g. ``X1 Y2 X1 Y2`` (repeatable)."},
    )


# -- responses ---------------------------------------------------------------------------------


class RoundRecordSchema(ma.Schema):
    round = fields.Integer(required=True)
    result = fields.String(required=True, validate=validate.OneOf(["B", "P", "T"]))
    player_total = fields.Integer(allow_none=True, required=True)
    banker_total = fields.Integer(allow_none=True, required=True)
    player_pair = fields.Boolean(required=True)
    banker_pair = fields.Boolean(required=True)
    natural = fields.Boolean(required=True)
    player_cards = fields.List(fields.String(), allow_none=True, required=True)
    banker_cards = fields.List(fields.String(), allow_none=True, required=True)
    player_perfect_pair = fields.Boolean(required=True)
    banker_perfect_pair = fields.Boolean(required=True)
    banker_six = fields.Boolean(required=True)
    void = fields.Boolean(required=True)
    version = fields.Integer(
        required=True, metadata={"description": "Shoe version it was written at."}
    )


class WriteResultSchema(ma.Schema):
    table = fields.String(required=True)
    shoe = fields.String(required=True)
    version = fields.Integer(required=True)
    round = fields.Nested(RoundRecordSchema, required=True)


class BatchOutcomeSchema(ma.Schema):
    table = fields.String(required=True)
    shoe = fields.String(required=True)
    status = fields.Integer(
        required=True,
        metadata={
            "description": "What POST .../rounds would have answered for this round alone: 201 "
            "stored, 200 the identical round again, 409 not the next round (with "
            "expected_round), 400 against the rules, 503 retry."
        },
    )
    version = fields.Integer(metadata={"description": "On 200 and 201: the shoe's version."})
    round = fields.Nested(RoundRecordSchema, metadata={"description": "On 200 and 201."})
    message = fields.String(metadata={"description": "On an error: what is wrong."})
    expected_round = fields.Integer(metadata={"description": "On 409."})


class BatchResultSchema(ma.Schema):
    results = fields.List(
        fields.Nested(BatchOutcomeSchema),
        required=True,
        metadata={"description": "One outcome per round sent, in the same order."},
    )


class HistorySchema(ma.Schema):
    table = fields.String(required=True)
    shoe = fields.String(required=True)
    version = fields.Integer(required=True)
    rounds = fields.List(fields.Nested(RoundRecordSchema), required=True)


class TableSchema(ma.Schema):
    table = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    current_shoe = fields.String(allow_none=True, required=True)
    version = fields.Integer(required=True)
    rounds = fields.Integer(
        required=True, metadata={"description": "Rounds reported, void included."}
    )
    rounds_played = fields.Integer(required=True)
    void_rounds = fields.Integer(required=True)
    shoes = fields.List(fields.String(), required=True)
    meta_version = fields.Integer(required=True)


class CellSchema(ma.Schema):
    col = fields.Integer(required=True)
    row = fields.Integer(required=True)


class RoundCellSchema(CellSchema):
    """A cell that stands for one round (Bead Plate, Big Road)."""

    round = fields.Integer(required=True)
    result = fields.String(required=True)
    player_pair = fields.Boolean(required=True)
    banker_pair = fields.Boolean(required=True)
    natural = fields.Boolean(required=True)


class BeadSchema(RoundCellSchema):
    winning_total = fields.Integer(allow_none=True, required=True)
    player_total = fields.Integer(allow_none=True, required=True)
    banker_total = fields.Integer(allow_none=True, required=True)


class BigRoadCellSchema(RoundCellSchema):
    ties = fields.Integer(required=True)


class BigRoadSchema(ma.Schema):
    leading_ties = fields.Integer(required=True)
    columns = fields.List(fields.List(fields.Nested(BigRoadCellSchema)), required=True)


class MarkSchema(CellSchema):
    color = fields.String(required=True, validate=validate.OneOf(["red", "blue"]))


class DerivedRoadSchema(ma.Schema):
    marks = fields.List(fields.String(validate=validate.OneOf(["red", "blue"])), required=True)
    columns = fields.List(fields.List(fields.Nested(MarkSchema)), required=True)


MARK = {"allow_none": True, "required": True}


class ProbeMarksSchema(ma.Schema):
    big_eye_boy = fields.String(**MARK)
    small_road = fields.String(**MARK)
    cockroach_road = fields.String(**MARK)


class ProbeSchema(ma.Schema):
    B = fields.Nested(ProbeMarksSchema, required=True)
    P = fields.Nested(ProbeMarksSchema, required=True)


class StreakSchema(ma.Schema):
    side = fields.String(allow_none=True, required=True)
    length = fields.Integer(required=True)


class RoadStreaksSchema(ma.Schema):
    current = fields.Nested(StreakSchema, required=True)
    longest = fields.Nested(StreakSchema, required=True)


class StreaksSchema(ma.Schema):
    big_road = fields.Nested(RoadStreaksSchema, required=True)
    big_eye_boy = fields.Nested(RoadStreaksSchema, required=True)
    small_road = fields.Nested(RoadStreaksSchema, required=True)
    cockroach_road = fields.Nested(RoadStreaksSchema, required=True)


class StatsSchema(ma.Schema):
    rounds = fields.Integer(required=True)
    void_rounds = fields.Integer(required=True)
    counts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    percentages = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    longest_streak = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    dragons = fields.Integer(required=True)


class PatternSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    description = fields.String(required=True)


class PatternsSchema(ma.Schema):
    patterns = fields.List(fields.Nested(PatternSchema), required=True)
    custom = fields.String(
        required=True, metadata={"description": "How to write a pattern of your own."}
    )


class GoodRoadRefSchema(ma.Schema):
    pattern = fields.String(required=True)
    since_round = fields.Integer(required=True)


class TileSchema(ma.Schema):
    table = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    shoe = fields.String(allow_none=True, required=True)
    version = fields.Integer(required=True)
    rounds_played = fields.Integer(required=True)
    recent = fields.List(fields.String(), required=True)
    streaks = fields.Nested(StreaksSchema, required=True)
    good_roads = fields.List(fields.Nested(GoodRoadRefSchema), required=True)
    edge = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        required=True,
        metadata={"description": "Bets whose return is above 100% now, with their returns."},
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


class CardsLeftSchema(ma.Schema):
    total = fields.Integer(required=True)
    by_rank = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class BonusOutcomesSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    natural_win = fields.Float(required=True)
    natural_tie = fields.Float(required=True)


class ProbabilitiesSchema(ma.Schema):
    banker = fields.Float(required=True)
    player = fields.Float(required=True)
    tie = fields.Float(required=True)
    banker_six = fields.Float(required=True, metadata={"description": "Banker wins with 6."})
    natural = fields.Float(required=True)
    player_pair = fields.Float(required=True)
    banker_pair = fields.Float(required=True)
    either_pair = fields.Float(required=True)
    both_pairs = fields.Float(required=True)
    perfect_pair = fields.Float(required=True)
    perfect_pair_one_hand = fields.Float(required=True)
    perfect_pair_both_hands = fields.Float(required=True)
    player_bonus = fields.Nested(
        BonusOutcomesSchema,
        required=True,
        metadata={"description": "natural_win, natural_tie, win_by_1 .. win_by_9 (non-natural)"},
    )
    banker_bonus = fields.Nested(BonusOutcomesSchema, required=True)


# One return per bet of roads.odds.BETS, each a fraction (0.9894).
ReturnsSchema = ma.Schema.from_dict(
    {bet: fields.Float(required=True) for bet in BETS}, name="ReturnsSchema"
)


class ShoeRefSchema(ma.Schema):
    table = fields.String(required=True)
    shoe = fields.String(required=True)
    version = fields.Integer(required=True)


class RoadsSchema(ShoeRefSchema):
    rounds = fields.Integer(required=True)
    bead_plate = fields.List(fields.Nested(BeadSchema), required=True)
    big_road = fields.Nested(BigRoadSchema, required=True)
    big_eye_boy = fields.Nested(DerivedRoadSchema, required=True)
    small_road = fields.Nested(DerivedRoadSchema, required=True)
    cockroach_road = fields.Nested(DerivedRoadSchema, required=True)
    probe = fields.Nested(ProbeSchema, required=True)
    streaks = fields.Nested(StreaksSchema, required=True)
    stats = fields.Nested(StatsSchema, required=True)
    ask = fields.String(metadata={"description": "Present on a preview: the result assumed next."})


class StatsResponseSchema(ShoeRefSchema):
    stats = fields.Nested(StatsSchema, required=True)
    streaks = fields.Nested(StreaksSchema, required=True)


class ProbeResponseSchema(ShoeRefSchema):
    probe = fields.Nested(ProbeSchema, required=True)


class OddsSchema(ShoeRefSchema):
    variant = fields.String(required=True)
    composition_known = fields.Boolean(
        required=True,
        metadata={"description": "False when some round came without its cards: fresh figures."},
    )
    cards_left = fields.Nested(CardsLeftSchema, required=True)
    probabilities = fields.Nested(ProbabilitiesSchema, required=True)
    rtp = fields.Nested(
        ReturnsSchema,
        required=True,
        metadata={"description": "Expected return per unit staked, stake included (0.9894)."},
    )
    favourable = fields.List(
        fields.String(), required=True, metadata={"description": "Bets with a return above 1."}
    )
    note = fields.String(required=True)


class HealthSchema(ma.Schema):
    status = fields.String(required=True)


class ErrorSchema(ma.Schema):
    """Every 4xx and 5xx answer."""

    code = fields.Integer(required=True)
    status = fields.String(required=True)
    message = fields.String()
    errors = fields.Dict()
    expected_round = fields.Integer(
        metadata={"description": "On 409: the round the shoe expects next."}
    )
