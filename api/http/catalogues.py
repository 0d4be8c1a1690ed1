"""The lobby page's language catalogues, ``static/i18n/LANG.json``, as the API reads them: one
file per language, the same keys in each, so a player's language is the same on the page and in
the API (``GET /v1/patterns?lang=it`` names and describes the patterns from them). They are
package data, read from where :data:`api.resources.CATALOGUES` says.

A catalogue maps a key to its text (``"pattern.banker_streak.name": "Serie Banco"``), or to its
plural forms (``{"one": "{n} mano", "other": "{n} mani"}``); ``tests/http/test_catalogues.py`` holds
every file to English's keys, to the plural forms its language needs, and English's pattern texts
to :mod:`roads.patterns`.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from api.resources import CATALOGUES

#: The languages of the lobby, English first (the default).
LANGUAGES = ("en", "it", "nl", "ro", "id", "zh-Hans", "zh-Hant", "ja", "ko", "vi", "th")
#: Those whose players start on the Asian Good Roads (the Chinese lobbies' profile).
ASIAN = ("zh-Hans", "zh-Hant", "ja", "ko", "vi", "th")


def catalogue(lang: str) -> dict[str, Any]:
    """The catalogue of ``lang`` (one of :data:`LANGUAGES`), read once per process."""
    return _read(CATALOGUES, lang)


@functools.cache
def _read(folder: Path, lang: str) -> dict[str, Any]:
    return json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))


def pattern_text(lang: str, pattern: str) -> tuple[str, str]:
    """A built-in pattern's name and one-line description in ``lang``."""
    texts = catalogue(lang)
    return texts[f"pattern.{pattern}.name"], texts[f"pattern.{pattern}.description"]
