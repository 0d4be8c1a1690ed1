"""The query and the answer of ``GET /v1/rarity`` (marshmallow 4): how unusual a run or a Good
Road is (:mod:`roads.rarity`)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate, validates_schema

from api.http.fieldtypes import Matches, Text
from api.http.querynumbers import QueryInteger
from api.http.requests import custom_expression
from roads.expressions import EXPRESSION_SYNTAX
from roads.patterns import PATTERNS
from roads.rarity import BIG_ROAD_SIDES, DERIVED_COLOURS, RUN_ROADS
from roads.shoe import HANDS

MAX_TABLES = 100_000


class RarityQuerySchema(ma.Schema):
    road = Text(
        validate=validate.OneOf(RUN_ROADS),
        metadata={"description": "The road of the run (with ``side`` and ``length``)."},
    )
    side = Text(
        metadata={
            "description": "``B``, ``P`` or ``either`` on the Big Road; ``red``, ``blue`` or "
            "``either`` on a derived road."
        },
    )
    length = QueryInteger(
        validate=validate.Range(min=1, max=HANDS),
        metadata={"description": "The run's length: the chance is of this many or more."},
    )
    pattern = Text(
        validate=validate.OneOf([pattern.id for pattern in PATTERNS]),
        metadata={"description": "A built-in Good Road's id (see /v1/patterns), instead of a run."},
    )
    custom = Text(
        validate=[
            custom_expression,
            Matches(EXPRESSION_SYNTAX, "separate a custom pattern's terms by single spaces"),
        ],
        metadata={"description": "A pattern of your own, e.g. ``X1 Y2 X1 Y2``, instead."},
    )
    hands = QueryInteger(
        validate=validate.Range(min=1, max=HANDS),
        metadata={"description": "The shoe's hands, ties included (ROADS_RARITY_HANDS: 80)."},
    )
    tables = QueryInteger(
        validate=validate.Range(min=1, max=MAX_TABLES),
        metadata={"description": "A lobby's tables: adds ``lobby_chance``."},
    )

    @validates_schema
    def one_question(self, data: dict[str, Any], **kwargs: Any) -> None:
        run = [name for name in ("road", "side", "length") if name in data]
        asked = bool(run) + ("pattern" in data) + ("custom" in data)
        if asked != 1:
            raise ValidationError(
                "ask for one thing: a run (road, side, length), a pattern, or a custom pattern"
            )
        if run and len(run) < 3:
            missing = ", ".join(n for n in ("road", "side", "length") if n not in data)
            raise ValidationError(f"a run needs road, side and length: {missing} missing")
        if run:
            sides = BIG_ROAD_SIDES if data["road"] == "big_road" else DERIVED_COLOURS
            if data["side"] not in sides:
                raise ValidationError(
                    f"side on {data['road']} is one of {', '.join(sides)}", "side"
                )


class RaritySchema(ma.Schema):
    chance = fields.Float(
        required=True, metadata={"description": "The chance that a shoe shows it at least once."}
    )
    one_in = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": '1 / chance: "1 shoe in 7" (null for a chance of 0).'},
    )
    interval = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "Its 95% interval (the chance itself twice when exact)."},
    )
    method = Text(
        required=True,
        validate=validate.OneOf(["exact", "simulated"]),
        metadata={"description": "``exact`` (a Markov chain) or ``simulated`` (a table)."},
    )
    shoes = fields.Integer(metadata={"description": "The simulated shoes behind the figure."})
    hands = fields.Integer(required=True)
    road = Text()
    side = Text()
    length = fields.Integer()
    pattern = Text()
    tables = fields.Integer()
    lobby_chance = fields.Float(
        metadata={"description": "The chance that at least one of ``tables`` tables shows it."}
    )
