"""Every kind of file the service reads at run time is found where api/resources.py says, through
importlib.resources (here: the suite's editable install), and every file of the lobby page and
of the JavaScript client is in the wheel's package data (pyproject.toml), so a file added there
is never served from a checkout and missing from an install (tests/system/test_wheel.py
installs the wheel and serves from it)."""

import fnmatch
import tomllib
from pathlib import Path

from api import resources
from api.http.catalogues import LANGUAGES
from roads.derivedsim import TABLE

ROOT = Path(__file__).resolve().parent.parent


def test_each_kind_of_file_is_found():
    assert (resources.LOBBY / "index.html").is_file()
    assert (resources.LOBBY / "docs.html").is_file()
    assert (resources.LOBBY / "vendor" / "redoc" / "redoc.standalone.js").is_file()
    assert {f"{lang}.json" for lang in LANGUAGES} <= {
        path.name for path in resources.CATALOGUES.iterdir()
    }
    assert (resources.CLIENT / "index.js").is_file()
    assert "export default" in resources.STYLE.read_text(encoding="utf-8")
    assert sorted(resources.MIGRATIONS.glob("0001_*.sql"))
    assert TABLE.resolve() == (resources.ROADS_DATA / "derived_runs.json").resolve()


def test_the_packaged_folders_are_the_source_trees_own():
    """In a checkout the lobby and the client are static/ and clients/js/src/ themselves (what
    the README, npm pack and the tests use), not copies that could drift."""
    assert resources.LOBBY.resolve() == ROOT / "static"
    assert resources.CLIENT.resolve() == ROOT / "clients" / "js" / "src"


def test_every_file_of_the_lobby_and_the_client_is_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["package-data"]["api.assets"]
    files = [
        f"{name}/{path.relative_to(folder).as_posix()}"
        for name, folder in (("lobby", ROOT / "static"), ("client", ROOT / "clients/js/src"))
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    ]
    # fnmatch's * crosses "/", setuptools' does not: a pattern matches a file of its own folder.
    missed = [
        name
        for name in files
        if not any(fnmatch.fnmatch(name, p) and name.count("/") == p.count("/") for p in patterns)
    ]
    assert files and missed == []
