"""The lobby's language catalogues (static/i18n/LANG.json): one per language, the same keys in
each, every plural form its language needs, the placeholders English has, English's pattern texts
those of roads.patterns, and no English left on another language's page but names used as they
are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api.http.catalogues import LANGUAGES
from roads.patterns import PATTERNS

FOLDER = Path(__file__).resolve().parents[2] / "static" / "i18n"
CATALOGUES = {lang: json.loads((FOLDER / f"{lang}.json").read_text()) for lang in LANGUAGES}
ENGLISH = CATALOGUES["en"]

# The plural forms (CLDR) each language uses for whole numbers: Romanian says 1 rundă, 2 runde,
# 20 de runde; Indonesian and Chinese do not inflect.
PLURAL_FORMS = {
    "en": {"one", "other"},
    "it": {"one", "other"},
    "nl": {"one", "other"},
    "ro": {"one", "few", "other"},
    "id": {"other"},
    "zh-Hans": {"other"},
    "zh-Hant": {"other"},
    "ja": {"other"},
    "ko": {"other"},
    "vi": {"other"},
    "th": {"other"},
}

# Texts a language uses as English writes them: the names of the roads, of the Good Roads tab, of
# Speed and Super 6, which seeds 003 and 004 keep in English; and, per language, what the seeds
# write in English too (seed 001's Dutch side bets, seed 004's Indonesian Banker and Player) or
# what is the same word there (Dutch "Open", "Variant"; Romanian "Standard").
NAMES = {
    "app.brand",
    "tabs.good",
    "road.bead_plate",
    "road.big_road",
    "road.big_eye_boy",
    "road.small_road",
    "road.cockroach_road",
    "variant.speed",
    "bet.super_6",
    # The published names of games and side bets, as studios in these markets show them.
    "variant.ez_baccarat",
    "variant.lucky_6",
    "bet.dragon_7",
    "bet.panda_8",
    "bet.lucky_6",
}
# "Dealer" is the word Dutch, Romanian and Indonesian live lobbies use (and "Shoe" the Dutch and
# Indonesian one); a Dutch table is "Open".
DEALER = {"tile.dealer", "round.dealer"}
SHOE = {"past.shoe"}
AS_IN_ENGLISH = {
    "it": NAMES | {"pattern.dan_tiao.name"},
    "nl": NAMES
    | {"app.brand_sub", "road.label", "filter.variant", "tile.open", "stat.naturals"}
    | {"stat.banker_pair", "stat.player_pair", "bet.player_pair", "bet.banker_pair"}
    | {"bet.either_pair", "bet.perfect_pair", "bet.player_bonus", "bet.banker_bonus"}
    | DEALER
    | SHOE
    | {"table_status.open"},
    "ro": NAMES | {"app.brand_sub", "variant.standard", "pattern.dan_tiao.name"} | DEALER,
    "id": NAMES
    | {"road.label", "side.B", "side.P", "stat.banker", "stat.player"}
    | {"bet.player", "bet.banker", "pattern.dan_tiao.name"}
    | DEALER
    | SHOE,
    "zh-Hans": set(),
    "zh-Hant": set(),
    "ja": set(),
    "ko": set(),
    # Vietnamese and Thai lobbies keep the games' and Super 6's names (docs/languages.md).
    "vi": NAMES,
    "th": NAMES,
}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CLDR_FORMS = {"zero", "one", "two", "few", "many", "other"}


def forms(value: str | dict) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_has_the_english_keys_and_no_other(lang):
    assert set(CATALOGUES[lang]) == set(ENGLISH)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_texts_have_every_form_their_language_needs(lang):
    for key, value in CATALOGUES[lang].items():
        assert isinstance(value, dict) == isinstance(ENGLISH[key], dict), key
        if isinstance(value, dict):
            assert PLURAL_FORMS[lang] <= set(value) <= CLDR_FORMS
        assert all(text.strip() for text in forms(value)), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_use_the_placeholders_english_does(lang):
    for key, value in CATALOGUES[lang].items():
        wanted = set(PLACEHOLDER.findall(" ".join(forms(ENGLISH[key]))))
        for text in forms(value):
            found = set(PLACEHOLDER.findall(text))
            # A plural form may say the count in words ("o dată"): fewer placeholders, never others.
            assert found <= wanted, (key, text)
        if not isinstance(value, dict):
            assert set(PLACEHOLDER.findall(value)) == wanted, (key, value)


def test_english_names_and_describes_the_patterns_as_the_library_does():
    for pattern in PATTERNS:
        assert ENGLISH[f"pattern.{pattern.id}.name"] == pattern.name
        assert ENGLISH[f"pattern.{pattern.id}.description"] == pattern.description
    pattern_keys = {key.split(".")[1] for key in ENGLISH if key.startswith("pattern.")}
    assert pattern_keys == {pattern.id for pattern in PATTERNS}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_nothing_is_left_in_english(lang):
    left, kept = [], AS_IN_ENGLISH[lang]
    for key, value in CATALOGUES[lang].items():
        for text, english in zip(forms(value), forms(ENGLISH[key]), strict=False):
            words = PLACEHOLDER.sub("", text)
            if text == english and re.search(r"[A-Za-z]{2}", words) and key not in kept:
                left.append(key)
    assert left == []


def test_the_seeds_names_are_the_names_players_see():
    # Seed 003's Italian Good Roads, seed 001's Dutch and seed 004's Indonesian sides.
    italian = CATALOGUES["it"]
    assert italian["pattern.banker_streak.name"] == "Serie Banco"
    assert italian["pattern.player_ping_pong.name"] == "Ping Pong Giocatore"
    assert italian["pattern.banker_sandwich.name"] == "Sandwich Banco"
    assert italian["pattern.change_to_player.name"] == "Cambio con Giocatore"
    assert [CATALOGUES["nl"][f"side.{s}"] for s in "BPT"] == ["Bank", "Speler", "Gelijkspel"]
    assert [CATALOGUES["id"][f"side.{s}"] for s in "BPT"] == ["Banker", "Player", "Seri"]
    assert [CATALOGUES["ro"][f"side.{s}"] for s in "BPT"] == ["Bancher", "Jucător", "Egalitate"]
    assert CATALOGUES["zh-Hans"]["pattern.yi_ting_liang_fang.name"] == "一厅两房"
