"""Table metadata, the table's status as the studio reports it, and what the studio reports
between rounds."""

from flask_smorest import Blueprint, abort

from api.codecs.studioevents import studio_event, studio_rule
from api.codecs.tablestatus import status_fields, status_report
from api.codecs.times import now_text
from api.http.answers import dumps, etag_of, json_response, not_modified, services
from api.http.archive import archive_path
from api.http.auth import SECURITY, key_name, require_ingest_key, writes_every_table
from api.http.parsing import BodyParser
from api.http.paytableschemas import requested
from api.http.responses import ErrorSchema, RetiredSchema, TableSchema
from api.http.tableschemas import (
    StatusInSchema,
    StatusSchema,
    StudioInSchema,
    StudioSchema,
    TableInSchema,
    limits_rule,
    status_rule,
)
from api.storage.paytablestore import PayTableTaken
from roads.paytables import PayTableError

blp = Blueprint("tables", __name__, description="Tables: name, pay table, current shoe.")
NEW_PAYTABLE_SCOPE = (
    "a pay table new to the deployment is defined with a key that may write every table; this "
    "key may name one the deployment has (GET /v1/paytables)"
)
blp.ARGUMENTS_PARSER = BodyParser()  # every JSON body decoded by the one codec


@blp.route("/v1/tables/<id:table>", methods=["PUT"])
@require_ingest_key
@blp.arguments(TableInSchema(), error_status_code=400)
@blp.response(200, TableSchema)
@blp.alt_response(
    422, schema=ErrorSchema, description="Limits' min above max; an unpriceable pay table."
)
@blp.alt_response(
    409, schema=ErrorSchema, description="A pay table under another's name; 200 kept."
)
@blp.doc(security=SECURITY)
def put_table(body, table):
    """Name a table and set its pay table and limits.

    ``paytable`` names a pay table (a preset: ``GET /v1/paytables``) or is a whole one of the
    table's own, kept under its name (a name is one pay table for ever: another pay table under
    a taken name is a 409). Every return, edge and side-bet alert of the table is priced under
    it. While the table has a current shoe, a new pay table applies from the next shoe's first
    round (``next_variant`` until then) unless ``now``; each round's record names the pay table
    it was priced under. ``limits`` (the table's, and each bet's own) show on its lobby tile, and
    ``GET /v1/tables?stake=`` picks tables by them; a table named without them has none. A
    retired table is back. 422 for a pay table the engine cannot price, naming what; 403 for a
    pay table new to the deployment sent with a key scoped to some tables only (a name is the
    deployment's: a key that may write every table defines it)."""
    svc = services()
    limits = body.get("limits")
    broken = limits_rule(limits)
    if broken is not None:
        abort(422, message=broken)
    try:
        paytable = requested(body, svc.tables.paytables.resolve)
    except PayTableError as error:
        abort(422, message=str(error))
    if not (svc.tables.paytables.kept(paytable) or writes_every_table()):
        abort(403, message=NEW_PAYTABLE_SCOPE)
    try:
        svc.tables.put(table, body["name"], paytable, key_name(), limits, now=body["now"])
    except PayTableTaken as taken:
        abort(409, message=str(taken))
    return svc.tables.get(table)


@blp.route("/v1/tables/<id:table>/status", methods=["PUT"])
@require_ingest_key
@blp.arguments(StatusInSchema(), error_status_code=400)
@blp.response(200, StatusSchema)
@blp.alt_response(422, schema=ErrorSchema, description="Betting without its end; an end too far.")
@blp.doc(security=SECURITY)
def put_status(body, table):
    """Report what the table is doing: open, betting until a time, dealing, shuffling, paused or
    closed.

    Shown on its lobby tile (``status``, ``status_until``, ``status_reason``) and in the next
    lobby frame, whose ``server_time`` lets a browser count down to ``status_until`` by the
    service's clock; a ``status`` event goes out on the table's channel. The table keeps it
    until the next report (a table never reported is ``open``). 422 for betting without its
    end, or an end more than 5 s before or a day after the service's clock; 404 for a table the
    lobby does not list (never named nor dealt, or retired)."""
    broken = status_rule(body)
    if broken is not None:
        abort(422, message=broken)
    fields = status_fields(body["status"], body.get("until"), body.get("reason"))
    report = status_report(table, fields)
    if not services().lobby.set_status(table, fields, report):
        abort(404, message=f"no table {table} in the lobby: name it or deal its first round")
    return report


@blp.route("/v1/tables/<id:table>/studio", methods=["POST"])
@require_ingest_key
@blp.arguments(StudioInSchema(), error_status_code=400)
@blp.response(200, StudioSchema)
@blp.alt_response(422, schema=ErrorSchema, description="A field its kind needs or does not take.")
@blp.alt_response(409, schema=ErrorSchema, description="What the shoe's rounds contradict.")
@blp.doc(security=SECURITY)
def post_studio(body, table):
    """Report what happens between rounds: a shuffle, burned cards, the cut card out, new decks,
    a pause and its end, a round cancelled.

    Each is an event on the table's channel (``studio``) and a write in the record's chain (the
    table's own). A shuffle puts the table's status at ``shuffling``, a pause at ``paused`` (with
    its reason), a resume at ``open``; a cancel of a reported ``round`` voids it; burned cards
    named by their faces leave the shoe, so the exact odds (before a shoe's first round they
    wait for it). A report that changes nothing (a burn sent again under its ``report_id``, a
    fact of the shoe sent again) answers ``repeated``. 404 for a table the lobby does not list,
    or a round a cancel names that the shoe does not have; 409 for what the shoe's rounds
    contradict."""
    broken = studio_rule(body)
    if broken is not None:
        abort(422, message=broken)
    event = studio_event(table, body, now_text())
    if not services().studio.report(table, body, event, key_name()):
        return {**event, "repeated": True}
    return event


@blp.route("/v1/tables/<id:table>", methods=["GET"])
@blp.response(200, TableSchema)
def get_table(table):
    """A table's metadata, current shoe, that shoe's version and rounds played."""
    info = services().tables.get(table)
    if info is None:
        abort(404, message=f"no table {table}")
    etag = etag_of(table, info["current_shoe"], info["version"], info["meta_version"], "table")
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    return json_response(dumps(info), etag)


@blp.route("/v1/tables/<id:table>", methods=["DELETE"])
@require_ingest_key
@blp.response(200, RetiredSchema)
@blp.doc(security=SECURITY)
def retire_table(table):
    """Retire a table (its rounds are kept in the archive).

    It leaves the lobby, Good Roads and the event feed (a ``retired`` event says so), and
    everything under ``/v1/tables/{table}`` answers 404 naming the archive, where
    its shoes and rounds are kept for audit. A later round, or naming it again, brings it back
    under the name it had. Retiring it again changes nothing."""
    shoes = services().tables.retire(table, key_name())
    if shoes is None:
        abort(404, message=f"no table {table}")
    where = archive_path(table)
    return {
        "table": table,
        "retired": True,
        "shoes": shoes,
        "archive": where,
        "message": f"{table} left the lobby; its shoes and rounds are kept at {where}",
    }
