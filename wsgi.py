"""The WSGI entry point for gunicorn: ``gunicorn -c gunicorn.conf.py wsgi:app``."""

from api import create_app

app = create_app()
