"""Table metadata."""

from flask_smorest import Blueprint, abort

from api.http.answers import dumps, etag_of, json_response, not_modified, services
from api.http.archive import archive_path
from api.http.auth import SECURITY, key_name, require_ingest_key
from api.http.parsing import BodyParser
from api.http.requests import TableInSchema
from api.http.responses import RetiredSchema, TableSchema

blp = Blueprint("tables", __name__, description="Tables: name, variant, current shoe.")
blp.ARGUMENTS_PARSER = BodyParser()  # every JSON body decoded by the one codec


@blp.route("/v1/tables/<id:table>", methods=["PUT"])
@require_ingest_key
@blp.arguments(TableInSchema(), error_status_code=400)
@blp.response(200, TableSchema)
@blp.doc(security=SECURITY)
def put_table(body, table):
    """Name a table and set its variant.

    The variant is ``standard``, ``no_commission`` or ``speed``. A retired table is back."""
    services().tables.put(table, body["name"], body["variant"], key_name())
    return services().tables.get(table)


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
