"""A table's past in the lobby page, in Debian's Chromium, against gunicorn, Redis and the record in
PostgreSQL: the table's earlier shoes by the player's day (Today / Previous days), one opened drawn
cell for cell as its roads document says, a cancelled round marked ✕ on the Bead Plate and in the
rounds, a round's details as the record holds them; in every language (no English left, the axe
check passing); read once per shoe opened, with the lobby's read key (the record's reads are
keyed), and out of sight without one.

Set ``ROADS_SCREENSHOTS`` to a folder to keep screenshots of what the test saw.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from roads.simulator import deal_shoe
from tests.gunicorn_server import send
from tests.gunicorn_server import service as served
from tests.lobby_service import shoot
from tests.system.test_lobby_drawn import VIEW_COLS, document_cells, drawn_cells
from tests.system.test_lobby_players import (
    CATALOGUES,
    LOCALES,
    assert_no_english_left,
    shown_texts,
    violations,
)

INGEST, READ = "ingest-key", "read-key"
SHOE = 24  # rounds of the earlier shoe
CANCELLED = 3  # its round cancelled
DEALER = {"id": "d-117", "name": "Mai Linh"}
SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
PAGE = 20  # shoes a read lists (static/pastshoes.js)
ECHO = PAGE + 2  # the shoes of a table whose list takes two reads


def get(base: str, path: str, key: str | None = READ) -> dict:
    headers = {"X-API-Key": key} if key else {}
    request = urllib.request.Request(base + path, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


@pytest.fixture(scope="module")
def service(redis_server, postgres_server):
    env = {"ROADS_DATABASE_URL": postgres_server.new_database(), "ROADS_READ_KEYS": READ}
    url = redis_server.url.rsplit("/", 1)[0] + "/5"  # a database of its own
    with served(url, INGEST, **env) as base:
        send(base, "PUT", "/v1/tables/delta", {"name": "Delta Baccarat"}, INGEST)
        for number, round in enumerate(deal_shoe(47)[:SHOE], start=1):
            report = {
                "round": number,
                "player": [str(card) for card in round.player_cards],
                "banker": [str(card) for card in round.banker_cards],
                "game_id": f"G-47-{number:03}",
                "dealer": DEALER,
            }
            send(base, "POST", "/v1/tables/delta/shoes/s1/rounds", report, INGEST)
        send(base, "POST", f"/v1/tables/delta/shoes/s1/rounds/{CANCELLED}/void", {}, INGEST)
        send(base, "POST", "/v1/tables/delta/shoes/s2/rounds", {"round": 1, "result": "B"}, INGEST)
        # Echo: more shoes than a page lists (a round each).
        send(base, "PUT", "/v1/tables/echo", {"name": "Echo Baccarat"}, INGEST)
        for number in range(1, ECHO + 1):
            round = {"round": 1, "result": "BPT"[number % 3]}
            send(base, "POST", f"/v1/tables/echo/shoes/e{number:02}/rounds", round, INGEST)
        deadline = time.monotonic() + 30
        while not recorded(base):  # the recorder's lag
            assert time.monotonic() < deadline, "the record did not get the shoe in time"
            time.sleep(0.2)
        yield base


def recorded(base: str) -> bool:
    try:
        shoes = get(base, "/v1/tables/delta/shoes")["shoes"]
        echo = get(base, f"/v1/tables/echo/shoes?limit={ECHO}")["shoes"]
    except urllib.error.HTTPError:
        return False
    delta = any(s["shoe"] == "s1" and s["rounds"] == SHOE and s["closed_at"] for s in shoes)
    return delta and len(echo) == ECHO


def open_table(
    browser, base: str, lang: str = "en", key: str | None = READ, days: int = 0, table="delta"
):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=LOCALES[lang])
    if days:  # the player's clock that many days on: today's shoes are then a previous day's
        page.clock.set_fixed_time(datetime.now(UTC) + timedelta(days=days))
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.reads = []
    page.on("request", lambda request: page.reads.append(request.url.split("?")[0]))
    page.goto(f"{base}/{'?key=' + key if key else ''}#/table/{table}")
    expect(page.locator("#table-view")).to_be_visible(timeout=60_000)
    current = "s2" if table == "delta" else f"e{ECHO}"
    expect(page.locator("#table-view")).to_have_attribute("data-version", f"{current}:1")
    return page


def asked(page, since: int) -> list[str]:
    """What the page asked of the API since its ``since``-th request, the event stream apart."""
    return [url for url in page.reads[since:] if "/v1/" in url and "/v1/events" not in url]


def card(text: str) -> str:
    return text[:-1] + SUITS[text[-1]]


def details_of(round: dict) -> dict[str, str]:
    """What the details show of a round of the record (the time is the browser's to write)."""
    hand = lambda side: f"{' '.join(map(card, round[side + '_cards']))} ({round[side + '_total']})"  # noqa: E731
    return {
        "game_id": round["game_id"],
        "player": hand("player"),
        "banker": hand("banker"),
        "dealer": round["dealer"]["name"],
    }


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_past_shoe_is_drawn_as_its_document_with_its_rounds_details(service, browser, lang):
    texts = CATALOGUES[lang]
    page = open_table(browser, service, lang)
    past = page.locator("#tv-past")
    expect(past).to_be_visible()
    expect(page.locator("#past-today")).to_have_attribute("aria-pressed", "true")
    # Today's earlier shoe is listed, the one being dealt is not.
    expect(page.locator("#past-list [data-shoe]")).to_have_count(1)
    shoe = page.locator('#past-list [data-shoe="s1"]')
    expect(shoe).to_contain_text(texts["past.shoe"].replace("{shoe}", "s1"))
    opened = len(page.reads)
    shoe.click()
    view = page.locator("#table-view")
    expect(view).to_have_attribute("data-shown", "past")
    expect(view).to_have_attribute("data-version", f"s1:{SHOE + 1}")  # the void is a write
    # Read once: the shoe's roads and its rounds, nothing else (the event stream apart).
    expected = {f"{service}/v1/tables/delta/shoes/s1/{part}" for part in ("roads", "rounds")}
    assert sorted(asked(page, opened)) == sorted(expected)
    # Ask Banker / Ask Player and the odds are the next round's: not an earlier shoe's.
    expect(page.locator("#table-view .ask")).to_be_hidden()
    expect(page.locator("#tv-odds")).to_be_hidden()
    doc = get(service, "/v1/tables/delta/shoes/s1/roads")
    for road, cols in VIEW_COLS.items():
        assert drawn_cells(page, f".road-{road}") == document_cells(doc, road, cols), road
    # Round 3 was cancelled: no bead, an X on round 4's (the third bead, column 0, row 2).
    cancelled = page.eval_on_selector_all(
        ".road-bead_plate g[data-cancelled]", "nodes => nodes.map(n => n.dataset.cancelled)"
    )
    assert cancelled == ["0,2,1"]
    bead_label = page.locator(".road-bead_plate svg").get_attribute("aria-label")
    assert any(form.replace("{n}", "1") in bead_label for form in texts["road.cancelled"].values())
    rounds = get(service, "/v1/tables/delta/shoes/s1/rounds")["rounds"]
    items = page.locator("#tv-rounds button")
    expect(items).to_have_count(SHOE)
    expect(items.nth(CANCELLED - 1)).to_have_class("round-item void")
    expect(items.nth(CANCELLED - 1)).to_have_text(f"{CANCELLED} ✕")
    for number in (1, 12):
        items.nth(number - 1).click()
        expect(page.locator("#tv-round")).to_be_visible()
        shown = {
            field: page.locator(f'#tv-round-fields dd[data-field="{field}"]').inner_text()
            for field in ("game_id", "player", "banker", "dealer", "time")
        }
        record = rounds[number - 1]
        when = page.evaluate(
            """(at) => {
                const format = (style) => new Intl.DateTimeFormat(document.documentElement.lang,
                    style).format(new Date(at));
                return `${format({dateStyle: "medium"})} ${format({timeStyle: "medium"})}`;
            }""",
            record["dealt_at"],
        )
        assert shown == {**details_of(record), "time": when}
    if lang in ("en", "zh-Hant"):  # the docs' two
        shoot(page, f"lobby-past-{lang}")
    assert violations(page) == []
    seen = shown_texts(page)
    page.click("#tv-live")
    expect(view).to_have_attribute("data-shown", "live")
    expect(page.locator("#table-view .ask")).to_be_visible()
    expect(page.locator("#tv-history")).to_be_hidden()
    assert_no_english_left(lang, seen)
    assert page.errors == []
    page.close()


def test_a_shoe_of_an_earlier_day_is_under_previous_days_by_its_date(service, browser):
    page = open_table(browser, service, days=2)
    expect(page.locator("#past-empty")).to_have_text("No earlier shoe today.")
    expect(page.locator("#past-list [data-shoe]")).to_have_count(0)
    page.click("#past-previous")
    expect(page.locator("#past-previous")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#past-list [data-shoe]")).to_have_count(1)
    opened = get(service, "/v1/tables/delta/shoes")["shoes"][-1]["opened_at"]
    date = page.evaluate(
        """(at) => new Intl.DateTimeFormat("en", {dateStyle: "medium"}).format(new Date(at))""",
        opened,
    )
    expect(page.locator("#past-list .past-day h4")).to_have_text(date)
    page.close()


def test_without_a_read_key_the_past_stays_out_of_sight(service, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    listed = f"{service}/v1/tables/delta/shoes"
    with page.expect_response(lambda answer: answer.url.startswith(listed)) as answered:
        page.goto(f"{service}/#/table/delta")
    assert answered.value.status == 401
    page.wait_for_timeout(200)  # (the page has read the answer: nothing to wait for)
    expect(page.locator("#tv-past")).to_be_hidden()
    expect(page.locator("#table-view")).to_have_attribute("data-version", "s2:1")
    assert page.errors == []
    page.close()


def test_older_shoes_are_read_a_page_more_on_asking(service, browser):
    page = open_table(browser, service, table="echo")
    listed = page.locator("#past-list [data-shoe]")
    expect(listed).to_have_count(PAGE - 1)  # a page, the one being dealt left out
    expect(listed.first).to_have_attribute("data-shoe", f"e{ECHO - 1}")
    reads = len(page.reads)
    page.click("#past-more")
    expect(listed).to_have_count(ECHO - 1)
    expect(listed.last).to_have_attribute("data-shoe", "e01")
    expect(page.locator("#past-more")).to_be_hidden()
    assert asked(page, reads) == [f"{service}/v1/tables/echo/shoes"]
    page.close()


def test_a_round_dealt_while_an_earlier_shoe_is_shown_leaves_it_drawn(service, browser):
    page = open_table(browser, service, table="echo")
    earlier = f"e{ECHO - 1:02}"
    page.locator(f'#past-list [data-shoe="{earlier}"]').click()
    view = page.locator("#table-view")
    expect(view).to_have_attribute("data-shown", "past")
    drawn = drawn_cells(page, ".road-bead_plate")
    round = {"round": 2, "result": "P"}
    send(service, "POST", f"/v1/tables/echo/shoes/e{ECHO}/rounds", round, INGEST)
    # The lobby behind has the round (its tile), the view still the earlier shoe.
    expect(page.locator('#tiles .tile[data-table="echo"]')).to_contain_text("2 rounds")
    expect(view).to_have_attribute("data-version", f"{earlier}:1")
    assert drawn_cells(page, ".road-bead_plate") == drawn
    page.click("#tv-live")
    expect(view).to_have_attribute("data-version", f"e{ECHO}:2")
    expect(page.locator(f'#past-list [data-shoe="{earlier}"]')).to_be_focused()
    page.close()
