"""The WSGI entry point for gunicorn: ``gunicorn -c gunicorn.conf.py wsgi:app``.

With ``preload_app`` this runs once in the gunicorn master: the app is built and matplotlib's
fonts and caches are warmed before the workers fork, so no first request pays for them.

Everything made so far is then frozen out of the garbage collector's view (``gc.freeze``). A
worker's full collection would otherwise walk every object of matplotlib, Flask and the rest on
each pass: 60 to 70 ms with every request of that worker stalled, measured under the load bench,
where it set the ingest's p99. Frozen, a full collection walks only what the worker made itself
(3 to 4 ms), and the forked workers keep sharing those pages with the master.
"""

import gc

from api import create_app
from api.images.paint import warm_up

app = create_app()
warm_up()
gc.collect()
gc.freeze()
