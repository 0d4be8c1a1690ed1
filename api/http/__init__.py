"""The HTTP layer: the endpoints, their request and response schemas, JSON errors and the keys.

- one module per resource: :mod:`.rounds` (ingest and a shoe's rounds), :mod:`.roads` (the
  scorecards), :mod:`.images` (their pictures), :mod:`.odds`, :mod:`.paytables` (the presets
  and the deployment's own), :mod:`.tables`, :mod:`.archive`
  (retired tables), :mod:`.historyviews` (a table's past from the record), :mod:`.gameviews`
  (rounds by game id, a table's last games, its rounds by day, every table's exported),
  :mod:`.checkpoints` (the record's latest signed checkpoint), :mod:`.rarity`,
  :mod:`.lobbyviews`, :mod:`.integrity` (the watch, for operators), :mod:`.feedviews` (the live
  feeds), :mod:`.health` (with ``/metrics``) and :mod:`.pages` (the lobby page, ``/docs``, the
  JavaScript client);
- their schemas: :mod:`.requests`, :mod:`.responses`, :mod:`.historyschemas`,
  :mod:`.lobbyschemas`, :mod:`.rarityschemas`, :mod:`.integrityschemas`,
  :mod:`.tableschemas`, :mod:`.paytableschemas`, :mod:`.gameschemas`; their field types,
  :mod:`.fieldtypes`;
  :mod:`.querynumbers` (a query's numbers, as plain decimal text only);
  :mod:`.openapi` (what the document says beyond the fields); :mod:`.catalogues` (the page's
  language catalogues, as the API names the patterns from them);
- what the views share: :mod:`.answers` (the services, ETags, answers through the read cache),
  :mod:`.parsing` and :mod:`.bodies` (JSON bodies within their limits), :mod:`.plainreports` (a
  plain round report loaded without the fields), :mod:`.errorreplies` (JSON
  errors), :mod:`.watching` (the card reports the write endpoints refuse, told to the watch),
  :mod:`.misdirected` (the public door's 421 to a write);
- the keys: :mod:`.keyring` (named, scoped keys kept as digests) and :mod:`.auth` (what each
  route needs); who reads the record and how many at once (:mod:`.recordaccess`);
- around every answer: :mod:`.securityheaders` (the lobby's Content-Security-Policy,
  ``nosniff``, ``Referrer-Policy``), :mod:`.cors`, :mod:`.compression`, :mod:`.hotreads` (the
  hottest reads answered again before Flask) and :mod:`.traffic` (request ids, the access log,
  request metrics).

Views parse the request, call the services (:mod:`api.services`: the writer of
:mod:`api.writes`, the stores and the read cache of :mod:`api.storage`, the live services of
:mod:`api.live`) and shape the answer (the lobby's with :mod:`api.codecs.tiles`); nothing here
talks to Redis itself.

May import: :mod:`api.services`, :mod:`api.writes`, :mod:`api.storage` (its errors and values),
:mod:`api.live`, :mod:`api.record` (the record's reads and errors), :mod:`api.codecs`,
:mod:`api.images`, :mod:`api.admission` (the bounds on heavy reads), :mod:`api.config`,
:mod:`api.metrics`, :mod:`api.logs`, :mod:`api.accesslog` (the access log's queue),
:mod:`api.resources` (where the page's files and the client's modules are),
:mod:`roads`. Nothing below imports this package.
"""

from __future__ import annotations

from flask import Flask

from api.codecs.roundfacts import GAME_ID_PATTERN
from api.http import (
    archive,
    auth,
    bodies,
    checkpoints,
    errorreplies,
    feedviews,
    gameviews,
    health,
    historyviews,
    images,
    integrity,
    lobbyviews,
    misdirected,
    odds,
    pages,
    paytables,
    rarity,
    rounds,
    tables,
)
from api.http import roads as roads_views
from api.http.answers import GameIdConverter, IdConverter
from api.http.cors import enable_cors
from api.http.errorreplies import RoadsApi
from api.http.openapi import ReportFormsPlugin
from api.http.requests import ID_PATTERN


def register(app: Flask) -> RoadsApi:
    """Every endpoint, the OpenAPI document and the JSON errors, on ``app``."""
    api = RoadsApi(app, spec_kwargs={"extra_plugins": [ReportFormsPlugin()]})
    api.register_converter(
        IdConverter, lambda converter: {"type": "string", "pattern": f"^{ID_PATTERN}$"}
    )
    api.register_converter(
        GameIdConverter, lambda converter: {"type": "string", "pattern": GAME_ID_PATTERN}
    )
    api.spec.components.security_scheme(
        "ApiKey", {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    )
    errorreplies.register(app, api)
    misdirected.install(app)  # the public door's 421 to a write, before any other hook
    auth.install(app)  # a key that cannot be used stops the start
    bodies.install(app)
    enable_cors(app, app.extensions["roads.settings"])
    app.register_blueprint(pages.blp)
    for blueprint in (
        health.blp,
        lobbyviews.blp,
        tables.blp,
        rounds.blp,
        roads_views.blp,
        images.blp,
        odds.blp,
        paytables.blp,
        feedviews.blp,
        archive.blp,
        historyviews.blp,
        gameviews.blp,
        checkpoints.blp,
        integrity.blp,
        rarity.blp,
    ):
        api.register_blueprint(blueprint)
    return api
