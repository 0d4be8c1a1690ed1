"""The files the service serves and reads that live outside ``api/`` in the source tree, as
package data: ``lobby/`` is ``static/`` (the lobby page, its scripts and styles, its language
catalogues ``i18n/``, the vendored Redoc of ``/docs``) and ``client/`` is ``clients/js/src/``
(the JavaScript client's modules, served at ``/client/``, ``style.js`` among them).

Both are symbolic links in the source tree, so the files stay where the README, the tests,
``npm pack`` and the lobby have them, and a wheel holds copies of them (pyproject.toml's
package data). Links, not setuptools' ``package-dir`` mapping: a package mapped elsewhere
cannot be a namespace package under an editable install (``pip install -e .``, setuptools'
finder) on Python 3.11, whose resource reader refuses the finder's placeholder path. Nothing
imports from here: :mod:`api.resources` says where each kind of file is.
"""
