"""The pay tables a table may name: the presets and the deployment's own (``PUT
/v1/tables/{table}`` sets one)."""

from __future__ import annotations

from flask_smorest import Blueprint, abort

from api.http.answers import services
from api.http.paytableschemas import PayTableSchema, PayTablesSchema
from api.http.responses import ErrorSchema
from api.storage.paytablestore import UnknownPayTable

blp = Blueprint("paytables", __name__, description="Pay tables: what each bet pays.")


@blp.route("/v1/paytables")
@blp.response(200, PayTablesSchema)
def paytables():
    """Every pay table a table may name: the presets (with where their pays are published),
    then the deployment's own, by name."""
    store = services().tables.paytables
    return {"paytables": [store.resolve(name).as_dict() for name in store.names()]}


@blp.route("/v1/paytables/<name>")
@blp.response(200, PayTableSchema)
@blp.alt_response(404, schema=ErrorSchema, description="No pay table has the name.")
def paytable(name):
    """One pay table: each bet's rules in order (the first a round meets decides)."""
    try:
        return services().tables.paytables.resolve(name).as_dict()
    except UnknownPayTable:
        abort(404, message=f"no pay table is named {name}")
