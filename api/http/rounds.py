"""Ingest (dealer and game servers) and the round history."""

from datetime import UTC, datetime
from typing import Any

from flask import Response
from flask_smorest import Blueprint, abort

from api.codecs import jsontext
from api.codecs.roundfacts import RoundFacts, dealt_rule, reported
from api.codecs.times import utc_text
from api.http.answers import history_answer, services
from api.http.auth import SECURITY, check_scope, key_name, require_ingest_key
from api.http.errorreplies import status_of
from api.http.parsing import BodyParser
from api.http.requests import BatchInSchema, CorrectionSchema, RoundInSchema
from api.http.responses import BatchResultSchema, ErrorSchema, HistorySchema, WriteResultSchema
from api.http.watching import refused
from api.metrics import ROUNDS
from api.writes.refusals import Conflict
from api.writes.writer import Written
from roads import RoadsError, Round, RuleError, ShoeError

blp = Blueprint("rounds", __name__, description="Reporting rounds, and each shoe's history.")
blp.ARGUMENTS_PARSER = BodyParser()  # every JSON body decoded by the one codec

SHOE = "/v1/tables/<id:table>/shoes/<id:shoe>"

# The answer a report gets when its body is well formed but the round it describes is not one the
# rules of baccarat deal (api.http.errorreplies.STATUS).
AGAINST_THE_RULES = {
    "schema": ErrorSchema,
    "description": "Well formed, but against the rules: cards the drawing rules would not deal, "
    "totals that disagree with the result, a natural without an 8 or 9.",
}


def round_of_report(report: dict[str, Any]) -> Round:
    """The :class:`Round` a validated report describes (the rules are checked here)."""
    if "player" in report:
        return Round.from_cards(report["player"], report["banker"])
    return Round.from_result(
        report["result"],
        player_pair=report.get("player_pair", False),
        banker_pair=report.get("banker_pair", False),
        natural=report.get("natural", False),
        player_total=report.get("player_total"),
        banker_total=report.get("banker_total"),
    )


def checked_round(report: dict[str, Any]) -> Round:
    """:func:`round_of_report`; a card report that breaks the drawing rules is counted for the
    integrity watch before its 422."""
    try:
        return round_of_report(report)
    except RuleError:
        if "player" in report:
            refused("rules_broken")
        raise


def facts_of(report: dict[str, Any], now: datetime, where: str = "") -> RoundFacts:
    """The report's own facts (:mod:`api.codecs.roundfacts`), stamped with the service's clock
    ``now`` when it says not when it was dealt; a ``dealt_at`` out of bounds is a 422 (its
    message after ``where``, a batch item's place)."""
    broken = dealt_rule(report.get("dealt_at"), now)
    if broken is not None:
        abort(422, message=f"{where}{broken}")
    return reported(report, utc_text(now))


def written(table: str, shoe: str, write: Written, status: int) -> Response:
    # Serialized here, not by the response schema: the record is already plain JSON types, and
    # ingest is the hottest write path (the schema still documents the answer; the tests hold
    # the two equal). By orjson, as the record is stored: the standard library's encoder cost
    # this answer ~60 us of a round's CPU.
    answer = {"table": table, "shoe": shoe, "version": write.version, "round": write.record}
    status = status if write.changed else 200
    return Response(jsontext.dumps(answer), status, mimetype="application/json")


@blp.route(f"{SHOE}/rounds", methods=["POST"])
@require_ingest_key
@blp.arguments(RoundInSchema(), error_status_code=400)
@blp.response(201, WriteResultSchema, description="Stored; the shoe's new version.")
@blp.alt_response(200, schema=WriteResultSchema, description="The identical round again.")
@blp.alt_response(422, **AGAINST_THE_RULES)
@blp.doc(security=SECURITY)
def post_round(report, table, shoe):
    """Report the next round of a shoe, with its cards or its result.

    ``round`` must be the shoe's next round (1 starts a new shoe, which becomes the table's
    current shoe and closes the previous one). The identical round sent again is a safe retry
    (200, same version); a different one, or a gap, is 409 with ``expected_round``.

    A round may carry its own facts: ``game_id`` (unique per table: another round under a
    game id the table has is 409 naming its shoe and round), ``dealt_at`` (else the service's
    clock) and ``dealer``. They are kept in its record, its events and the record's chain.
    """
    round = checked_round(report)
    facts = facts_of(report, datetime.now(UTC))
    try:
        write = services().writer.append(table, shoe, report["round"], round, key_name(), facts)
    except Conflict:
        ROUNDS.labels("conflict").inc()
        raise
    except ShoeError:
        refused("too_many_copies")
        raise
    ROUNDS.labels("stored" if write.changed else "replay").inc()
    return written(table, shoe, write, 201)


@blp.route("/v1/rounds", methods=["POST"])
@require_ingest_key
@blp.arguments(BatchInSchema(), error_status_code=400)
@blp.response(200, BatchResultSchema, description="One outcome per round, in order.")
@blp.alt_response(422, **AGAINST_THE_RULES)
@blp.doc(security=SECURITY)
def post_rounds(batch):
    """Report rounds of several tables at once (a game server running many tables).

    Each round is stored exactly as ``POST /v1/tables/{table}/shoes/{shoe}/rounds`` would store
    it, and its outcome carries the status that call would have answered, so one round's 409
    does not stop the others. A malformed item (400) or a round against the rules (422) rejects
    the whole batch before anything is stored, as does a table the key may not write (403 naming
    it: an ingest key's tables are its scope). The first round of each table goes to Redis with
    the others in one round trip per Redis node, which makes a batch much cheaper per round
    than single reports.
    """
    check_scope([report["table"] for report in batch["rounds"]])
    items = []
    now = datetime.now(UTC)
    for index, report in enumerate(batch["rounds"]):
        try:
            round = checked_round(report)
        except RoadsError as error:
            abort(status_of(error), message=f"rounds.{index}: {error}")
        facts = facts_of(report, now, f"rounds.{index}.")
        items.append((report["table"], report["shoe"], report["round"], round, facts))
    outcomes = services().writer.append_many(items, key_name())
    for outcome in outcomes:
        if isinstance(outcome, ShoeError):
            refused("too_many_copies")
    results = [
        outcome_of(table, shoe, outcome)
        for (table, shoe, *_), outcome in zip(items, outcomes, strict=True)
    ]
    return Response(jsontext.dumps({"results": results}), 200, mimetype="application/json")


def outcome_of(table: str, shoe: str, outcome: Written | Exception) -> dict:
    """One round's outcome in a batch: the status and body its single report would get."""
    answer: dict[str, Any] = {"table": table, "shoe": shoe}
    if isinstance(outcome, Written):
        status = 201 if outcome.changed else 200
        ROUNDS.labels("stored" if outcome.changed else "replay").inc()
        return {**answer, "status": status, "version": outcome.version, "round": outcome.record}
    if isinstance(outcome, Conflict):
        ROUNDS.labels("conflict").inc()
        return {**answer, "status": 409, "message": outcome.message, **outcome.details}
    return {**answer, "status": status_of(outcome), "message": str(outcome)}


@blp.route(f"{SHOE}/rounds/<int:number>", methods=["PUT"])
@require_ingest_key
@blp.arguments(CorrectionSchema(), error_status_code=400)
@blp.response(200, WriteResultSchema)
@blp.alt_response(422, **AGAINST_THE_RULES)
@blp.doc(security=SECURITY)
def put_round(report, table, shoe, number):
    """Correct a round (a dealer error fixed after the fact).

    The roads are rebuilt. A ``round`` in the body must be the path's ``number`` (422
    otherwise)."""
    if report.get("round", number) != number:
        abort(422, message=f"the body's round {report['round']} is not the path's round {number}")
    write = services().writer.replace(table, shoe, number, checked_round(report), key_name())
    return written(table, shoe, write, 200)


@blp.route(f"{SHOE}/rounds/<int:number>/void", methods=["POST"])
@require_ingest_key
@blp.response(200, WriteResultSchema)
@blp.doc(security=SECURITY)
def void_round(table, shoe, number):
    """Cancel a round (void).

    It stays in the history, marked void, and leaves every road."""
    write = services().writer.void(table, shoe, number, key_name())
    return written(table, shoe, write, 200)


@blp.route(f"{SHOE}/rounds", methods=["GET"])
@blp.response(200, HistorySchema)
def get_rounds(table, shoe):
    """Every round of the shoe in order, void rounds included and marked."""
    return history_answer(table, shoe)
