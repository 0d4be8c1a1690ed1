"""What a release is made of: the licence (LICENSE, NOTICE, and where the two packages name it),
one version (pyproject.toml's, which the installed package and the JavaScript client's
package.json hold too), and CHANGELOG.md, whose releases each name a real commit, in order."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import tomllib
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import pytest
from packaging.version import Version

from tests.changelog import UNRELEASED, releases, sections

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
PACKAGE_JSON = json.loads((ROOT / "clients" / "js" / "package.json").read_text(encoding="utf-8"))
DISTRIBUTION = PYPROJECT["name"]

# SHA-256 of the Apache License 2.0's standard text (apache.org's LICENSE-2.0.txt, as Debian
# ships it in /usr/share/common-licenses/Apache-2.0): the whole text, unedited.
APACHE_2_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"
REDOC = ROOT / "static" / "vendor" / "redoc"


def test_the_licence_is_the_apache_2_text_in_both_packages():
    licence = (ROOT / "LICENSE").read_bytes()
    assert hashlib.sha256(licence).hexdigest() == APACHE_2_SHA256
    # npm packs no file from outside the package's folder (nor a symlink): a copy, kept equal.
    assert (ROOT / "clients" / "js" / "LICENSE").read_bytes() == licence


def test_each_package_names_the_licence():
    assert PYPROJECT["license"] == "Apache-2.0"
    assert {"LICENSE", "NOTICE"} <= set(PYPROJECT["license-files"])
    for name in PYPROJECT["license-files"]:
        assert (ROOT / name).is_file(), name
    assert PACKAGE_JSON["license"] == "Apache-2.0"
    # What the installed package says (scripts/test installs it again each run).
    assert metadata.metadata(DISTRIBUTION)["License-Expression"] == "Apache-2.0"


def test_notice_names_the_vendored_redoc_whose_licence_is_kept_beside_it():
    notice = (ROOT / "NOTICE").read_text(encoding="utf-8")
    bundle_head = (REDOC / "redoc.standalone.js").read_text(encoding="utf-8")[:2000]
    vendored = re.search(r"Version: (\S+)", bundle_head)
    assert vendored is not None
    assert f"Redoc {vendored[1]} (static/vendor/redoc/redoc.standalone.js)" in notice
    assert "static/vendor/redoc/LICENSE" in notice
    assert (REDOC / "LICENSE").read_text(encoding="utf-8").startswith("The MIT License")
    assert "Copyright (c) 2021-present, Redocly Inc." in (REDOC / "LICENSE").read_text("utf-8")


def test_one_version_in_pyproject_the_installed_package_and_package_json():
    version = Version(PYPROJECT["version"])
    assert str(version) == PYPROJECT["version"], "write pyproject's version in its normal form"
    # The installed metadata is what /livez answers: stale, it would claim another release.
    assert metadata.version(DISTRIBUTION) == PYPROJECT["version"]
    # npm's semver spells a development release "X.Y.Z-dev.N", PEP 440 "X.Y.Z.devN": one version.
    assert Version(PACKAGE_JSON["version"]) == version


def test_the_changelog_has_unreleased_first_then_releases_newest_first():
    found = sections()
    assert found[0].name == UNRELEASED and found[0].date is None
    assert all(section.name != UNRELEASED for section in found[1:])
    made = releases()
    assert len(made) == len(found) - 1
    versions = [Version(release.version) for release in made]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
    dates = [release.date for release in made]
    assert dates == sorted(dates, reverse=True)
    # The tree holds what comes after the newest release (its .devN while unreleased).
    assert Version(PYPROJECT["version"]) > versions[0]


def test_the_changelog_tells_a_release_without_its_commit():
    with pytest.raises(ValueError, match=r"0\.2\.0"):
        releases("## [Unreleased]\n\n## [0.2.0] - 2026-11-22\n\nNo commit named.\n")


def git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_each_release_names_a_commit_of_this_history_in_order_on_its_date():
    assert git("rev-parse", "--is-shallow-repository").stdout.strip() == "false", (
        "a shallow clone lacks the releases' commits: clone the whole history"
    )
    newer = "HEAD"
    for release in releases():
        found = git("rev-parse", "--verify", "--quiet", f"{release.commit}^{{commit}}")
        assert found.returncode == 0, f"{release.version}: no commit {release.commit}"
        ancestor = git("merge-base", "--is-ancestor", release.commit, newer)
        assert ancestor.returncode == 0, f"{release.version}: {release.commit} not before {newer}"
        stamp = int(git("show", "-s", "--format=%ct", release.commit).stdout)
        assert datetime.fromtimestamp(stamp, UTC).date().isoformat() == release.date, release
        newer = release.commit
