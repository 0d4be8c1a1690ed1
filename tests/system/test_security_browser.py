"""What a browser may run (issue 42, item 6), in Debian's Chromium driven by Playwright against the
service under gunicorn: the lobby page renders and stays live under its Content-Security-Policy
with not one violation; a table's name and a tile road's ``from`` that are markup, delivered
through the feed, run no script and make no element; a frame that is not one is dropped and the
page starts again from a full frame."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.conftest import KEY
from tests.gunicorn_server import service as served
from tests.lobby_service import deal, open_three_tables, send

HOSTILE_FROM = '"><img src=x onerror="window.__xss=1">'
HOSTILE_NAME = '<img src=x onerror="window.__xss=1">Delta'

# Every violation of the page's policy, and every Trusted Types refusal, as the page sees them.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""


@pytest.fixture(scope="module")
def service(redis_server):
    with served(redis_server.url, KEY, ROADS_FRAME_ANCESTORS="'self'") as base:
        open_three_tables(base, "Charlie No Commission")
        send(base, "PUT", "/v1/tables/delta", {"name": HOSTILE_NAME})
        deal(base, "delta", "BPB")
        yield base


def watched_page(browser, **options):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, **options)
    page.add_init_script(WATCH)
    page.errors, page.said = [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.said.append(f"{message.type}: {message.text}"))
    return page


def tile(page, table: str):
    return page.locator(f'#tiles .tile[data-table="{table}"]')


def no_script_ran(page) -> None:
    assert page.evaluate("window.__xss") is None
    assert page.locator("img").count() == 0
    assert page.evaluate("window.__violations") == []
    refused = [line for line in page.said if "Content Security Policy" in line or "Trusted" in line]
    assert refused == [] and page.errors == []


def test_the_lobby_renders_and_stays_live_under_its_policy_with_no_violation(service, browser):
    page = watched_page(browser)
    answer = page.goto(service + "/")
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'self'" in policy
    assert "unsafe" not in policy
    assert answer.headers["x-content-type-options"] == "nosniff"
    expect(tile(page, "alpha").locator(".road svg g[data-cell]").first).to_be_attached()
    deal(service, "alpha", "P", first=19)
    expect(tile(page, "alpha")).to_contain_text("19 rounds")
    # Every way the page draws: the derived roads, the table view, Ask Banker, the other theme,
    # the Good Roads tab.
    page.select_option("#road", "cockroach_road")
    tile(page, "alpha").locator(".open").click()
    expect(page.locator(".road-big_road svg g[data-cell]").first).to_be_attached()
    page.click("#ask-b")
    expect(page.locator(".road-big_road svg rect[stroke]")).to_have_count(1)
    page.click("#tv-close")
    page.click("#theme")
    page.click("#tab-good")
    expect(page.locator("#pattern-list input").first).to_be_attached()
    page.click("#tab-all")
    expect(tile(page, "alpha").locator(".road svg")).to_be_visible()
    no_script_ran(page)
    page.close()


def test_a_table_name_that_is_markup_is_shown_as_text(service, browser):
    page = watched_page(browser)
    page.goto(service + "/")
    expect(tile(page, "delta").locator("h3")).to_have_text(HOSTILE_NAME)
    tile(page, "delta").locator(".open").click()
    expect(page.locator("#tv-title")).to_have_text(HOSTILE_NAME)
    expect(page.locator(".road-big_road svg g[data-cell]").first).to_be_attached()
    no_script_ran(page)
    page.close()


def lobby_tiles(base: str) -> dict[str, dict]:
    with urllib.request.urlopen(base + "/v1/tables", timeout=10) as answer:
        return {tile["table"]: tile for tile in json.load(answer)["tables"]}


def forged(tiles: dict[str, dict]) -> dict:
    """A full frame of the lobby's tiles, Alpha's Big Road starting at a ``from`` that is
    markup."""
    alpha = tiles["alpha"]
    big_road = {**alpha["roads"]["big_road"], "from": HOSTILE_FROM}
    tables = {**tiles, "alpha": {**alpha, "roads": {**alpha["roads"], "big_road": big_road}}}
    return {"cursor": 1, "full": True, "tables": tables}


def test_a_forged_frame_is_dropped_and_the_page_starts_again_from_a_full_frame(service, browser):
    page = watched_page(browser)
    streams = []
    frame = forged(lobby_tiles(service))

    def feed(route):
        if "tables=" in route.request.url:
            route.continue_()
            return
        streams.append(route.request.headers.get("last-event-id"))
        if len(streams) == 1:  # the forged frame, as a fan-out that was written to would send it
            body = f"retry: 600000\nid: 1\nevent: frame\ndata: {json.dumps(frame)}\n\n"
            route.fulfill(status=200, content_type="text/event-stream", body=body)
        else:
            route.continue_()

    page.route("**/v1/events*", feed)
    page.goto(service + "/")
    # The forged frame is dropped whole (no tile of it drawn), and a new stream, with no
    # Last-Event-ID, brings the service's own frames.
    expect(tile(page, "alpha").locator(".road svg g[data-cell]").first).to_be_attached()
    assert len(streams) >= 2 and streams[1] is None
    cells = tile(page, "alpha").locator(".road svg g[data-cell]")
    assert all("<" not in (cells.nth(i).get_attribute("data-cell")) for i in range(cells.count()))
    no_script_ran(page)
    page.close()


def test_without_the_policy_the_client_alone_makes_no_element_of_markup(service, browser):
    """The escaping holds by itself: a page that had no policy (an operator's own) and put the
    client's SVG text in with innerHTML still gets text, not an element."""
    page = watched_page(browser, bypass_csp=True)
    page.goto(service + "/")
    expect(tile(page, "alpha")).to_be_visible()
    made = page.evaluate(
        """async (from) => {
            const client = await import("/client/index.js");
            const drawn = client.tileCells({ from, cols: "B,P" });
            const box = document.createElement("div");
            box.innerHTML = client.roadSvg("big_road", drawn, { label: from });
            box.append(client.roadSvgElement("big_road", drawn, { label: from }));
            document.body.append(box);
            const cells = [...box.querySelectorAll("g[data-cell]")].map((g) => g.dataset.cell);
            const labels = [...box.querySelectorAll("svg")].map((s) => s.ariaLabel);
            return { images: box.querySelectorAll("img").length, cells, labels };
        }""",
        HOSTILE_FROM,
    )
    assert made["images"] == 0
    assert made["labels"] == [HOSTILE_FROM, HOSTILE_FROM]
    assert made["cells"] == [f"{HOSTILE_FROM}0,0,B", f"{HOSTILE_FROM}1,0,P"] * 2
    assert page.evaluate("window.__xss") is None
    page.close()
