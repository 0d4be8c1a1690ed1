"""The multi-table lobby: every table's tile, sorting by streak, and Good Roads."""

from __future__ import annotations

import functools
import hashlib
from contextlib import nullcontext

from flask import Response
from flask_smorest import Blueprint

from api.codecs.tablestatus import admits
from api.codecs.tiles import Tile, good_roads_answer, lobby_answer
from api.http.answers import dumps, etag_of, json_response, not_modified, services
from api.http.auth import HEADER, reads_odds
from api.http.catalogues import catalogue, pattern_text
from api.http.compression import keep_compressed
from api.http.lobbyschemas import GoodRoadsSchema, PatternsSchema, TablesSchema
from api.http.parsing import QueryMemoParser
from api.http.requests import GoodRoadsQuerySchema, LobbyQuerySchema, PatternsQuerySchema
from api.metrics import read_cache
from api.storage.lobbystore import sorted_by_streak
from roads.expressions import parse_expression
from roads.patterns import PROFILES, Pattern
from roads.rarity import pattern_chance

blp = Blueprint(
    "lobby", __name__, description="The multi-table lobby: every table at once, Good Roads."
)
blp.ARGUMENTS_PARSER = QueryMemoParser()  # every lobby client sends the same few queries


@functools.cache
def pattern_list(profile: str, lang: str, hands: int) -> tuple[bytes, str]:
    """The answer of ``/v1/patterns`` for a profile and a language, and its ETag (made once);
    each pattern's ``chance`` is of a shoe of ``hands`` hands."""
    patterns = []
    for pattern in PROFILES[profile]:
        name, description = pattern_text(lang, pattern.id)
        chance = pattern_chance(pattern, hands).value
        patterns.append(
            {"id": pattern.id, "name": name, "description": description, "chance": chance}
        )
    body = dumps(
        {
            "profile": profile,
            "profiles": list(PROFILES),
            "lang": lang,
            "hands": hands,
            "patterns": patterns,
            "custom": catalogue(lang)["patterns.custom_help"],
        }
    )
    return body, etag_of("patterns", hashlib.sha1(body).hexdigest())


@blp.route("/v1/patterns")
@blp.arguments(PatternsQuerySchema(), location="query", error_status_code=400)
@blp.response(200, PatternsSchema)
def patterns(query):
    """The built-in Good Roads patterns of a profile, and how to write your own.

    Each pattern with its id, name and a one-line description, in ``lang`` (the lobby page's
    languages). ``profile=classic`` (the default) has the multi-table lobby's twelve and two
    more; ``profile=asia`` the twelve good roads of Asian lobbies (长庄, 单跳, 一厅两房 ...).
    Each pattern's ``chance`` is that a shoe of ``hands`` hands shows it at least once
    (``/v1/rarity``).
    Every built-in pattern, of either profile, can be asked for in ``/v1/good-roads`` and
    comes in the ``good_road`` events."""
    body, etag = pattern_list(query["profile"], query["lang"], services().settings.rarity_hands)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    return json_response(body, etag)


@blp.route("/v1/tables", methods=["GET"])
@blp.arguments(LobbyQuerySchema(), location="query", error_status_code=400)
@blp.response(200, TablesSchema)
def tables(query):
    """Every table's tile, for the lobby.

    A tile: name, variant, current shoe, rounds played, the last results, the current and
    longest run of each road, and the Good Roads it matches now. ``sort=streak``
    puts the longest current run on ``road`` first (then the longest run of the shoe);
    ``since=CURSOR`` adds ``grown``, the tables whose run on ``road`` grew since that cursor.
    ``stake`` (and ``bet``) keeps the tables whose limits take that stake. Each tile has the
    table's ``status`` as the studio last reported it and its ``limits``.
    Every answer carries a new ``cursor``. ``edge`` (the bets returning over 100% now) is
    empty without a read key, unless the odds are public."""
    road, since, sort = query["road"], query.get("since"), query.get("sort")
    stake = query.get("stake")
    bet = query.get("bet") if stake is not None else None  # alone it asks nothing
    lobby, answers = services().lobby, services().lobby_answers
    odds = reads_odds()
    # The cheap read first: an unchanged lobby is answered without reading every table.
    key = (*lobby.cursor(), sort, road, since, odds, stake, bet)
    unchanged = not_modified(etag_of("tables", *key))
    if unchanged is not None:
        read_cache("lobby", "held").inc()
        return unchanged
    body = answers.get(key)
    read_cache("lobby", "built" if body is None else "memory").inc()
    if body is None:
        # The lobby may have moved meanwhile: the answer carries the cursor it was read at.
        cursor, tiles, grown = lobby.tables(grown_road=road if since is not None else None)
        key = (*cursor, sort, road, since, odds, stake, bet)
        tiles = _listed(tiles, sort, road, stake, bet)
        body = lobby_answer(cursor[1], _grew(tiles, grown, since), tiles, odds)
        answers.put(key, body)
    keep_compressed(f"tables:{key}")  # the same bytes for every client until the cursor moves
    response = json_response(body, etag_of("tables", *key))
    response.vary.add(HEADER)  # the edge flags show with a read key only
    return response


def _listed(
    tiles: list[Tile], sort: str | None, road: str, stake: float | None, bet: str | None
) -> list[Tile]:
    """The tiles ``GET /v1/tables`` lists: those whose limits take ``stake`` (on ``bet``) when
    it is asked, longest current run on ``road`` first with ``sort=streak``, else by id."""
    if stake is not None:
        tiles = [tile for tile in tiles if admits(tile.limits, stake, bet)]
    if sort == "streak":
        return sorted_by_streak(tiles, road)
    return sorted(tiles, key=lambda tile: tile.table)


def _grew(tiles: list[Tile], grown: dict[bytes, bytes], since: int | None) -> int | None:
    """The badge: how many of the listed tables' runs grew since the cursor ``since``."""
    if since is None:
        return None
    listed = {tile.table.encode() for tile in tiles}
    return sum(1 for table, seq in grown.items() if table in listed and int(seq) > since)


@blp.route("/v1/good-roads")
@blp.arguments(GoodRoadsQuerySchema(), location="query", error_status_code=400)
@blp.response(200, GoodRoadsSchema)
def good_roads(query):
    """The tables that match Good Roads patterns now.

    One item per (table, pattern) with the round the pattern holds from and the table's tile.
    ``patterns`` picks built-in ones (comma-separated
    ids), ``profile`` a whole profile's, ``custom`` adds your own (``X1 Y2 X1 Y2``); none of
    them means the classic profile."""
    chosen, custom = _built_in(query.get("patterns")), _custom(query.get("custom") or [])
    profile = query.get("profile") or ("classic" if not chosen and not custom else None)
    if profile is not None:
        chosen = list(dict.fromkeys([*chosen, *(pattern.id for pattern in PROFILES[profile])]))
    # A query with custom patterns takes its place before any work: one refused costs nothing.
    with services().custom_queries.entered() if custom else nullcontext():
        lobby = services().lobby
        found = lobby.members(chosen) + (lobby.custom_members(custom) if custom else [])
        found.sort(key=lambda item: (item[0], item[1]))
        tiles = lobby.tiles_of(sorted({table for table, _, _ in found}))
    body = good_roads_answer(found, tiles, reads_odds())
    response = Response(body, mimetype="application/json")
    response.vary.add(HEADER)
    return response


def _built_in(text: str | None) -> list[str]:
    """The pattern ids of a ``patterns`` query (known ids, checked by its schema), each once."""
    return list(dict.fromkeys(text.split(","))) if text else []


def _custom(texts: list[str]) -> list[Pattern]:
    """The patterns of the ``custom`` queries (well written, checked by their schema)."""
    return [parse_expression(text) for text in texts]
