"""The gunicorn worker the service runs in: gevent, with gevent's own HTTP server (pywsgi).

gunicorn's plain ``gevent`` worker parses HTTP with gunicorn's parser and sends every answer's
headers and body in two ``send`` calls. gunicorn's ``gevent_pywsgi`` worker hands connections to
gevent's WSGI server, which sends a short answer whole, in one call. Measured with the load
bench's ingest alone on a Redis Cluster, three runs of each: 0.99 ms of worker CPU a round
against 1.02-1.03 ms with the plain gevent worker.

gevent's server keeps an idle keep-alive connection open for as long as the client does; this
worker closes one that sends no request for gunicorn's ``keepalive`` seconds, as the plain
gevent worker does, so idle clients cannot fill the worker's ``worker_connections``.
"""

from __future__ import annotations

import gevent
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler


class IdleClosingHandler(PyWSGIHandler):
    """gevent's request handler, giving up on a connection idle for ``keepalive`` seconds."""

    keepalive: float = 5.0

    def read_requestline(self) -> str:
        with gevent.Timeout(self.keepalive or None, False):  # keepalive 0: no limit
            return super().read_requestline()
        return ""  # nothing came in time: an empty request line closes the connection


class Worker(GeventPyWSGIWorker):
    """``gevent_pywsgi`` with the idle timeout of gunicorn's ``keepalive`` setting."""

    def init_process(self) -> None:
        self.wsgi_handler = type(
            "Handler", (IdleClosingHandler,), {"keepalive": float(self.cfg.keepalive)}
        )
        super().init_process()
