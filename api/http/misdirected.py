"""The public door refuses writes (``ROADS_DOOR=public``; the doors: :mod:`api.doors`).

A deployment of two doors takes the game servers' writes at the ingest door and everything else
at the public one, the proxy in front routing by method (``deploy/nginx/doors.conf``). A write
that reaches the public door was misrouted: it is answered at once, before its body is read or
its key looked at, with a 421 Misdirected Request in the service's error shape
(:mod:`api.http.errorreplies`) saying that writes are taken at the ingest door. The answer names
no address (the ingest door's is the operator's to know, not a client's), so a proxy's misroute
shows in its first answer and the access log rather than as a slow ingest. The ingest door and
a single door (``both``) take writes and reads alike.
"""

from __future__ import annotations

from flask import Flask, request
from flask_smorest import abort

from api.http.traffic import ROUTE, route_label

WRITES = frozenset(("POST", "PUT", "PATCH", "DELETE"))
MESSAGE = (
    "writes are taken at the ingest door, not at this public one: the proxy in front sent "
    "this request to the wrong door"
)


def install(app: Flask) -> None:
    """On the public door, refuse every write with a 421 before anything else reads it."""
    if app.extensions["roads.settings"].door != "public":
        return

    def refuse_writes() -> None:
        if request.method in WRITES:
            if request.url_rule is not None:  # the access log's route (traffic's hook is later)
                request.environ[ROUTE] = route_label(request.url_rule.rule)
            abort(421, message=MESSAGE, door="public")

    # First of the app's request hooks: a misrouted write costs no body read, no key lookup.
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_writes)
