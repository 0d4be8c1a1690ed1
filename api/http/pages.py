"""The web pages (``static/``): the lobby at ``/``, which uses only the public API, and the API
reference at ``/docs`` (Redoc, vendored, over ``/openapi.json``)."""

from flask import Blueprint, Flask, Response, current_app, request

from api.http.answers import held, unchanged

blp = Blueprint("pages", __name__)

# The endpoints that send a file of static/: the pages and their scripts, styles and pictures.
FILES = frozenset({"static", "pages.lobby", "pages.reference"})

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


def compress_files(app: Flask) -> None:
    """Let flask-compress compress the files of ``static/``. It leaves streamed answers alone
    (the event stream must be), and a file is sent streamed: it is read whole here instead,
    after a 304 for a client holding it in any encoding (its ETag then ends ``:gzip``, which
    the file's own check cannot match). Call it after ``Compress(app)``: Flask runs the
    ``after_request`` functions last registered first."""

    @app.after_request
    def read_whole(response: Response) -> Response:
        if request.endpoint not in FILES or not response.direct_passthrough:
            return response
        etag, _ = response.get_etag()
        if etag is not None and held(etag):
            return unchanged(etag)
        response.direct_passthrough = False
        response.set_data(response.get_data())
        return response
