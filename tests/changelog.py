"""CHANGELOG.md as the tests read it: its sections in order, and each release's version, date and
the commit the line under its heading names (a test that runs an earlier release's code finds
that release's commit here)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
UNRELEASED = "Unreleased"

# Keep a Changelog's headings: "## [Unreleased]", "## [0.4.0] - 2026-11-24".
HEADING = re.compile(r"^## \[(?P<name>[^\]]+)\](?: - (?P<date>\d{4}-\d{2}-\d{2}))?[ \t]*$", re.M)
# The first line of a release's entry: "Commit `a2c9623`. ..."
COMMIT = re.compile(r"\ACommit `(?P<commit>[0-9a-f]{7,40})`\.")


@dataclass(frozen=True)
class Section:
    """One "## [...]" heading and the text under it, up to the next heading."""

    name: str
    date: str | None
    body: str


@dataclass(frozen=True)
class Release:
    version: str
    date: str
    commit: str


def sections(text: str | None = None) -> tuple[Section, ...]:
    """Every section of the changelog (``text``, or CHANGELOG.md's), newest first."""
    text = CHANGELOG.read_text(encoding="utf-8") if text is None else text
    found = list(HEADING.finditer(text))
    ends = [match.start() for match in found[1:]] + [len(text)]
    return tuple(
        Section(match["name"], match["date"], text[match.end() : end].strip())
        for match, end in zip(found, ends, strict=True)
    )


def releases(text: str | None = None) -> tuple[Release, ...]:
    """Every release, newest first. A release's section must have a date and open with the line
    naming its commit: one that does not is a ValueError naming it."""
    made = []
    for section in sections(text):
        if section.name == UNRELEASED:
            continue
        commit = COMMIT.match(section.body)
        if section.date is None or commit is None:
            raise ValueError(f"release {section.name}: no date, or no 'Commit `hash`.' line first")
        made.append(Release(section.name, section.date, commit["commit"]))
    return tuple(made)
