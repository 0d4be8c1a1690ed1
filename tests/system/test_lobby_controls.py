"""The seed's lobby controls as a player uses them, in Debian's Chromium, in English and issue 47's
five languages (Traditional Chinese, Japanese, Korean, Vietnamese, Thai): a tile's status counted
down by the page from the service's clock without a request, its limits and dealer, the stake
filter; tables pinned first (three on a desktop, one on a phone) and remembered; a hidden table
gone until the settings show it again; a tap on the Bead Plate for the winning totals."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from api.codecs.times import utc_text as rfc3339
from roads.simulator import deal_shoe
from tests.lobby_service import deal, send
from tests.system.test_lobby_players import CATALOGUES, LOCALES, open_page, service, tile

__all__ = ["service"]  # the module's fixture: the lobby players' service, three tables dealt

# The languages the seed's lobby controls are tested in: English and issue 47's five.
CONTROLS = ["en", "zh-Hant", "ja", "ko", "vi", "th"]


def said(lang: str, key: str, **values: str) -> str:
    """A catalogue's text with its placeholders filled."""
    text = CATALOGUES[lang][key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


@pytest.mark.parametrize("lang", CONTROLS)
def test_a_tile_says_what_its_table_is_doing_by_the_services_clock(service, browser, lang):
    """Issue 47, part 2: the studio's status on the tile, betting counted down by the page from
    the frames' server time (the browser's own clock an hour ahead: the count is the service's),
    with no request; the limits and the dealer; a closed table shown as such; the stake filter."""
    table = f"stat-{lang}"  # a table of its own: a retired one's shoe is not dealt again
    limits = {"table": {"min": 5, "max": 500}}
    send(service, "PUT", f"/v1/tables/{table}", {"name": "Status Table", "limits": limits})
    try:
        deal(service, table, "BP")
        dealer = {"id": "d7", "name": "Anna"}
        body = {"round": 3, "result": "B", "dealer": dealer}
        send(service, "POST", f"/v1/tables/{table}/shoes/s1/rounds", body)
        until = datetime.now(UTC) + timedelta(seconds=25)
        send(
            service,
            "PUT",
            f"/v1/tables/{table}/status",
            {"status": "betting", "until": rfc3339(until)},
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=LOCALES[lang])
        page.clock.set_system_time(datetime.now(UTC) + timedelta(hours=1))
        page.goto(service + "/")
        shown = tile(page, "Status Table")
        status = shown.locator(".table-status")
        expect(status).to_contain_text(said(lang, "table_status.betting"))
        left = status.locator(".left")
        counted = re.escape(said(lang, "table_status.left")).replace(
            re.escape("{time}"), r"0:(1\d|2[0-5])"
        )
        expect(left).to_have_text(re.compile(f"^{counted}$"))
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        first = left.inner_text()
        expect(left).not_to_have_text(first, timeout=5_000)  # counted down, by the page alone
        assert [url for url in asked if "/v1/events" not in url] == []
        about = said(lang, "tile.limits", min="5", max="500")
        about += f" · {said(lang, 'tile.dealer', name='Anna')}"
        expect(shown.locator(".about")).to_have_text(about)

        closed = {"status": "closed", "reason": "Back at eight"}
        send(service, "PUT", f"/v1/tables/{table}/status", closed)
        expect(shown).to_have_class(re.compile(r"\bis-closed\b"))
        expect(status).to_have_text(f"{said(lang, 'table_status.closed')} Back at eight")

        page.fill("#stake", "1000")  # above its limits: gone, as every table without limits
        expect(page.locator("#tiles .tile")).to_have_count(0)
        page.fill("#stake", "100")
        expect(page.locator("#tiles .tile")).to_have_count(1)
        expect(shown).to_be_visible()
        page.fill("#stake", "")
        expect(tile(page, "Alpha Baccarat")).to_be_visible()
        page.close()
    finally:
        send(service, "DELETE", f"/v1/tables/{table}", {})


@pytest.mark.parametrize("lang", CONTROLS)
def test_pinned_tables_come_first_and_a_hidden_one_comes_back_from_the_settings(
    service, browser, lang
):
    """Issue 47, part 3 (seed 003's multiplay lobby): up to three tables pinned first on a
    desktop, one on a phone (the newest pin), out of the sorting and remembered; a hidden table
    gone until the settings show it again."""
    page = open_page(browser, service, lang)
    names = page.locator("#tiles .tile h3")
    tile(page, "Charlie Zero").locator(".pin").click()
    tile(page, "Bravo Speed").locator(".pin").click()
    expect(names.nth(0)).to_have_text("Charlie Zero")
    expect(names.nth(1)).to_have_text("Bravo Speed")
    expect(tile(page, "Bravo Speed").locator(".pin")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(names.nth(0)).to_have_text("Charlie Zero")
    expect(names.nth(1)).to_have_text("Bravo Speed")
    page.set_viewport_size({"width": 390, "height": 800})  # a phone holds one: the newest
    expect(names.nth(0)).to_have_text("Bravo Speed")
    expect(tile(page, "Charlie Zero").locator(".pin")).to_have_attribute("aria-pressed", "false")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(names.nth(0)).to_have_text("Charlie Zero")

    listed = names.count()  # (other tests of the module may have named more tables)
    tile(page, "Alpha Baccarat").locator(".hide").click()
    expect(tile(page, "Alpha Baccarat")).to_have_count(0)
    page.reload()
    expect(names).to_have_count(listed - 1)
    expect(tile(page, "Alpha Baccarat")).to_have_count(0)
    page.click("#hidden-tables summary")
    page.get_by_role("button", name=said(lang, "hidden.show", table="Alpha Baccarat")).click()
    expect(tile(page, "Alpha Baccarat")).to_be_visible()
    expect(page.locator("#hidden-tables")).to_be_hidden()
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("lang", CONTROLS)
def test_a_tap_on_the_bead_plate_shows_the_winning_totals(service, browser, lang):
    """Seed 003: the Bead Plate shows the results' letters, or after a tap each hand's winning
    total (remembered), and back."""
    table = f"beads-{lang}"  # a table of its own: a retired one's shoe is not dealt again
    rounds = deal_shoe(9)[:6]
    for number, round in enumerate(rounds, start=1):
        cards = {"player": [str(c) for c in round.player_cards]}
        cards["banker"] = [str(c) for c in round.banker_cards]
        send(service, "POST", f"/v1/tables/{table}/shoes/s1/rounds", {"round": number, **cards})
    try:
        page = open_page(browser, service, lang, path=f"/#/table/{table}")
        beads = page.locator(".road-bead_plate svg text")
        letters = [said(lang, f"side.{r.result}.short") for r in rounds]
        totals = [str(max(r.player_total, r.banker_total)) for r in rounds]
        expect(beads).to_have_text(letters)
        toggle = page.locator(".bead-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(toggle).to_have_text(said(lang, "bead.totals"))
        page.locator(".road-bead_plate .drawn").click()  # a tap on the drawing
        expect(beads).to_have_text(totals)
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.reload()
        expect(page.locator(".road-bead_plate svg text")).to_have_text(totals)
        page.locator(".bead-toggle").press("Enter")  # the caption's toggle, from the keyboard
        expect(page.locator(".road-bead_plate svg text")).to_have_text(letters)
        assert page.errors == []
        page.close()
    finally:
        send(service, "DELETE", f"/v1/tables/{table}", {})
