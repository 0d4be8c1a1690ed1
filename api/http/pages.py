"""The web pages (``static/``): the lobby at ``/``, which uses only the public API, and the API
reference at ``/docs`` (Redoc, vendored, over ``/openapi.json``); and the JavaScript client's
modules (``clients/js/src/``) at ``/client/``, which the lobby imports and other pages may too.
Both are package data (:mod:`api.resources`)."""

from flask import Blueprint, Response, current_app, send_from_directory

from api.resources import CLIENT

blp = Blueprint("pages", __name__)


def page(name: str) -> Response:
    response = current_app.send_static_file(name)
    # Always asked again (cheaply, with If-None-Match): a new release shows at once.
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/")
def lobby() -> Response:
    """The lobby, under its strict policy (:mod:`api.http.securityheaders`: its own files only,
    framed only by the sites ``ROADS_FRAME_ANCESTORS`` names)."""
    return page("index.html")


@blp.route("/client/<path:name>")
def client_module(name: str) -> Response:
    """A module of the JavaScript client (``clients/js``), asked again with If-None-Match."""
    response = send_from_directory(CLIENT, name)
    response.headers["Cache-Control"] = "no-cache"
    # Operators' own lobbies, on their own origins, import the client from here.
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@blp.route("/docs")
def reference() -> Response:
    """Redoc, under the reference's policy (:mod:`api.http.securityheaders`): it styles its
    elements inline and embeds a font; its search runs in a worker made from a blob; its badge's
    logo, from its vendor's CDN, is blocked (it shows none)."""
    return page("docs.html")
