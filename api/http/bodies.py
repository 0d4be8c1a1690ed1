"""Request bodies: every body the service takes is JSON, no longer than ``ROADS_MAX_BODY``.

Checked before any view runs, so the answer names the real problem: a body of another
``Content-Type`` is 415 naming ``application/json`` (not a missing field), and a body over the
limit is 413 whether its length was declared or it came chunked (not "invalid JSON")."""

from __future__ import annotations

from flask import Flask, current_app, request
from flask_smorest import abort

EXPECTED = "application/json"


def has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "")


def check_body() -> None:
    """415 for a body that is not JSON; 413 for one over the limit (read now, within it)."""
    if request.method not in ("POST", "PUT", "PATCH") or not has_body():
        return
    if not request.is_json:
        sent = request.mimetype or "none"
        abort(415, message=f"the body must be {EXPECTED} (Content-Type: {sent} was sent)")
    # werkzeug refuses a declared length over the limit, but stops a chunked body at the limit
    # without a word; one more byte read past it tells. What was read is kept for the view.
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if len(request.get_data(cache=True)) >= limit and request.environ["wsgi.input"].read(1):
        abort(413, message=f"the body is over the limit of {limit} bytes")


def install(app: Flask) -> None:
    app.before_request(check_body)
