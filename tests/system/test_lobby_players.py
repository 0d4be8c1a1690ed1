"""The lobby page as a player uses it, in Debian's Chromium: eleven languages (and nothing left in
English), a phone's table view, larger tiles, deep links and Back, favourites, the variant filter
and the search box, side bets by variant, derived roads by colour, the keyboard, and an
accessibility check with axe-core (vendored in tests/vendor by scripts/vendor).

Set ``ROADS_SCREENSHOTS`` to a folder to keep screenshots of what the test saw.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from api.http.catalogues import ASIAN, LANGUAGES
from tests.conftest import KEY
from tests.gunicorn_server import service as served
from tests.lobby_service import deal, open_three_tables, send, shoot

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = {
    lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text()) for lang in LANGUAGES
}
# The browser language each catalogue is chosen for.
LOCALES = {"en": "en-GB", "it": "it-IT", "nl": "nl-BE", "ro": "ro-RO", "id": "id-ID"}
LOCALES |= {"zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "ja": "ja-JP", "ko": "ko-KR"}
LOCALES |= {"vi": "vi-VN", "th": "th-TH"}
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def service(redis_server):
    url = redis_server.url.rsplit("/", 1)[0] + "/3"  # a database of its own
    with served(url, KEY, ROADS_PUBLIC_ODDS="1") as base:
        open_three_tables(base, "Charlie Zero")
        yield base


def tile(page, name: str):
    return page.locator("#tiles .tile", has=page.locator("h3", has_text=name))


def open_page(browser, base, lang="en", width=1280, height=900, scheme="dark", path="/"):
    page = browser.new_page(
        viewport={"width": width, "height": height}, locale=LOCALES[lang], color_scheme=scheme
    )
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(base + path)
    expect(tile(page, "Alpha Baccarat")).to_be_attached()  # (the tab may be Good Roads)
    return page


def shown_texts(page) -> str:
    """Everything the page says: its visible text, and its labels, titles, alternative texts and
    placeholders."""
    return page.evaluate(
        """() => [document.body.innerText, document.title,
            ...[...document.querySelectorAll('[aria-label],[title],[alt],[placeholder]')]
              .flatMap((n) => ['aria-label', 'title', 'alt', 'placeholder']
                .map((a) => n.getAttribute(a)).filter(Boolean))].join('\\n')"""
    )


def english_only(lang: str) -> set[str]:
    """English texts another language says otherwise: the parts between placeholders of two
    words or more (a single word may be a name either language uses)."""
    found = set()
    for key, english in CATALOGUES["en"].items():
        if CATALOGUES[lang][key] == english:
            continue
        for text in english.values() if isinstance(english, dict) else [english]:
            for part in re.split(r"\{\w+\}", text):
                part = part.strip(" .,:;·()'")
                if " " in part and len(part) > 6:
                    found.add(part)
    return found


def assert_no_english_left(lang: str, seen: str) -> None:
    """Nothing English writes otherwise is in what the page said in ``lang``."""
    if lang != "en":
        left = sorted(text for text in english_only(lang) if text in seen)
        assert left == [], f"English left on the {lang} page: {left}"


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_page_speaks_the_players_language(service, browser, lang):
    texts = CATALOGUES[lang]
    page = open_page(browser, service, lang)
    assert page.evaluate("document.documentElement.lang") == lang
    expect(page.locator("#tab-all")).to_have_text(texts["tabs.all"])
    rounds = {"en": "18 rounds", "it": "18 mani", "nl": "18 rondes", "ro": "18 runde"}
    rounds |= {"id": "18 ronde", "zh-Hans": "18 局"}
    said = rounds.get(lang) or texts["tile.rounds"]["other"].replace("{n}", "18")
    expect(tile(page, "Alpha Baccarat")).to_contain_text(said)
    shoot(page, f"lobby-{lang}")
    if os.environ.get("ROADS_SCREENSHOTS"):  # a phone's too, for the docs
        page.set_viewport_size({"width": 390, "height": 844})
        expect(tile(page, "Alpha Baccarat")).to_be_visible()
        shoot(page, f"lobby-phone-{lang}")
        page.set_viewport_size({"width": 1280, "height": 900})
    assert violations(page) == []  # the axe check, in every language
    seen = shown_texts(page)
    page.click("#tab-good")
    # The Asian languages' lobbies watch the Asian good roads; the others the classic ones.
    first = "pattern.chang_zhuang.name" if lang in ASIAN else "pattern.banker_streak.name"
    expect(page.locator("#pattern-list label").first).to_have_text(texts[first])
    seen += shown_texts(page)
    page.click("#tab-all")
    tile(page, "Charlie Zero").click()
    expect(page.locator("#tv-stats")).to_contain_text(texts["stat.banker"])
    page.click("#ask-b")
    expect(page.locator("#probe")).to_contain_text(texts["road.big_eye_boy"])
    expect(page.locator("#tv-odds")).to_contain_text(texts["bet.super_6"])
    assert violations(page) == []
    seen += shown_texts(page)
    assert_no_english_left(lang, seen)
    assert page.errors == []
    page.close()


def test_the_language_picker_is_remembered(service, browser):
    page = open_page(browser, service, "en")
    page.select_option("#lang", "it")
    expect(page.locator("#tab-all")).to_have_text("Tutti i tavoli")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(tile(page, "Alpha Baccarat")).to_contain_text("18 mani")
    page.reload()
    expect(page.locator("#tab-all")).to_have_text("Tutti i tavoli")
    expect(page.locator("#lang")).to_have_value("it")
    page.close()


def test_plurals_follow_the_language(service, browser):
    send(service, "PUT", "/v1/tables/delta", {"name": "Delta One"})
    deal(service, "delta", "B")
    for lang, text in (("en", "1 round"), ("it", "1 mano"), ("ro", "1 rundă"), ("nl", "1 ronde")):
        page = open_page(browser, service, lang)
        expect(tile(page, "Delta One")).to_contain_text(text)
        assert "1 rounds" not in tile(page, "Delta One").inner_text()
        page.close()


def test_a_phone_shows_every_road_of_a_table_without_sideways_scrolling(service, browser):
    page = open_page(browser, service, "en", width=390, height=844, scheme="light")
    tile(page, "Alpha Baccarat").click()
    roads = page.locator("#tv-roads svg")
    expect(roads).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("(d => d.scrollWidth <= d.clientWidth)(document.querySelector('dialog'))")
    for index in range(5):
        box = roads.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["width"] > 300  # at the screen's width, one above the other
    shoot(page, "lobby-phone-table")
    page.close()


def test_tiles_draw_cells_twice_the_size_they_were(service, browser):
    page = open_page(browser, service, "en", width=1280, height=800)
    road = tile(page, "Alpha Baccarat").locator(".road svg")
    box = road.bounding_box()
    # 14 columns across the tile's width; the first lobby drew 24 in a 300 px tile (12.5 px).
    assert box is not None and box["width"] / 14 >= 2 * 12.5
    page.close()


def test_deep_links_open_the_same_view_and_back_closes_the_table(service, browser):
    page = open_page(browser, service, "en")
    tile(page, "Alpha Baccarat").click()
    expect(page.locator("#table-view")).to_be_visible()
    assert page.evaluate("location.hash") == "#/table/alpha"
    page.go_back()
    expect(page.locator("#table-view")).to_be_hidden()
    page.wait_for_function("['', '#/'].includes(location.hash)")
    page.click("#tab-good")
    assert page.evaluate("location.hash") == "#/good-roads"
    page.go_back()
    expect(page.locator("#tab-all")).to_have_attribute("aria-selected", "true")
    page.close()

    # A shared link opens the same view; closing it stays on the page, on its tab.
    page = open_page(browser, service, "en", path="/#/good-roads/table/bravo")
    expect(page.locator("#tab-good")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#table-view")).to_be_visible()
    expect(page.locator("#tv-title")).to_have_text("Bravo Speed")
    page.click("#tv-close")
    expect(page.locator("#table-view")).to_be_hidden()
    page.wait_for_function("location.hash === '#/good-roads'")  # after the dialog's close event
    expect(page.locator("#view-good")).to_be_visible()
    page.keyboard.press("Escape")  # nothing more to close
    assert page.url.startswith(service)
    page.close()


def test_favourites_are_starred_first_and_remembered(service, browser):
    page = open_page(browser, service, "en")
    star = tile(page, "Charlie Zero").locator(".star")
    expect(star).to_have_attribute("aria-label", "Add Charlie Zero to favourites")
    star.click()
    expect(star).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tiles .tile").first).to_contain_text("Charlie Zero")
    page.reload()
    expect(page.locator("#tiles .tile").first).to_contain_text("Charlie Zero")
    expect(tile(page, "Charlie Zero").locator(".star")).to_have_attribute("aria-pressed", "true")
    page.click("#favourites-only")
    expect(page.locator("#tiles .tile")).to_have_count(1)
    tile(page, "Charlie Zero").locator(".star").click()
    expect(page.locator("#tiles .tile")).to_have_count(0)
    expect(page.locator("#status")).to_have_text("No table matches your filter.")
    page.close()


def test_the_variant_filter(service, browser):
    page = open_page(browser, service, "en")
    page.select_option("#variant", "speed")
    expect(page.locator("#tiles .tile")).to_have_count(1)
    expect(page.locator("#tiles .tile")).to_contain_text("Bravo Speed")
    page.select_option("#variant", "no_commission")
    expect(page.locator("#tiles .tile")).to_contain_text("Charlie Zero")
    page.close()


def test_side_bets_are_shown_where_the_variant_offers_them(service, browser):
    page = open_page(browser, service, "en")
    tile(page, "Bravo Speed").click()  # speed: Banker pays 0.95:1, no Super 6
    expect(page.locator("#tv-odds")).to_contain_text("Player Pair")
    expect(page.locator("#tv-odds")).not_to_contain_text("Super 6")
    page.click("#tv-close")
    tile(page, "Charlie Zero").click()  # no commission: Super 6 offered
    expect(page.locator("#tv-odds")).to_contain_text("Super 6")
    page.close()


def test_a_table_of_its_own_pay_table_shows_its_name_and_its_bets(service, browser):
    win = [
        {"when": {"winner": "banker"}, "pays": 0.95},
        {"when": {"winner": "tie"}, "pays": "push"},
    ]
    own = {
        "name": "house_macau",
        "bets": {"banker": win, "tie_zero": [{"when": {"total": 0, "winner": "tie"}, "pays": 150}]},
    }
    send(service, "PUT", "/v1/tables/house", {"name": "Delta House", "paytable": own})
    try:
        deal(service, "house", "BPB")
        page = open_page(browser, service, "en")
        expect(tile(page, "Delta House").locator(".variant")).to_have_text("house macau")
        tile(page, "Delta House").click()
        expect(page.locator("#tv-odds")).to_contain_text("tie zero")  # as its pay table spells it
        expect(page.locator("#tv-odds")).to_contain_text("Banker")  # a bet the catalogue names
        expect(page.locator("#tv-odds")).not_to_contain_text("Player")
        assert "bet." not in page.locator("#tv-odds").inner_text()
        page.close()
    finally:
        send(service, "DELETE", "/v1/tables/house", {})


def test_derived_roads_show_a_runs_colour_never_a_side_letter(service, browser):
    page = open_page(browser, service, "en")
    streak = tile(page, "Alpha Baccarat").locator(".streak")
    expect(streak.locator(".letter")).to_have_text("P")  # Big Road: Player 1 in a row
    expect(streak).to_have_attribute("aria-label", re.compile("^Big Road: Player 1 in a row"))
    page.select_option("#road", "big_eye_boy")
    expect(streak.locator(".mark")).to_have_count(1)
    expect(streak.locator(".letter")).to_have_count(0)
    label = streak.get_attribute("aria-label")
    assert label.startswith("Big Eye Boy: ") and ("red" in label or "blue" in label)
    assert "Banker" not in label and "Player" not in label
    alt = tile(page, "Alpha Baccarat").locator(".road svg").get_attribute("aria-label")
    assert alt.startswith("Big Eye Boy: ")
    page.select_option("#road", "big_road")
    page.close()


def violations(page) -> list[str]:
    # The page's policy runs no script of the test's (an added <script> is refused): axe is
    # evaluated by the browser's driver, as every other check here is.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]
    return [
        f"{v['impact']} {v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_keyboard_and_an_accessibility_check(service, browser, scheme):
    page = open_page(browser, service, "en", scheme=scheme)
    assert violations(page) == []
    # The keyboard: from the skip link to a table, open it, close it with Escape.
    page.keyboard.press("Tab")
    expect(page.locator(".skip")).to_be_focused()
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.tile .open')"):
            break
    name = page.evaluate("document.activeElement.textContent")
    page.keyboard.press("Enter")
    expect(page.locator("#table-view")).to_be_visible()
    expect(page.locator("#tv-title")).to_have_text(name)
    page.wait_for_function("[...document.querySelectorAll('#tv-roads img')].every(i => i.alt)")
    assert violations(page) == []
    page.keyboard.press("Escape")
    expect(page.locator("#table-view")).to_be_hidden()
    # The tabs, by the arrow keys.
    page.focus("#tab-all")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-good")).to_be_focused()
    expect(page.locator("#view-good")).to_be_visible()
    expect(page.locator("#pattern-list label").first).to_be_visible()
    assert violations(page) == []
    page.close()


def test_a_search_box_once_there_are_more_than_twelve_tables(service, browser):
    page = open_page(browser, service, "en")
    expect(page.locator("#search-box")).to_be_hidden()
    page.close()
    for n in range(10):
        send(service, "PUT", f"/v1/tables/extra-{n}", {"name": f"Extra Table {n}"})
        deal(service, f"extra-{n}", "BP")
    send(service, "PUT", "/v1/tables/golf", {"name": "Golf Côte d'Azur"})
    deal(service, "golf", "P")
    page = open_page(browser, service, "en")
    expect(page.locator("#search-box")).to_be_visible()
    page.fill("#search", "cote")  # accents and case do not matter
    expect(page.locator("#tiles .tile")).to_have_count(1)
    expect(page.locator("#tiles .tile")).to_contain_text("Golf Côte d'Azur")
    shoot(page, "lobby-search")
    page.close()
