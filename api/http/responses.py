"""Response schemas (marshmallow 4): the OpenAPI document of what the service answers. The shapes
of the roads are :mod:`roads.shapes`; ``tests/http/test_responses.py`` holds these schemas to
them."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.http.paytableschemas import PayTableSchema
from api.http.tableschemas import LimitsSchema
from roads.lobby import LOBBY_ROADS


class DealerOutSchema(ma.Schema):
    id = fields.String(required=True)
    name = fields.String(metadata={"description": "As the studio named the dealer."})


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
    game_id = fields.String(metadata={"description": "The game server's id of the round."})
    dealt_at = fields.String(
        metadata={"description": "RFC 3339: when it was dealt (as reported, else received)."}
    )
    dealer = fields.Nested(DealerOutSchema, metadata={"description": "Who dealt it."})
    paytable = fields.String(metadata={"description": "The pay table it was priced under."})
    burned = fields.List(
        fields.String(), metadata={"description": "Cards burned after it (POST .../studio)."}
    )
    burn_ids = fields.List(fields.String(), metadata={"description": "Their report ids."})
    version = fields.Integer(
        required=True, metadata={"description": "Shoe version it was written at."}
    )


class WriteResultSchema(ma.Schema):
    table = fields.String(required=True)
    shoe = fields.String(required=True)
    version = fields.Integer(required=True)
    round = fields.Nested(RoundRecordSchema, required=True)


class RetiredSchema(ma.Schema):
    table = fields.String(required=True)
    retired = fields.Boolean(required=True)
    shoes = fields.List(
        fields.String(), required=True, metadata={"description": "Its shoes, oldest first."}
    )
    message = fields.String(required=True, metadata={"description": "Where its rounds are."})
    archive = fields.String(
        required=True, metadata={"description": "Where its shoes and rounds are read now."}
    )


class ArchivedTableSchema(ma.Schema):
    """A retired table in the archive."""

    table = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    retired = fields.Boolean(required=True)
    shoes = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Its shoes, oldest first: each one's rounds are at .../rounds."},
    )


def differs_field() -> fields.List:
    """What a 409 for a round already stored says differs from it."""
    parts = ["result", "cards", "totals", "pairs", "natural", "game_id"]
    return fields.List(
        fields.String(validate=validate.OneOf(parts)),
        metadata={"description": "On 409 for a round already stored: the parts that differ."},
    )


class GameTakenSchema(ma.Schema):
    """What a 409 for a round sent under a game id the table has for another round says (the
    answers that may be one inherit it)."""

    game_id = fields.String(metadata={"description": "On 409: the game id already used."})
    game_shoe = fields.String(metadata={"description": "On 409: its round's shoe."})
    game_round = fields.Integer(metadata={"description": "On 409: its round's number."})


class BatchOutcomeSchema(GameTakenSchema):
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
    differs = differs_field()


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
    variant = fields.String(required=True, metadata={"description": "The pay table in force."})
    next_variant = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The pay table from the next shoe's first round (null: none)."},
    )
    paytable = fields.Nested(PayTableSchema, required=True)
    limits = fields.Nested(LimitsSchema, allow_none=True, required=True)
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


CELL = {"allow_none": True, "required": True, "validate": validate.Length(equal=2)}


class SideCellsSchema(ma.Schema):
    bead_plate = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=2))
    big_road = fields.List(fields.Integer(), required=True, validate=validate.Length(equal=2))
    big_eye_boy = fields.List(fields.Integer(), **CELL)
    small_road = fields.List(fields.Integer(), **CELL)
    cockroach_road = fields.List(fields.Integer(), **CELL)


class NextCellsSchema(ma.Schema):
    """Ask Banker / Ask Player as cells: where each road's next mark would stand."""

    B = fields.Nested(SideCellsSchema, required=True)
    P = fields.Nested(SideCellsSchema, required=True)


class StreakSchema(ma.Schema):
    side = fields.String(allow_none=True, required=True)
    length = fields.Integer(required=True)


class RoadStreaksSchema(ma.Schema):
    current = fields.Nested(StreakSchema, required=True)
    longest = fields.Nested(StreakSchema, required=True)


def streaks_schema(runs: type[ma.Schema], name: str) -> type[ma.Schema]:
    """A schema with ``runs`` (current and longest) for each lobby road, named ``name``."""
    roads = {road: fields.Nested(runs, required=True) for road in LOBBY_ROADS}
    return ma.Schema.from_dict(roads, name=name)


StreaksSchema = streaks_schema(RoadStreaksSchema, "Streaks")


class StatsSchema(ma.Schema):
    rounds = fields.Integer(required=True)
    void_rounds = fields.Integer(required=True)
    counts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    percentages = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    longest_streak = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    dragons = fields.Integer(required=True)


class CardsLeftSchema(ma.Schema):
    total = fields.Integer(required=True)
    by_rank = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


# A Bonus bet's outcomes: a natural win or tie, or a non-natural win by 1 to 9 points.
BonusOutcomesSchema = ma.Schema.from_dict(
    {
        "natural_win": fields.Float(required=True),
        "natural_tie": fields.Float(required=True),
        **{f"win_by_{points}": fields.Float(required=True) for points in range(1, 10)},
    },
    name="BonusOutcomesSchema",
)


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
    next_cells = fields.Nested(
        NextCellsSchema,
        required=True,
        metadata={"description": "The grid cell [col, row] each road's next mark would take."},
    )
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
    rtp = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        required=True,
        metadata={
            "description": "Each bet of the table's pay table (its own names, in its order): the "
            "expected return per unit staked, stake included (0.9894)."
        },
    )
    favourable = fields.List(
        fields.String(), required=True, metadata={"description": "Bets with a return above 1."}
    )
    note = fields.String(required=True)


class RecordHealthSchema(ma.Schema):
    behind_seconds = fields.Float(
        required=True,
        metadata={
            "description": "How old the oldest write not yet in the record was at the "
            "recorder's last pass (0: all recorded)."
        },
    )


class HealthSchema(ma.Schema):
    status = fields.String(required=True)
    record = fields.Nested(
        RecordHealthSchema,
        metadata={
            "description": "With ROADS_DATABASE_URL: the record's lag. PostgreSQL down "
            "does not make the service unready: ingest and reads go on, and the lag grows."
        },
    )


class LivenessSchema(ma.Schema):
    """/livez: the process answers, and which release it runs."""

    status = fields.String(required=True)
    version = fields.String(
        required=True,
        metadata={
            "description": "The release this process runs (PEP 440; pyproject.toml's version, "
            "CHANGELOG.md's headings): during a rolling upgrade, which instances run which."
        },
    )


class ErrorSchema(GameTakenSchema):
    """Every 4xx and 5xx answer."""

    code = fields.Integer(required=True)
    status = fields.String(required=True)
    message = fields.String()
    errors = fields.Dict()
    request_id = fields.String(
        metadata={"description": "The request's id (its ``X-Request-ID``), as in the logs."}
    )
    expected_round = fields.Integer(
        metadata={"description": "On 409: the round the shoe expects next."}
    )
    differs = differs_field()
    archive = fields.String(
        metadata={"description": "On 404 for a retired table: where its shoes and rounds are."}
    )
