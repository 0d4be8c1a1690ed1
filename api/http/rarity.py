"""How unusual is this? The chance that a shoe shows a run or a Good Road, and that one of a
lobby's tables does (:mod:`roads.rarity`)."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_smorest import Blueprint, abort

from api.http.answers import dumps, etag_of, not_modified, services
from api.http.rarityschemas import RarityQuerySchema, RaritySchema
from roads.expressions import parse_expression
from roads.rarity import Chance, RarityError, lobby_chance, pattern_chance, run_chance

blp = Blueprint("rarity", __name__, description="How unusual a run or a Good Road is.")

# The answer follows from the query and the model alone: a client may keep it for a day.
CACHE_CONTROL = "public, max-age=86400"


@blp.route("/v1/rarity")
# 422, not 400: "one question, and a side its road has" is a rule the query's JSON Schema cannot
# state, so a query the document allows may be refused by it.
@blp.arguments(RarityQuerySchema(), location="query", error_status_code=422)
@blp.response(200, RaritySchema)
def rarity(query):
    """The chance that a shoe shows a run, or a Good Road, at least once.

    Ask for a run (``road``, ``side``, ``length``: "a Banker run of 8 or more") or a pattern
    (``pattern``, a built-in one's id, or ``custom``, your own). ``hands``: the shoe's hands,
    ties included (80 unless the service says otherwise). ``tables``: adds ``lobby_chance``, the
    chance that at least one of that many tables shows it, ``1 - (1 - chance)^tables``.

    Big Road runs and patterns are exact (a Markov chain over a fresh 8-deck shoe's outcome
    probabilities); a derived road's run is read from a table of 1,000,000 simulated shoes,
    with its 95% interval."""
    hands = query.get("hands", services().settings.rarity_hands)
    key = etag_of("rarity", hands, *sorted(query.items()))
    unchanged = not_modified(key)
    if unchanged is not None:
        return unchanged
    try:
        chance, asked = _answered(query, hands)
    except RarityError as error:  # a custom pattern too large to sum: a 422 like the others
        abort(422, message=str(error))
    body = dumps(answer(chance, asked, query.get("tables")))
    response = Response(body, mimetype="application/json")
    response.set_etag(key)
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response


def _answered(query: dict[str, Any], hands: int) -> tuple[Chance, dict[str, Any]]:
    """The chance the query asks for, and what it asked, as the answer repeats it."""
    asked: dict[str, Any] = {"hands": hands}
    if "pattern" in query:
        chance = pattern_chance(query["pattern"], hands)
        asked["pattern"] = query["pattern"]
    elif "custom" in query:
        pattern = parse_expression(query["custom"])
        with services().custom_queries.entered():  # summed afresh each time: a few at once
            chance = pattern_chance(pattern, hands)
        asked["pattern"] = pattern.id
    else:
        road, side, length = query["road"], query["side"], query["length"]
        chance = run_chance(road, side, length, hands)
        asked.update(road=road, side=side, length=length)
    return chance, asked


def answer(chance: Chance, asked: dict[str, Any], tables: int | None) -> dict[str, Any]:
    """The answer: the chance, ``one_in`` (its inverse), how it was found, what was asked."""
    found = {**chance.as_dict(), "one_in": 1 / chance.value if chance.value else None, **asked}
    if tables is not None:
        found.update(tables=tables, lobby_chance=lobby_chance(chance.value, tables))
    return found
