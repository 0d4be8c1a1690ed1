"""A pay table as a request sends it and an answer shows it (:mod:`roads.paytables` states the
rules): the schema says what JSON Schema can (the conditions and their values, the pays, the
names, the bounds), so that anything else is a 400 naming its field; what only the engine can
judge (two kinds of condition in one bet, a pair beside another condition, a pay of more than
four decimals) is a 422 naming it, as every rule of the API is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import ValidationError, fields, validate

from api.http.fieldtypes import Matches, Text
from roads.paytables import (
    MOST_BETS,
    MOST_PAYS,
    MOST_RULES,
    PAIR_CONDITIONS,
    PUSH,
    ROUND_CONDITIONS,
    PayTable,
    PayTableError,
    pay_table,
)
from roads.presets import PRESETS

NAME_PATTERN = r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"
NAME = {
    "validate": [
        validate.Length(min=1, max=40),
        Matches(NAME_PATTERN, "snake_case: a-z and 0-9, words joined by _"),
    ]
}
MOST_VALUES = 10


class OneOrMany(fields.Field):
    """A condition's value: one of ``values``, or a list of 1 to 10 of them (any matches)."""

    def __init__(self, values: tuple[Any, ...], **kwargs: Any) -> None:
        self.values = values
        one = {"enum": list(values)}
        many = {"type": "array", "items": one, "minItems": 1, "maxItems": MOST_VALUES}
        super().__init__(metadata={"oneOf": [one, many]}, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        values = value if isinstance(value, list) else [value]
        if isinstance(value, list) and not 1 <= len(value) <= MOST_VALUES:
            raise ValidationError(f"one value, or a list of 1 to {MOST_VALUES}")
        for one in values:
            if type(one) is not type(self.values[0]) or one not in self.values:
                shown = ", ".join(
                    str(v).lower() if isinstance(v, bool) else str(v) for v in self.values
                )
                raise ValidationError(f"{one!r} is not one of {shown}")
        return value


class Pays(fields.Field):
    """What a rule pays: units to 1 (0 to :data:`~roads.paytables.MOST_PAYS`), or ``"push"``
    (the stake back alone)."""

    def __init__(self, **kwargs: Any) -> None:
        number = {"type": "number", "minimum": 0, "maximum": MOST_PAYS}
        super().__init__(metadata={"oneOf": [number, {"enum": [PUSH]}]}, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if value == PUSH:
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError(f'a number of units to 1, or "{PUSH}"')
        if not 0 <= value <= MOST_PAYS:
            raise ValidationError(f"{value} is not a pay from 0 to {MOST_PAYS} to 1")
        return value


WhenSchema = ma.Schema.from_dict(
    {
        **{name: OneOrMany(values) for name, values in ROUND_CONDITIONS.items()},
        **{name: Text(validate=validate.OneOf(values)) for name, values in PAIR_CONDITIONS.items()},
    },
    name="PayTableWhenSchema",
)


class RuleSchema(ma.Schema):
    """A rule: when the round meets every condition of ``when``, the bet ``pays``."""

    when = fields.Nested(WhenSchema, required=True)
    pays = Pays(required=True)


class PayTableSchema(ma.Schema):
    """A pay table: every bet it offers, each a list of rules, the first a round meets deciding
    (none met: the stake is lost). The presets' are ``GET /v1/paytables``."""

    name = Text(required=True, **NAME, metadata={"example": "house_macau"})
    source = Text(
        validate=validate.Length(max=500), metadata={"description": "Where its pays are published."}
    )
    # A bet's name is checked by the engine (a 422): JSON Schema's propertyNames is beyond what
    # the document's generator states.
    bets = fields.Dict(
        keys=fields.String(),
        values=fields.List(
            fields.Nested(RuleSchema), validate=validate.Length(min=1, max=MOST_RULES)
        ),
        required=True,
        validate=validate.Length(min=1, max=MOST_BETS),
        metadata={"minProperties": 1, "maxProperties": MOST_BETS},
    )


class PayTableChoice(fields.Field):
    """A table's pay table: the name of one (a preset, or one the deployment has) or a whole
    pay table of its own (:class:`PayTableSchema`)."""

    def __init__(self, **kwargs: Any) -> None:
        named = {"type": "string", "pattern": NAME_PATTERN, "maxLength": 40, "example": "lucky_6"}
        whole = {"$ref": "#/components/schemas/PayTable"}
        description = (
            f"A pay table's name (a preset: {', '.join(PRESETS)}; or one this deployment keeps), "
            "or a whole pay table of the table's own, kept under its name: a name is one pay "
            "table for ever."
        )
        super().__init__(metadata={"oneOf": [named, whole], "description": description}, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            return Text(**NAME).deserialize(value)
        if isinstance(value, dict):
            return PayTableSchema().load(value)
        raise ValidationError("a pay table's name, or a whole pay table")


class PayTablesSchema(ma.Schema):
    """Every pay table a table may name: the presets, then the deployment's own."""

    paytables = fields.List(fields.Nested(PayTableSchema), required=True)


def requested(body: dict[str, Any], resolve: Callable[[str], PayTable]) -> PayTable:
    """The pay table a table's request names (``paytable``, or the older ``variant``; neither:
    ``standard``): a name ``resolve`` knows (it raises a ``KeyError`` for one it does not), or a
    whole one the engine can price. Raises
    :class:`~roads.paytables.PayTableError` naming what cannot be (a 422)."""
    chosen, variant = body.get("paytable"), body.get("variant")
    named = chosen.get("name") if isinstance(chosen, dict) else chosen
    if chosen is not None and variant is not None and named != variant:
        raise PayTableError("paytable and variant name two pay tables: send paytable alone")
    chosen = chosen if chosen is not None else variant or "standard"
    if isinstance(chosen, dict):
        try:
            return pay_table(chosen)
        except PayTableError as error:
            raise PayTableError(f"paytable.{error}") from None
    try:
        return resolve(chosen)
    except KeyError:
        raise PayTableError(
            f"paytable: no pay table is named {chosen} (GET /v1/paytables lists them)"
        ) from None
