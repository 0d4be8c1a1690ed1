"""The lobby page in a real browser: Playwright driving Debian's Chromium against the service
running under gunicorn (gevent workers) on the tests' Redis, with tables fed over HTTP.

Set ``ROADS_SCREENSHOTS`` to a folder to keep screenshots of what the test saw.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.conftest import KEY
from tests.gunicorn_server import service as served
from tests.lobby_service import deal, open_three_tables, send, shoot


@pytest.fixture(scope="module")
def service(redis_server):
    with served(redis_server.url, KEY, ROADS_PUBLIC_ODDS="1") as base:
        open_three_tables(base, "Charlie No Commission")
        yield base


def tile(page, name: str):
    return page.locator(".tile", has=page.locator("h3", has_text=name))


def test_the_lobby_shows_tiles_updates_live_previews_and_lists_good_roads(service, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    # This player watches Banker Streak alone (every classic pattern is watched at first).
    page.add_init_script('localStorage.setItem("lobby.watched", \'["banker_streak"]\')')
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(service + "/")

    # Tiles appear, each with its Big Road drawn from the tile's cells.
    for name in ("Alpha Baccarat", "Bravo Speed", "Charlie No Commission"):
        expect(tile(page, name)).to_be_visible()
    expect(tile(page, "Alpha Baccarat").locator(".road svg g[data-cell]").first).to_be_attached()
    expect(tile(page, "Alpha Baccarat")).to_contain_text("18 rounds")

    # A new round shows up without a reload.
    deal(service, "alpha", "B", first=19)
    expect(tile(page, "Alpha Baccarat")).to_contain_text("19 rounds")

    # The table view: Ask Banker previews the next cells.
    tile(page, "Alpha Baccarat").click()
    dialog = page.locator("#table-view")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#tv-stats")).to_contain_text("Banker")
    page.click("#ask-b")
    expect(page.locator("#ask-b")).to_have_attribute("aria-pressed", "true")
    # The next cell is drawn, highlighted, on every road that would get one.
    expect(page.locator(".road-big_road svg rect[stroke]")).to_have_count(1)
    expect(page.locator("#probe")).to_contain_text("Big Eye Boy")
    shoot(page, "lobby-table-ask-banker")
    page.click("#tv-close")

    # The Good Roads tab lists a table fed a banker streak (Banker Streak is watched by default),
    # and the page says so when it starts.
    page.click("#tab-good")
    expect(page.locator("#good-tiles")).not_to_contain_text("Bravo Speed")
    deal(service, "bravo", "BBBB", first=19)
    expect(page.locator("#good-tiles .tile", has_text="Bravo Speed")).to_be_visible()
    expect(page.locator("#good-tiles")).to_contain_text("Banker Streak")
    toast = page.locator(".toast", has_text="Banker Streak on Bravo Speed")
    expect(toast).to_be_visible()
    # with how unusual it is: in most shoes, and at one of the lobby's tables almost surely
    expect(toast).to_contain_text("of shoes · at least one of")
    shoot(page, "lobby-good-roads")
    assert errors == []
    page.close()


@pytest.mark.parametrize("lang,said", [("en", "1 shoe in 7"), ("it", "1 sabot su 7")])
def test_an_unusual_run_says_how_unusual_in_the_players_language(service, browser, lang, said):
    send(service, "PUT", "/v1/tables/rare", {"name": "Foxtrot Rare"})
    deal(service, "rare", "PBBBBBBBB", shoe=f"s-{lang}")  # Banker 8 in a row: 13.5% of shoes
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    page.add_init_script(f'localStorage.setItem("lobby.lang", \'"{lang}"\')')
    page.goto(service + "/")
    expect(tile(page, "Foxtrot Rare").locator(".streak .rarity")).to_have_text(said)
    shoot(page, f"lobby-rare-{lang}")
    page.close()


def test_the_lobby_fits_a_phone(service, browser):
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, color_scheme="light"
    )
    page.goto(service + "/")
    expect(tile(page, "Alpha Baccarat")).to_be_visible()
    expect(tile(page, "Alpha Baccarat").locator(".road svg")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways
    box = tile(page, "Alpha Baccarat").bounding_box()
    assert box is not None and box["width"] > 300  # one tile per row, full width
    shoot(page, "lobby-phone")
    page.close()


def test_the_table_view_shows_the_odds_of_the_next_round(service, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page.goto(service + "/")
    tile(page, "Charlie No Commission").click()
    expect(page.locator("#tv-odds")).to_contain_text("Banker Bonus")
    expect(page.locator("#tv-odds-title")).to_contain_text("fresh shoe")  # results, no cards
    expect(page.locator("#tv-odds")).to_contain_text("98.54%")  # no-commission Banker
    page.close()


def test_a_table_whose_shoe_favours_a_bet_shows_its_edge(service, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page.goto(service + "/")
    send(service, "PUT", "/v1/tables/delta", {"name": "Delta Cards"})
    tens = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"] * 8
    for number in range(1, 22):  # six 10-value cards a round: the shoe grows rich in pairs
        p1, b1, p2, b2, p3, b3 = tens[6 * (number - 1) : 6 * number]
        body = {"round": number, "player": [p1, p2, p3], "banker": [b1, b2, b3]}
        send(service, "POST", "/v1/tables/delta/shoes/s1/rounds", body)
    expect(tile(page, "Delta Cards").locator(".tag.edge", has_text="Player Pair")).to_be_visible()
    tile(page, "Delta Cards").click()
    expect(page.locator("#tv-odds .favourable", has_text="Player Pair")).to_be_visible()
    expect(page.locator("#tv-odds-title")).to_contain_text("cards left")
    shoot(page, "lobby-table-odds")
    page.close()


def test_the_table_view_keeps_its_roads_by_patches_without_refetching(service, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    errors, fetched = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda r: fetched.append(r.url) if r.url.endswith("/roads") else None)
    send(service, "PUT", "/v1/tables/echo", {"name": "Echo Patches"})
    deal(service, "echo", "BPB")
    page.goto(service + "/")
    tile(page, "Echo Patches").click()
    view = page.locator("#table-view")
    expect(view).to_have_attribute("data-version", "s1:3")
    deal(service, "echo", "BBBPPTPBPBBBBPPPTBPBPPBBPTBBBP", first=4)  # 30 rounds
    send(service, "PUT", "/v1/tables/echo/shoes/s1/rounds/7", {"result": "T"})  # a correction
    send(service, "POST", "/v1/tables/echo/shoes/s1/rounds/9/void", {})
    expect(view).to_have_attribute("data-version", "s1:35", timeout=15_000)
    kept = page.evaluate("lobby.roadsDocument()")
    with urllib.request.urlopen(service + "/v1/tables/echo/roads", timeout=5) as answer:
        fresh = json.load(answer)
    assert kept == fresh
    expect(view.locator("#tv-shoe")).to_contain_text("round 32")  # 33 dealt, one void
    assert len(fetched) == 1, fetched  # one load, then patches only
    # A new shoe comes as the whole new document.
    deal(service, "echo", "P", shoe="s2")
    expect(view).to_have_attribute("data-version", "s2:1")
    assert page.evaluate("lobby.roadsDocument().rounds") == 1 and len(fetched) == 1
    assert errors == []
    page.close()


def test_a_table_without_a_shoe_shows_a_placeholder_and_a_retired_one_leaves(service, browser):
    send(service, "PUT", "/v1/tables/foxtrot", {"name": "Foxtrot Soon"})
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(service + "/")
    expect(tile(page, "Foxtrot Soon").locator(".road.placeholder")).to_contain_text("first shoe")
    expect(tile(page, "Foxtrot Soon").locator("svg")).to_have_count(0)
    deal(service, "foxtrot", "BP")
    expect(tile(page, "Foxtrot Soon").locator(".road svg g[data-cell]")).to_have_count(2)
    send(service, "DELETE", "/v1/tables/foxtrot", {})
    expect(tile(page, "Foxtrot Soon")).to_have_count(0)
    assert errors == []
    page.close()


def test_the_odds_and_edge_flags_show_only_with_a_read_key(redis_server, browser):
    url = redis_server.url.rsplit("/", 1)[0] + "/1"  # a database of its own
    with served(url, KEY, ROADS_READ_KEYS="lobby-rk") as base:
        send(base, "PUT", "/v1/tables/golf", {"name": "Golf Cards"})
        tens = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"] * 8
        for number in range(1, 22):
            p1, b1, p2, b2, p3, b3 = tens[6 * (number - 1) : 6 * number]
            body = {"round": number, "player": [p1, p2, p3], "banker": [b1, b2, b3]}
            send(base, "POST", "/v1/tables/golf/shoes/s1/rounds", body)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + "/")
        expect(tile(page, "Golf Cards")).to_contain_text("21 rounds")
        expect(tile(page, "Golf Cards").locator(".tag.edge")).to_have_count(0)
        tile(page, "Golf Cards").click()
        expect(page.locator("#tv-stats")).to_contain_text("Banker")
        expect(page.locator("#tv-odds")).to_be_hidden()
        page.close()

        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + "/?key=lobby-rk")
        expect(
            tile(page, "Golf Cards").locator(".tag.edge", has_text="Player Pair")
        ).to_be_visible()
        tile(page, "Golf Cards").click()
        expect(page.locator("#tv-odds .favourable", has_text="Player Pair")).to_be_visible()
        page.close()


def tiles_text(page) -> dict[str, str]:
    """What each tile of the All tables view says (its pictures aside), by table."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#tiles .tile')]
            .map((node) => [node.dataset.table, node.innerText]))"""
    )


def test_tiles_kept_by_frames_equal_a_fresh_load(service, browser):
    """Rounds, a correction, a void, a new shoe, a retirement and a Good Road: the tiles the page
    keeps by the lobby's frames say what a page loaded afresh says."""
    send(service, "PUT", "/v1/tables/framed", {"name": "Delta Frames"})
    deal(service, "framed", "BPB")
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(service + "/")
    expect(tile(page, "Delta Frames")).to_contain_text("3 rounds")
    deal(service, "framed", "PPT", first=4)
    expect(tile(page, "Delta Frames")).to_contain_text("6 rounds")
    same_as_a_fresh_load(browser, service, page, "6 rounds")
    send(service, "PUT", "/v1/tables/framed/shoes/s1/rounds/2", {"result": "B"})
    send(service, "POST", "/v1/tables/framed/shoes/s1/rounds/3/void", {})
    deal(service, "framed", "BBBBB", shoe="s2")  # a new shoe, and a banker streak: a Good Road
    send(service, "PUT", "/v1/tables/framed-gone", {"name": "Echo Gone"})
    deal(service, "framed-gone", "P")
    expect(tile(page, "Echo Gone")).to_be_visible()
    send(service, "DELETE", "/v1/tables/framed-gone", None)
    expect(tile(page, "Echo Gone")).to_have_count(0)
    expect(tile(page, "Delta Frames")).to_contain_text("5 rounds")
    deal(service, "framed", "P", first=6, shoe="s2")
    expect(tile(page, "Delta Frames")).to_contain_text("6 rounds")
    same_as_a_fresh_load(browser, service, page, "6 rounds")
    assert errors == []
    page.close()


def same_as_a_fresh_load(browser, service, page, rounds: str) -> None:
    fresh = browser.new_page(viewport={"width": 1280, "height": 2000})
    fresh.goto(service + "/")
    expect(tile(fresh, "Delta Frames")).to_contain_text(rounds)
    assert tiles_text(page) == tiles_text(fresh)
    fresh.close()
