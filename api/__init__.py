"""The roads service: a Flask app over Redis, built by :func:`create_app`.

The layers, each a package whose ``__init__`` says what it holds and may import (the arrows run
down only): :mod:`api.http` (endpoints) over :mod:`api.services` (the parts, wired once) over
:mod:`api.writes` (the writer), :mod:`api.live` (background readers of Redis) and
:mod:`api.record` (the record in PostgreSQL), over :mod:`api.storage` (keys, transport,
scripts, repositories, read cache), over :mod:`api.plan` (a write's plan) and :mod:`api.codecs`
(the wire formats), all over the domain library :mod:`roads`; :mod:`api.images` (the pictures)
beside them.

Beside the layers: :mod:`api.config` (settings from the environment, each value parsed and
checked by :mod:`api.envvalues`, shown in a repr or a log only as :mod:`api.redaction` allows),
:mod:`api.metrics` (every metric), :mod:`api.logs` (JSON log lines), :mod:`api.accesslog` (the
access log off the request path), :mod:`api.admission` (the bounds on heavy reads),
:mod:`api.demo` (the demo tables), :mod:`api.jobs` (a process's jobs, started in one place),
:mod:`api.tracing` with :mod:`api.spans` (OpenTelemetry tracing, opt-in)
and :mod:`api.worker` (the gunicorn worker); :mod:`api.doors` (a deployment's two doors and
their supervisor) and :mod:`api.gunicornconf` (gunicorn's settings for a door);
:mod:`api.resources` (where each kind of file the service reads lives, the lobby page's and
the JavaScript client's packaged as :mod:`api.assets`), :mod:`api.wsgi` (the app gunicorn
imports) and :mod:`api.cli` (the ``baccarat-roads`` command).
``docs/architecture.md`` draws the map.
"""

from __future__ import annotations

import logging

from flask import Flask

from api import logs, tracing
from api.accesslog import process_log
from api.config import Settings
from api.demo import DemoFeeder
from api.http import compression, openapi, register, securityheaders, traffic
from api.http.answers import GameIdConverter, IdConverter
from api.http.hotreads import HotReads
from api.http.keyring import Keys
from api.jobs import start_jobs
from api.resources import LOBBY
from api.services import Services

log = logging.getLogger("roads")

STATIC = LOBBY  # the lobby page, package data (api.resources)


def create_app(settings: Settings | None = None) -> Flask:
    """The WSGI app. Settings come from the environment unless given (see :mod:`api.config`)."""
    # The keys are read first (one that cannot be used stops the start): what the app keeps
    # from here on is the settings' copy that names the keys, with no secret (api.http.keyring).
    keys = Keys(settings or Settings.from_env())
    settings = keys.settings
    logs.configure()
    app = Flask(__name__, static_folder=str(STATIC), static_url_path="/static")
    app.config.update(
        API_TITLE="Baccarat roads",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={"info": {"description": openapi.DESCRIPTION}},
        MAX_CONTENT_LENGTH=settings.max_body,
    )
    app.url_map.converters["id"] = IdConverter
    app.url_map.converters["game_id"] = GameIdConverter
    if settings.embedded:
        log.warning("no REDIS_URL: using an embedded in-process Redis (fakeredis); nothing is kept")
    services = Services.build(settings)
    app.extensions["roads"] = services
    app.extensions["roads.settings"] = settings
    app.extensions["roads.keys"] = keys
    demo = DemoFeeder(services) if settings.demo else None
    app.extensions["roads.demo"] = demo
    register(app)
    # This process's jobs (api.jobs) from its first request on: never in a process that forks
    # after making the app (gunicorn's master preloads it; its workers' hook starts them), and
    # never in the ingest door, which leaves them to the public one (api.doors).
    if settings.door != "ingest":
        app.before_request(lambda: start_jobs(services, demo))
    securityheaders.install(app)  # nosniff, Referrer-Policy, CSP on every answer
    compression.install(app)
    app.wsgi_app = HotReads(app.wsgi_app, services.versions)  # type: ignore[method-assign]
    access = process_log() if settings.access_log else None
    traffic.install(app, log=access, metrics=settings.request_metrics)
    tracing.install(app, services)  # outermost; only with OTEL_EXPORTER_OTLP_ENDPOINT set
    return app
