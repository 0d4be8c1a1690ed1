"""The web pages (``static/``): the lobby at ``/``, which uses only the public API, and the API
reference at ``/docs`` (Redoc, vendored, over ``/openapi.json``)."""

from flask import Blueprint, Response, current_app

blp = Blueprint("pages", __name__)

# The reference page runs a vendored bundle: it may fetch nothing but from the service itself
# (Redoc's badge would load a logo from its vendor's CDN; blocked, it shows none). Redoc styles
# its elements inline, embeds a font, and runs its search in a worker made from a blob.
REFERENCE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "style-src 'self' 'unsafe-inline'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'self'",
    ]
)


def page(name: str) -> Response:
    response = current_app.send_static_file(name)
    # Always asked again (cheaply, with If-None-Match): a new release shows at once.
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/")
def lobby() -> Response:
    return page("index.html")


@blp.route("/docs")
def reference() -> Response:
    response = page("docs.html")
    response.headers["Content-Security-Policy"] = REFERENCE_POLICY
    return response
