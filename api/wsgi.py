"""The WSGI app, as gunicorn imports it: ``api.wsgi:app`` (what ``baccarat-roads serve`` runs,
:mod:`api.doors`), or ``wsgi:app`` from a checkout (``gunicorn -c gunicorn.conf.py wsgi:app``,
the repository's ``wsgi.py`` re-exporting this one).

With ``preload_app`` this runs once in the gunicorn master: the app is built and matplotlib's
fonts and caches are warmed before the workers fork, so no first request pays for them.

Settings the service cannot start with (:class:`api.config.ConfigError`: no ``REDIS_URL``
outside the demo, a key that cannot be used, ...) stop the start with their message alone, which
says what to set, on standard error.

Everything made so far is then frozen out of the garbage collector's view (``gc.freeze``). A
worker's full collection would otherwise walk every object of matplotlib, Flask and the rest on
each pass: 60 to 70 ms with every request of that worker stalled, measured under the load bench,
where it set the ingest's p99. Frozen, a full collection walks only what the worker made itself
(3 to 4 ms), and the forked workers keep sharing those pages with the master.
"""

import gc
import sys

from api import create_app
from api.config import ConfigError
from api.images.paint import warm_up

try:
    app = create_app()
except ConfigError as error:
    sys.exit(f"roads: cannot start: {error}")
warm_up()
gc.collect()
gc.freeze()
