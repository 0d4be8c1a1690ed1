"""/livez names the release the process runs: the installed package's version, which is
pyproject.toml's (tests/test_release.py holds the two equal)."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_livez_answers_the_version_written_in_pyproject(client):
    version = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    answer = client.get("/livez")
    assert answer.status_code == 200
    assert answer.json == {"status": "ok", "version": version}
    assert metadata.version("baccarat-roads") == version
