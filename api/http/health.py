"""The operator's endpoints: liveness, readiness, and the metrics to scrape."""

import time
from importlib import metadata

from flask import Response
from flask_smorest import Blueprint, abort

from api.http.answers import services
from api.http.responses import HealthSchema, LivenessSchema
from api.metrics import UNAVAILABLE, exposition

# The release this process runs: the installed distribution's version, written once, in
# pyproject.toml (read once: it cannot change under a running process).
VERSION = metadata.version("baccarat-roads")

blp = Blueprint("health", __name__, description="Liveness and readiness probes, metrics.")


@blp.route("/livez")
@blp.response(200, LivenessSchema)
def livez():
    """The process answers (no dependencies checked)."""
    return {"status": "ok", "version": VERSION}


@blp.route("/readyz")
@blp.response(200, HealthSchema)
def readyz():
    """Redis answers a PING: the service can take traffic (and, with the record on, how far
    the record is behind)."""
    try:
        services().ping()
    except Exception:  # any failure to reach Redis means not ready
        UNAVAILABLE.labels("redis_down").inc()
        abort(503, message="Redis does not answer", headers={"Retry-After": "1"})
    record = services().record
    if record is None:
        return {"status": "ready"}
    behind = record.behind_seconds(time.time_ns() // 1_000_000)
    return {"status": "ready", "record": {"behind_seconds": round(behind, 3)}}


@blp.route("/metrics")
@blp.doc(
    responses={
        "200": {
            "description": "Prometheus's text format: every worker's counts (the list is in "
            "docs/operations.md).",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    }
)
def metrics():
    """The service's metrics, for Prometheus to scrape (keep it on the internal network)."""
    body, content_type = exposition()
    response = Response(body, content_type=content_type)
    response.headers["Cache-Control"] = "no-store"
    return response
