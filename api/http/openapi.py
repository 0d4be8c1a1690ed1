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

DESCRIPTION = """The roadmap and scorecard service of live baccarat: every table's Bead Plate, Big
Road, Big Eye Boy, Small Road and Cockroach Road, Ask Banker / Ask Player, streaks, shoe
statistics, Good Roads and the exact odds of the next round, as JSON, PNG pictures and a live
event stream.

Dealer and game servers report rounds with an ingest key (`X-API-Key`); reads need no key, but
for the odds, which need a read key unless the deployment makes them public.

Every error is JSON (`code`, `status`, `message`, `request_id`). 400: the request does not match
its schema below. 422: it does, but breaks a rule of the game the schema cannot state (cards the
drawing rules would not deal, totals against the result). 409: it contradicts what is stored (not
the shoe's next round, a 9th copy of a card). 503 with `Retry-After`: Redis is unavailable; a
retry is safe.
"""


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
