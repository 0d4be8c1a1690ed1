"""Rounds by what the studio knows of them: one round by its game id, a table's last games
across shoes (AGCO's recall of the last game and the nine before it), a table's rounds by the
UTC day or time they were dealt (paged), and every table's rounds of a time range streamed as
NDJSON or CSV for regulators and BI.

A game is read from Redis while its shoe is there, its place in the record's chain added when
the record has it; else from the record (:mod:`api.record.roundreads`). Each answer needs a read
or an operator key unless ``ROADS_PUBLIC_RECORD=1`` and is bounded per process as every read of
the record is (:mod:`api.http.recordaccess`). The export holds its reader's slot while it
streams, and never more than one batch of rows in memory."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from flask import Response
from flask_smorest import Blueprint, abort

from api.codecs.roundexport import as_csv, as_ndjson
from api.http.answers import services
from api.http.gameschemas import (
    LONGEST_EXPORT,
    ExportRangeQuerySchema,
    GameSchema,
    GamesQuerySchema,
    GamesSchema,
    OutOfRange,
    RoundPageSchema,
    RoundsQuerySchema,
    time_range,
)
from api.http.recordaccess import SECURITY, record_read, require_record_reader
from api.record.database import RecordUnavailable
from api.record.recordreads import BadCursor
from api.record.roundreads import RecordedRound, RoundReads
from api.storage.games import HotRound

blp = Blueprint("games", __name__, description="Rounds by game id, by day, and exported.")


def record_rounds(required: bool = False) -> RoundReads | None:
    """The record's reads of rounds; ``None`` without a record (a 404 when ``required``)."""
    record = services().record
    if record is None or record.rounds is None:
        if required:
            abort(404, message="this deployment keeps no record (ROADS_DATABASE_URL is not set)")
        return None
    return record.rounds


def hot(found: HotRound, recorded: RecordedRound | None = None) -> dict[str, Any]:
    """A round read from Redis, with its place in the chain when the record has its latest
    write."""
    fresh = recorded is not None and recorded.record.get("version") == found.record.get("version")
    place = recorded.as_dict() if fresh and recorded is not None else None
    return {
        **found.as_dict(),
        "corrected": place["corrected"] if place else None,
        "chain": place["chain"] if place else None,
        "source": "redis",
    }


def cold(found: RecordedRound) -> dict[str, Any]:
    return {**found.as_dict(), "source": "record"}


@blp.route("/v1/tables/<id:table>/games/<game_id:game_id>")
@blp.doc(security=SECURITY)
@blp.response(200, GameSchema)
@record_read
def game(table, game_id):
    """One round by the game server's id: its cards, result, when it was dealt, its dealer,
    whether it was voided or corrected, and its place in the record's chain."""
    rounds = record_rounds()
    found = services().games.game(table, game_id)
    if found is not None:
        return hot(found, _recorded(rounds, table, game_id))
    recorded = rounds.game(table, game_id) if rounds is not None else None
    if recorded is None:
        abort(404, message=f"table {table} has no game {game_id}")
    return cold(recorded)


def _recorded(rounds: RoundReads | None, table: str, game_id: str) -> RecordedRound | None:
    """The record's game, when there is a record and it answers (a round in Redis is served
    without its place in the chain rather than not at all)."""
    if rounds is None:
        return None
    try:
        return rounds.game(table, game_id)
    except RecordUnavailable:
        return None


@blp.route("/v1/tables/<id:table>/games")
@blp.doc(security=SECURITY)
@blp.arguments(GamesQuerySchema(), location="query", error_status_code=400)
@blp.response(200, GamesSchema)
@record_read
def last_games(query, table):
    """The table's last games across shoes in their original order, oldest first (void ones
    included and marked): from Redis, then the record for shoes that left it."""
    count = query["last"]
    found = services().games.last(table, count)
    games = [hot(round) for round in found.rounds]
    rounds = record_rounds()
    if not found.whole and rounds is not None:
        older = rounds.last(table, count - len(games), found.shoes)
        games = [cold(round) for round in older] + games
    if not games:
        abort(404, message=f"table {table} has no games")
    return {"table": table, "games": games[-count:]}


@blp.route("/v1/tables/<id:table>/rounds")
@blp.doc(security=SECURITY)
@blp.arguments(RoundsQuerySchema(), location="query", error_status_code=400)
@blp.response(200, RoundPageSchema)
@record_read
def rounds_by_time(query, table):
    """The table's rounds by the UTC day or the time they were dealt, from the record, in the
    order they were dealt, a page at a time (``next_cursor``)."""
    try:
        start, end = time_range(query)
        found, cursor = record_rounds(required=True).between(
            table, start, end, query.get("cursor"), query["limit"]
        )
    except (OutOfRange, BadCursor) as error:  # their form is right: their meaning is not
        abort(422, message=str(error))
    return {"table": table, "rounds": [cold(round) for round in found], "next_cursor": cursor}


@blp.route("/v1/export/rounds")
@blp.doc(
    security=SECURITY,
    responses={
        "200": {
            "description": "Every table's rounds dealt in the range, in the order they were "
            "dealt: NDJSON (each round as GET /v1/tables/{table}/games/{game_id} answers it) "
            "or CSV.",
            "content": {
                "application/x-ndjson": {"schema": {"type": "string"}},
                "text/csv": {"schema": {"type": "string"}},
            },
        }
    },
)
@blp.arguments(ExportRangeQuerySchema(), location="query", error_status_code=400)
@require_record_reader
def export_rounds(query):
    """Every table's rounds of a time range (at most 31 days), streamed from the record."""
    try:
        start, end = time_range(query, LONGEST_EXPORT)
    except OutOfRange as error:
        abort(422, message=str(error))
    rounds = record_rounds(required=True)
    stack = ExitStack()
    # The process's bound on reads of the record (api.http.recordaccess) and the reader's slot
    # are taken now and held until the stream ends: a busy record is a 503 before anything is
    # sent, and a crowd of exports never holds every connection of the pool.
    stack.enter_context(services().record_reads.entered())
    try:
        found = rounds.stream(start, end, stack)
    except BaseException:
        stack.close()
        raise
    answers = (round.as_dict() for round in found)
    lines = as_csv(answers) if query["format"] == "csv" else as_ndjson(answers)
    mimetype = "text/csv" if query["format"] == "csv" else "application/x-ndjson"
    name = f"rounds-{start:%Y%m%dT%H%M%SZ}-{end:%Y%m%dT%H%M%SZ}.{query['format']}"
    response = Response(_closing(lines, stack), mimetype=mimetype)
    # Closed when the answer is, too: a HEAD request's body is never read, so the generator
    # never starts and its own close would give nothing back (an ExitStack closes once).
    response.call_on_close(stack.close)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _closing(lines: Iterator[bytes], stack: ExitStack) -> Iterator[bytes]:
    """``lines``, the stack closed once they end or the client goes."""
    with stack:
        yield from lines
