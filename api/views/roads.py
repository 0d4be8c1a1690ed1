"""The scorecards: every road, or the statistics or the probe alone."""

from flask_smorest import Blueprint, abort

from api.schemas import ProbeResponseSchema, RoadsQuerySchema, RoadsSchema, StatsResponseSchema
from api.views.common import shoe_answer, store
from roads import Scorecard

blp = Blueprint(
    "roads", __name__, description="Scorecards of a shoe, or of a table's current shoe."
)

SHOE = "/v1/tables/<id:table>/shoes/<id:shoe>"
CURRENT = "/v1/tables/<id:table>"


def current_shoe(table: str) -> str:
    shoe = store().current_shoe(table)
    if shoe is None:
        abort(404, message=f"table {table} has no current shoe")
    return shoe


def roads_of(scorecard: Scorecard, tail: str, ask: str | None) -> dict:
    if tail != scorecard.tail:
        scorecard = Scorecard.from_rounds(scorecard.rounds, tail=tail, decks=scorecard.decks)
    if ask is None:
        return scorecard.as_dict()
    return {**scorecard.preview(ask).as_dict(), "ask": ask}


def roads_answer(table: str, shoe: str, query: dict):
    tail, ask = query["tail"], query.get("ask")
    name = f"roads:{tail}:{ask or '-'}"
    return shoe_answer(table, shoe, name, lambda scorecard: roads_of(scorecard, tail, ask))


def stats_answer(table: str, shoe: str):
    return shoe_answer(table, shoe, "stats", lambda s: {"stats": s.stats(), "streaks": s.streaks()})


def probe_answer(table: str, shoe: str):
    return shoe_answer(table, shoe, "probe", lambda s: {"probe": s.probe()})


@blp.route(f"{SHOE}/roads")
@blp.arguments(RoadsQuerySchema(), location="query", error_status_code=400)
@blp.response(200, RoadsSchema)
def shoe_roads(query, table, shoe):
    """Every road of a shoe. ``?ask=B|P`` previews the next result; ``?tail=drop`` switches the
    dragon-tail convention."""
    return roads_answer(table, shoe, query)


@blp.route(f"{CURRENT}/roads")
@blp.arguments(RoadsQuerySchema(), location="query", error_status_code=400)
@blp.response(200, RoadsSchema)
def table_roads(query, table):
    """Every road of the table's current shoe (same options as the shoe's roads)."""
    return roads_answer(table, current_shoe(table), query)


@blp.route(f"{SHOE}/stats")
@blp.response(200, StatsResponseSchema)
def shoe_stats(table, shoe):
    """Shoe statistics and streaks alone."""
    return stats_answer(table, shoe)


@blp.route(f"{CURRENT}/stats")
@blp.response(200, StatsResponseSchema)
def table_stats(table):
    """Statistics and streaks of the table's current shoe."""
    return stats_answer(table, current_shoe(table))


@blp.route(f"{SHOE}/probe")
@blp.response(200, ProbeResponseSchema)
def shoe_probe(table, shoe):
    """Ask Banker / Ask Player alone: the mark each derived road would get."""
    return probe_answer(table, shoe)


@blp.route(f"{CURRENT}/probe")
@blp.response(200, ProbeResponseSchema)
def table_probe(table):
    """Ask Banker / Ask Player for the table's current shoe."""
    return probe_answer(table, current_shoe(table))
