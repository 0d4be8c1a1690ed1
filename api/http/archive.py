"""The archive: retired tables, their shoes and rounds, kept for audit.

``DELETE /v1/tables/{table}`` retires a table: everything under ``/v1/tables/{table}`` then
answers 404 naming :func:`archive_path`, where the table and each shoe's history are read until
a write brings the table back (and the archive no longer lists it). The archive is the record's:
a read or an operator key unless ``ROADS_PUBLIC_RECORD=1``, bounded per process
(:mod:`api.http.recordaccess`).
"""

from flask_smorest import Blueprint, abort

from api.http.answers import history_answer, services
from api.http.recordaccess import SECURITY, record_read
from api.http.responses import ArchivedTableSchema, HistorySchema

blp = Blueprint("archive", __name__, description="Retired tables: their shoes and rounds.")

TABLE = "/v1/archive/tables/<id:table>"


def archive_path(table: str) -> str:
    """Where a retired table is read."""
    return f"/v1/archive/tables/{table}"


@blp.route(TABLE)
@blp.doc(security=SECURITY)
@blp.response(200, ArchivedTableSchema)
@record_read
def archived_table(table):
    """A retired table: its name, variant and shoes (404 unless it is retired)."""
    info = services().tables.archived(table)
    if info is None:
        abort(404, message=f"table {table} is not retired (see /v1/tables/{table})")
    keep = ("table", "name", "variant", "shoes")
    return {**{name: info[name] for name in keep}, "retired": True}


@blp.route(f"{TABLE}/shoes/<id:shoe>/rounds")
@blp.doc(security=SECURITY)
@blp.response(200, HistorySchema)
@record_read
def archived_rounds(table, shoe):
    """Every round of a retired table's shoe, void rounds included and marked."""
    return history_answer(table, shoe, archived=True)
