"""gunicorn's settings for ``gunicorn -c gunicorn.conf.py wsgi:app`` from a checkout: the
package's own, ``api/gunicornconf.py`` (which an installed wheel runs by its path:
:mod:`api.doors`), executed here in this file's namespace, so that the two never differ. It is
executed, not imported: importing ``api`` would load Flask and redis-py before gevent patches
them (see that file's docstring); gunicorn executes this file again on SIGHUP, and so that one.
"""

from pathlib import Path

_settings = Path(__file__).resolve().parent / "api" / "gunicornconf.py"
exec(compile(_settings.read_text(), str(_settings), "exec"))
