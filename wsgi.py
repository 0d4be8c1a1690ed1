"""The WSGI entry point for gunicorn: ``gunicorn -c gunicorn.conf.py wsgi:app``.

With ``preload_app`` this runs once in the gunicorn master: the app is built and matplotlib's
fonts and caches are warmed before the workers fork, so no first request pays for them.
"""

from api import create_app
from api.images.paint import warm_up

app = create_app()
warm_up()
