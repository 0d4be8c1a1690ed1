"""The roads service: a Flask app over Redis, built by :func:`create_app`."""

from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask

from api import errors
from api.config import Settings
from api.demo import DemoFeeder
from api.errors import RoadsApi
from api.events import BLOCK_SECONDS
from api.store import Store, connect
from api.views import events, health, images, lobby, odds, pages, rounds, tables
from api.views import roads as roads_views
from api.views.common import ID_PATTERN, IdConverter

log = logging.getLogger("roads")

STATIC = Path(__file__).resolve().parent.parent / "static"  # the lobby page


def create_app(settings: Settings | None = None) -> Flask:
    """The WSGI app. Settings come from the environment unless given (see :mod:`api.config`)."""
    settings = settings or Settings.from_env()
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config.update(
        API_TITLE="Baccarat roads",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body,
    )
    app.url_map.converters["id"] = IdConverter

    if settings.embedded:
        from api.embedded import embedded_redis

        factory = blocking = embedded_redis()
        log.warning("no REDIS_URL: using an embedded in-process Redis (fakeredis); nothing is kept")
    else:
        factory = lambda: connect(settings)  # noqa: E731
        # Blocking reads (the event stream) and WAIT for replicas need a longer socket timeout.
        patience = max(BLOCK_SECONDS, settings.write_wait_ms / 1000)
        blocking = lambda: connect(settings, blocking_seconds=patience)  # noqa: E731
    store = Store(settings, factory, blocking)
    app.extensions["roads.settings"] = settings
    app.extensions["roads.store"] = store
    app.extensions["roads.demo"] = DemoFeeder(store) if settings.demo else None

    api = RoadsApi(app)
    api.register_converter(
        IdConverter, lambda converter: {"type": "string", "pattern": f"^{ID_PATTERN}$"}
    )
    api.spec.components.security_scheme(
        "ApiKey", {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    )
    errors.register(app, api)
    app.register_blueprint(pages.blp)
    for blueprint in (
        health.blp,
        lobby.blp,
        tables.blp,
        rounds.blp,
        roads_views.blp,
        images.blp,
        odds.blp,
        events.blp,
    ):
        api.register_blueprint(blueprint)
    return app
