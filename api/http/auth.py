"""API keys (``X-API-Key``), compared in constant time: the ingest keys, required to write, and
the read keys, which show the odds and the edge flags (see :func:`reads_odds`), and the
operator keys, which read the integrity watch."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import current_app, request
from flask_smorest import abort

HEADER = "X-API-Key"
QUERY = "key"  # the same key in the query, for the event stream (EventSource sends no headers)
SECURITY = [{"ApiKey": []}]


def _offered_matches(offered: str, keys: tuple[str, ...]) -> bool:
    # Compare against every key so the time taken says nothing about which one is close.
    matches = [hmac.compare_digest(offered.encode(), key.encode()) for key in keys]
    return any(matches)


def reads_odds() -> bool:
    """Whether this request may see the odds and the edge flags: they are public
    (``ROADS_PUBLIC_ODDS=1``), or it carries a read key or an ingest key (``X-API-Key``, or
    ``?key=``)."""
    settings = current_app.extensions["roads.settings"]
    if settings.public_odds:
        return True
    offered = offered_key()
    return bool(offered) and _offered_matches(offered, settings.read_keys + settings.ingest_keys)


def offered_key() -> str:
    """The key the request carries (``X-API-Key``, else ``?key=``), or ``""``."""
    return request.headers.get(HEADER) or request.args.get(QUERY) or ""


def unauthorized(message: str) -> None:
    """Answer 401, saying which header carries the key."""
    abort(401, message=message, headers={"WWW-Authenticate": f'ApiKey header="{HEADER}"'})


def require_read_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request (401) unless :func:`reads_odds`."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not reads_odds():
            unauthorized(f"the odds need a read key ({HEADER} header)")
        return view(*args, **kwargs)

    return guarded


def require_ingest_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request unless it carries one of the configured ingest keys. With no keys
    configured, ingest is refused rather than open."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        keys: tuple[str, ...] = current_app.extensions["roads.settings"].ingest_keys
        if not keys:
            abort(403, message="ingest is disabled: no ROADS_INGEST_KEYS are configured")
        if not _offered_matches(request.headers.get(HEADER, ""), keys):
            unauthorized(f"a valid {HEADER} header is required for ingest")
        return view(*args, **kwargs)

    return guarded


def require_operator_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request (401) unless it carries an operator key (``X-API-Key``, or ``?key=``
    for an event stream): with none configured, nobody reads the integrity watch."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        keys: tuple[str, ...] = current_app.extensions["roads.settings"].operator_keys
        offered = offered_key()
        if not keys or not offered or not _offered_matches(offered, keys):
            unauthorized(f"the integrity watch needs an operator key ({HEADER} header)")
        return view(*args, **kwargs)

    return guarded
