"""Where each kind of file the service reads at run time lives: all of them package data, found
through :mod:`importlib.resources` (never a path computed from a module's file up into a
checkout), so a checkout with ``pip install -e .`` and a wheel installed by pip find them alike.

- :data:`LOBBY`: the lobby page and its files (``static/`` in the source tree, packaged as
  ``api/assets/lobby``: see :mod:`api.assets`), Flask's static folder; :data:`CATALOGUES`, its
  language catalogues (``i18n/``);
- :data:`CLIENT`: the JavaScript client's modules (``clients/js/src/``, packaged as
  ``api/assets/client``), served at ``/client/``; :data:`STYLE`, its ``style.js``, the look of
  the roads the pictures read too;
- :data:`MIGRATIONS`: the record's SQL migrations (``api/record/migrations``);
- :data:`ROADS_DATA`: the domain library's tables (``roads/data``); :mod:`roads` reads its own
  (it imports nothing of the service), named here so that every kind is in one list.

Each is a real directory (:class:`pathlib.Path`): Flask's static folder and
``send_from_directory`` need one. That is sound for an installed package because pip installs
a wheel unpacked, as files in site-packages (a wheel is never imported from its zip), and an
editable install reads the source tree: there ``importlib.resources.files`` is the package's
own folder, a :class:`pathlib.Path`, with nothing extracted and nothing to clean up (what
``importlib.resources.as_file`` would yield for it too). A package imported from a zip (a
zipapp, a zipped egg) has no such folder: :func:`folder` refuses it at import, naming it,
rather than serving nothing.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def folder(package: str, *parts: str) -> Path:
    """The directory ``parts`` of ``package``'s files, which must be on disk."""
    found = files(package).joinpath(*parts)
    if not isinstance(found, Path) or not found.is_dir():
        where = "/".join((package.replace(".", "/"), *parts))
        raise RuntimeError(f"{where} is not a directory on disk: install the package unzipped")
    return found


LOBBY = folder("api.assets", "lobby")
CATALOGUES = LOBBY / "i18n"
CLIENT = folder("api.assets", "client")
STYLE = CLIENT / "style.js"
MIGRATIONS = folder("api.record", "migrations")
ROADS_DATA = folder("roads", "data")
