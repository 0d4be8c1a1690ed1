"""API keys on requests (``X-API-Key``; the keys themselves: :mod:`api.http.keyring`).

- The key a request offers is found once (:func:`current_key`: one hash, one lookup) and, when
  valid, named in the access log (its name, never its secret).
- ``?key=`` counts only on the event streams (:data:`QUERY_ROUTES`), since a browser's
  EventSource cannot send a header; anywhere else it is ignored (a route that needs a key then
  answers 401 naming the header).
- Ingest keys write (:func:`require_ingest_key`), only the tables their patterns match (403
  naming the table otherwise, never the key's patterns: they would tell what to aim at); read
  keys, and ingest keys, read the odds and the edge flags (:func:`reads_odds`); operator keys
  read the integrity watch (:func:`require_operator_key`); read and operator keys read the
  record (:func:`require_record_reader`).
- A key of another role is not a key for the route: 401, as no key is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Flask, current_app, request
from flask_smorest import abort

from api.http.keyring import Key, Keys
from api.http.traffic import KEY as KEY_NAME  # where the access log finds the key's name

HEADER = "X-API-Key"
QUERY = "key"  # the key in the query: on the event streams alone (EventSource sends no headers)
QUERY_ROUTES = frozenset(("/v1/events", "/v1/integrity/events"))
SECURITY = [{"ApiKey": []}]
FOUND = "roads.key.found"  # the request's key, once found (or None)
_UNSET = object()


def install(app: Flask) -> None:
    """Read the app's keys now, so a key that cannot be used stops the start (ConfigError)."""
    _keys_of(app.extensions)


def keys() -> Keys:
    """The app's keys, made again if its settings were replaced (as some tests do)."""
    return _keys_of(current_app.extensions)


def _keys_of(extensions: dict[str, Any]) -> Keys:
    # The app keeps the settings' copy without secrets (Keys.settings): its keys by name.
    settings = extensions["roads.settings"]
    holder: Keys | None = extensions.get("roads.keys")
    if holder is None or holder.settings is not settings:
        holder = extensions["roads.keys"] = Keys(settings)
        extensions["roads.settings"] = holder.settings
    return holder


def offered_key() -> str:
    """The secret the request carries: ``X-API-Key``, else ``?key=`` on an event stream; or
    ``""``."""
    offered = request.headers.get(HEADER)
    if offered:
        return offered
    if request.path in QUERY_ROUTES:
        return request.args.get(QUERY) or ""
    return ""


def current_key() -> Key | None:
    """The valid key the request offers (found once a request), or ``None``; a valid one is
    named for the access log."""
    # Kept in the request's environ, not in ``g``: an app context may outlive its request (a
    # stream the test client holds open while it sends the next request).
    found = request.environ.get(FOUND, _UNSET)
    if found is _UNSET:
        found = keys().ring.find(offered_key())
        request.environ[FOUND] = found
        if found is not None:
            request.environ[KEY_NAME] = found.name
    return found  # type: ignore[return-value]


def key_name() -> str:
    """The name of the request's valid key (``""`` without one): what a write records as
    ``by``."""
    key = current_key()
    return key.name if key is not None else ""


def _has_role(*roles: str) -> bool:
    key = current_key()
    return key is not None and key.role in roles


def writes_every_table() -> bool:
    """Whether the request's key is an ingest key that may write every table (what defines
    something of the whole deployment, such as a pay table's name)."""
    key = current_key()
    return key is not None and key.role == "ingest" and "*" in key.tables


def reads_odds() -> bool:
    """Whether this request may see the odds and the edge flags: they are public
    (``ROADS_PUBLIC_ODDS=1``), or it carries a read key or an ingest key."""
    if current_app.extensions["roads.settings"].public_odds:
        current_key()  # named in the access log all the same
        return True
    return _has_role("read", "ingest")


def unauthorized(message: str) -> None:
    """Answer 401, saying which header carries the key."""
    abort(401, message=message, headers={"WWW-Authenticate": f'ApiKey header="{HEADER}"'})


def out_of_scope(table: str) -> None:
    """Answer 403 naming the table the key may not write (not the tables it may)."""
    abort(403, message=f"this key may not write table {table}")


def require_read_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request (401) unless :func:`reads_odds`."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not reads_odds():
            unauthorized(f"the odds need a read key ({HEADER} header)")
        return view(*args, **kwargs)

    return guarded


def require_ingest_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request unless it carries an ingest key (401), and one that may write the
    path's table (403 naming it). With no ingest keys configured, ingest is refused (403) rather
    than open. A view without a table in its path checks each table itself
    (:func:`check_scope`)."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if "ingest" not in keys().ring.roles:
            abort(
                403,
                message="ingest is disabled: no ingest keys are configured "
                "(ROADS_INGEST_KEYS or ROADS_KEY_FILE)",
            )
        key = current_key()
        if key is None or key.role != "ingest":
            unauthorized(f"a valid {HEADER} header is required for ingest")
        table = kwargs.get("table")
        if table is not None and not key.may_write(table):  # type: ignore[union-attr]
            out_of_scope(table)
        return view(*args, **kwargs)

    return guarded


def check_scope(tables: list[str]) -> None:
    """Refuse the request (403, before anything is written) when its ingest key may not write
    one of ``tables``: the first such is named."""
    key = current_key()
    assert key is not None  # behind require_ingest_key
    for table in dict.fromkeys(tables):  # each table once, in order: the first refused is named
        if not key.may_write(table):
            out_of_scope(table)


def require_operator_key(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request (401) unless it carries an operator key (``X-API-Key``, or ``?key=``
    on the alert stream): with none configured, nobody reads the integrity watch."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not _has_role("operator"):
            unauthorized(f"the integrity watch needs an operator key ({HEADER} header)")
        return view(*args, **kwargs)

    return guarded


def require_record_reader(view: Callable[..., Any]) -> Callable[..., Any]:
    """Refuse the request (401) unless it carries a read or an operator key, or the record is
    public (``ROADS_PUBLIC_RECORD=1``)."""

    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        public = current_app.extensions["roads.settings"].public_record
        if not _has_role("read", "operator") and not public:
            unauthorized(f"the record needs a read or an operator key ({HEADER} header)")
        return view(*args, **kwargs)

    return guarded
