"""Table metadata."""

from flask_smorest import Blueprint, abort

from api.http.answers import dumps, etag_of, json_response, not_modified, services
from api.http.auth import SECURITY, require_ingest_key
from api.http.requests import TableInSchema
from api.http.responses import RetiredSchema, TableSchema

blp = Blueprint("tables", __name__, description="Tables: name, variant, current shoe.")


@blp.route("/v1/tables/<id:table>", methods=["PUT"])
@require_ingest_key
@blp.arguments(TableInSchema(), error_status_code=400)
@blp.response(200, TableSchema)
@blp.doc(security=SECURITY)
def put_table(body, table):
    """Set a table's display name and variant (``standard``, ``no_commission``, ``speed``)."""
    services().tables.put(table, body["name"], body["variant"])
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
    """Retire a table: it leaves the lobby, Good Roads and the event feed (a ``retired`` event
    says so), while its shoes and rounds stay readable for audit. A later round for it starts it
    again, under the name it had. Retiring it again changes nothing."""
    info = services().tables.retire(table)
    if info is None:
        abort(404, message=f"no table {table}")
    where = f"/v1/tables/{table}/shoes/{{shoe}}/rounds"
    return {
        "table": table,
        "retired": True,
        "shoes": info["shoes"],
        "message": f"{table} left the lobby; its rounds stay readable at {where}",
    }
