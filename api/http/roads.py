"""The scorecards: every road, or the statistics or the probe alone."""

from flask_smorest import Blueprint, abort

from api.http.answers import services, shoe_answer
from api.http.parsing import QueryMemoParser
from api.http.requests import RoadsQuerySchema
from api.http.responses import ProbeResponseSchema, RoadsSchema, StatsResponseSchema
from roads import Scorecard

blp = Blueprint(
    "roads", __name__, description="Scorecards of a shoe, or of a table's current shoe."
)
blp.ARGUMENTS_PARSER = QueryMemoParser()  # the same few query strings, read all the time

SHOE = "/v1/tables/<id:table>/shoes/<id:shoe>"
CURRENT = "/v1/tables/<id:table>"


def current_shoe(table: str) -> str:
    shoe = services().tables.current_shoe(table)
    if shoe is None:
        abort(404, message=f"table {table} has no current shoe")
    return shoe


def roads_of(scorecard: Scorecard, tail: str, ask: str | None) -> dict:
    if tail != scorecard.tail:
        scorecard = Scorecard.from_rounds(scorecard.rounds, tail=tail, decks=scorecard.decks)
    if ask is None:
        return scorecard.as_dict()
    return {**scorecard.preview(ask).as_dict(), "ask": ask}


@blp.route(f"{SHOE}/roads")
@blp.route(f"{CURRENT}/roads", endpoint="table_roads")
@blp.arguments(RoadsQuerySchema(), location="query", error_status_code=400)
@blp.response(200, RoadsSchema)
def roads(query, table, shoe=None):
    """Every road of a shoe, or of the table's current shoe.

    ``?ask=B|P`` previews the next
    result; ``?tail=drop`` switches the dragon-tail convention."""
    tail, ask = query["tail"], query.get("ask")
    return shoe_answer(
        table,
        shoe or current_shoe(table),
        f"roads:{tail}:{ask or '-'}",
        lambda scorecard: roads_of(scorecard, tail, ask),
    )


@blp.route(f"{SHOE}/stats")
@blp.route(f"{CURRENT}/stats", endpoint="table_stats")
@blp.response(200, StatsResponseSchema)
def stats(table, shoe=None):
    """Shoe statistics and streaks alone, of a shoe or of the table's current shoe."""
    return shoe_answer(
        table,
        shoe or current_shoe(table),
        "stats",
        lambda scorecard: {"stats": scorecard.stats(), "streaks": scorecard.streaks()},
    )


@blp.route(f"{SHOE}/probe")
@blp.route(f"{CURRENT}/probe", endpoint="table_probe")
@blp.response(200, ProbeResponseSchema)
def probe(table, shoe=None):
    """Ask Banker / Ask Player alone, of a shoe or of the table's current shoe.

    The mark each derived road would get if the next result were Banker, or Player."""
    return shoe_answer(
        table, shoe or current_shoe(table), "probe", lambda scorecard: {"probe": scorecard.probe()}
    )
