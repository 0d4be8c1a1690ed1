"""Cross-origin reads from browsers (CORS, with flask-cors) for the origins the operator lists.

A listed origin's page may read every answer (JSON, pictures, the event stream, the API
document) and send the headers a reader sends (``If-None-Match``, ``Last-Event-ID``,
``X-Request-ID``). Writes stay same-origin unless the operator also allows them
(``ROADS_CORS_INGEST``): then the write methods and ``X-API-Key`` pass the preflight too. Any
other origin gets no CORS headers, so its browser refuses the answer.
"""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

from api.config import Settings

READS = ["GET", "HEAD", "OPTIONS"]
WRITES = ["POST", "PUT", "DELETE"]
READ_HEADERS = ["If-None-Match", "Last-Event-ID", "X-Request-ID", "Cache-Control"]
EXPOSED = ["ETag", "Retry-After", "X-Request-ID"]


def enable_cors(app: Flask, settings: Settings) -> None:
    """CORS for ``settings.cors_origins`` on the API's paths; nothing when none are listed."""
    if not settings.cors_origins:
        return
    methods, headers = list(READS), list(READ_HEADERS)
    if settings.cors_ingest:
        methods += WRITES
        headers += ["X-API-Key", "Content-Type"]
    CORS(
        app,
        resources={r"/v1/.*": {}, r"/openapi\.json": {}},
        origins=list(settings.cors_origins),
        methods=methods,
        allow_headers=headers,
        expose_headers=EXPOSED,
        max_age=600,
        vary_header=True,
    )
