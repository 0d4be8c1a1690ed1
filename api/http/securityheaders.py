"""What a browser may do with the service's answers: the headers every answer carries, and the
Content-Security-Policy of each kind of answer.

- Every answer (JSON, PNG, SSE, pages, files, errors): ``X-Content-Type-Options: nosniff`` (a
  browser takes each answer as the type it is said to be: no JSON or text run as a script or
  shown as a page) and ``Referrer-Policy: no-referrer`` (a lobby address may carry a read key,
  ``?key=``: it is never sent on to another site, nor in the service's own requests).
- The lobby page (``/``, :data:`LOBBY`): its scripts and styles from the service's own files
  only (no inline script or style, no ``eval``), its requests to the service only, no plugins,
  forms or ``<base>``; the sites that may embed it in a frame are the setting
  ``ROADS_FRAME_ANCESTORS`` (``'none'`` by default).
- The API reference (``/docs``, :data:`REFERENCE`): Redoc, vendored, which styles its elements
  inline and runs its search in a worker made from a blob, so it alone has
  ``style-src 'unsafe-inline'``; scripts still only the service's own.
- Every other answer (:data:`ANSWER`): nothing at all may run or load if a browser shows one
  as a document, and no site may frame it.

The headers are set after the view, once the answer is final (a 304 the compression made
afresh for a page included), so the answers :mod:`api.http.hotreads` replays, kept whole as the
app made them, carry them too.
"""

from __future__ import annotations

from flask import Flask, Response, request

ALWAYS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
)
POLICY = "Content-Security-Policy"

LOBBY = (
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",  # the page's icon is an empty data: URL
    "connect-src 'self'",  # the API and the event stream; the page asks nothing of another origin
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    # Chromium refuses any HTML or script text given to innerHTML, eval and their kin: the page
    # builds its nodes (the roads too: clients/js roadSvgElement), so no text becomes markup.
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
)
REFERENCE = (
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "style-src 'self' 'unsafe-inline'",  # Redoc's inline styles; no inline script
    "script-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
)
ANSWER = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"


def lobby_policy(frame_ancestors: str) -> str:
    """The lobby page's policy, framed by ``frame_ancestors`` (``ROADS_FRAME_ANCESTORS``)."""
    return "; ".join((*LOBBY, f"frame-ancestors {frame_ancestors}"))


REFERENCE_POLICY = "; ".join(REFERENCE)


def install(app: Flask) -> None:
    """Every answer of ``app`` gets :data:`ALWAYS` and its policy: the pages' by their endpoint
    (whatever answered for them: a 304 made afresh is the page's answer too), :data:`ANSWER`
    for every other unless its view set one."""
    pages = {
        "pages.lobby": lobby_policy(app.extensions["roads.settings"].frame_ancestors),
        "pages.reference": REFERENCE_POLICY,
    }

    @app.after_request
    def secure(response: Response) -> Response:
        headers = response.headers
        for name, value in ALWAYS:
            headers[name] = value
        page = pages.get(request.endpoint or "")
        if page is not None:
            headers[POLICY] = page
        elif POLICY not in headers:
            headers[POLICY] = ANSWER
        return response
