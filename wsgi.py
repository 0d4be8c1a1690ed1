"""``gunicorn -c gunicorn.conf.py wsgi:app`` from a checkout: the app of :mod:`api.wsgi`."""

from api.wsgi import app  # noqa: F401
