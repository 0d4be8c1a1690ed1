"""API keys for the ingest endpoints (``X-API-Key``), compared in constant time."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import current_app, request
from flask_smorest import abort

HEADER = "X-API-Key"
SECURITY = [{"ApiKey": []}]


def require_ingest_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request unless it carries one of the configured ingest keys. With no keys
    configured, ingest is refused rather than open."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        keys: tuple[str, ...] = current_app.extensions["roads.settings"].ingest_keys
        if not keys:
            abort(403, message="ingest is disabled: no ROADS_INGEST_KEYS are configured")
        offered = request.headers.get(HEADER, "").encode()
        # Compare against every key so the time taken says nothing about which one is close.
        matches = [hmac.compare_digest(offered, key.encode()) for key in keys]
        if not any(matches):
            abort(
                401,
                message=f"a valid {HEADER} header is required for ingest",
                headers={"WWW-Authenticate": f'ApiKey header="{HEADER}"'},
            )
        return view(*args, **kwargs)

    return guarded
