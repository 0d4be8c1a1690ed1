"""What the OpenAPI document says beyond what apispec reads off the schemas' fields.

A round is reported with its cards or with its result, never both (:class:`ReportSchema`'s own
validator says so); JSON Schema states that as a ``oneOf`` of two closed objects, which this
apispec plugin writes from the fields the schema names for each form. Clients (and schemathesis)
then see exactly the bodies the service takes.
"""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin

from api.http.requests import ReportSchema


class ReportFormsPlugin(BasePlugin):
    """Writes every :class:`ReportSchema` as ``oneOf``: the cards form, the result form."""

    def schema_helper(self, name: str, definition: dict, **kwargs: Any) -> dict | None:
        schema = kwargs.get("schema")
        kind = schema if isinstance(schema, type) else type(schema)
        if not issubclass(kind, ReportSchema):
            return None
        # ``definition`` is apispec's own copy of the object the marshmallow plugin wrote; its
        # fields move into the two forms, so they are taken out of it (an update cannot remove).
        properties = definition.pop("properties")
        required = definition.pop("required", [])
        definition.pop("additionalProperties", None)
        # (title, the form's required fields, the other form's fields, left out of this one)
        forms = (("cards", kind.CARDS, kind.DETAILS), ("result", ("result",), kind.CARDS))
        return {
            "oneOf": [
                {
                    "title": title,
                    "type": "object",
                    "properties": {k: v for k, v in properties.items() if k not in excluded},
                    "required": [*required, *needs],
                    "additionalProperties": False,
                }
                for title, needs, excluded in forms
            ]
        }
