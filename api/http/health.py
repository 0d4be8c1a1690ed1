"""Liveness and readiness."""

from flask_smorest import Blueprint, abort

from api.http.answers import services
from api.http.responses import HealthSchema

blp = Blueprint("health", __name__, description="Liveness and readiness probes.")


@blp.route("/livez")
@blp.response(200, HealthSchema)
def livez():
    """The process answers (no dependencies checked)."""
    return {"status": "ok"}


@blp.route("/readyz")
@blp.response(200, HealthSchema)
def readyz():
    """Redis answers a PING: the service can take traffic."""
    try:
        services().ping()
    except Exception:  # any failure to reach Redis means not ready
        abort(503, message="Redis does not answer", headers={"Retry-After": "1"})
    return {"status": "ready"}
