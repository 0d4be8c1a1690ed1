"""The lobby page draws its roads in the browser (clients/js), from the frames and the table's
patches: a real Chromium on the service under gunicorn. It asks for nothing while rounds are
dealt but its event streams, and what it draws is the roads document, cell by cell, in the look
of the service's PNGs."""

from __future__ import annotations

import io
import json
import os
import urllib.request

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from roads.simulator import deal_shoe
from tests.conftest import KEY
from tests.gunicorn_server import service as served
from tests.lobby_service import send

TABLES = [f"t{number:02d}" for number in range(20)]
# The columns the table view shows of each road on a wide screen (static/tableview.js).
VIEW_COLS = {"bead_plate": 10, "big_road": 24, "big_eye_boy": 16, "small_road": 16}
VIEW_COLS["cockroach_road"] = 16
# Mean difference per pixel and channel (0-255) allowed between the SVG, as Chromium draws it,
# and the PNG of the same road at the same size. Measured on this shoe: 0.2 (Cockroach Road) to
# 2.1 (Big Road) and 5.2 (the Bead Plate, whose letters Chromium draws a little bolder than
# matplotlib) in either theme; the edges of the circles are antialiased alike but not to the
# pixel, and the PNG's 64-colour palette moves every colour a little. Before the grid lines were
# put on whole pixels, as Agg puts them, the Big Road measured 7.0: one misplaced detail over
# the whole picture shows.
MOST_PIXEL_DIFFERENCE = 8.0


@pytest.fixture(scope="module")
def service(redis_server):
    with served(redis_server.url, KEY, ROADS_PUBLIC_ODDS="1") as base:
        yield base


def get(base: str, path: str):
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        body = answer.read()
        return (
            json.loads(body)
            if answer.headers["Content-Type"].startswith("application/json")
            else body
        )


def card_rounds(seed: int) -> list[dict]:
    """A simulated shoe's rounds as their reports, cards and all."""
    return [
        {
            "player": [str(card) for card in round.player_cards],
            "banker": [str(card) for card in round.banker_cards],
        }
        for round in deal_shoe(seed)
    ]


def deal_all(
    base: str, shoes: dict[str, list[dict]], start: int, count: int, shoe: str = "s1"
) -> None:
    """Rounds ``start`` to ``start + count - 1`` of every table's shoe, a batch a round number."""
    for number in range(start, start + count):
        batch = [
            {"table": table, "shoe": shoe, "round": number, **rounds[number - 1]}
            for table, rounds in shoes.items()
        ]
        send(base, "POST", "/v1/rounds", {"rounds": batch})


def open_table(page, base: str, table: str):
    page.goto(f"{base}/#/table/{table}")
    view = page.locator("#table-view")
    # The page's first load: its catalogue, patterns and feed, which a box busy building images
    # once kept over 15 s in CI. A readiness wait; the page never shown still fails.
    expect(view).to_be_visible(timeout=60_000)
    return view


def test_a_lobby_with_a_table_open_asks_for_nothing_while_rounds_are_dealt(service, browser):
    shoes = {table: card_rounds(seed) for seed, table in enumerate(TABLES)}
    for table in TABLES:
        send(service, "PUT", f"/v1/tables/{table}", {"name": f"Table {table}"})
    deal_all(service, shoes, 1, 5)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors, asked = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    view = open_table(page, service, "t03")
    expect(page.locator("#tiles .tile")).to_have_count(20)
    expect(view).to_have_attribute("data-version", "s1:5")
    page.click("#ask-b")
    expect(page.locator("#ask-b")).to_have_attribute("aria-pressed", "true")
    page.on("request", lambda request: asked.append(request.url))

    # 100 rounds a table, 2,000 in all: the rest of the first shoe, then 40 of a new one.
    deal_all(service, shoes, 6, 60)
    next_shoes = {table: card_rounds(100 + seed) for seed, table in enumerate(TABLES)}
    deal_all(service, next_shoes, 1, 40, shoe="s2")
    expect(view).to_have_attribute("data-version", "s2:40", timeout=30_000)
    for table in TABLES:
        expect(page.locator(f'#tiles .tile[data-table="{table}"]')).to_contain_text(
            "40 rounds", timeout=30_000
        )
    assert [url for url in asked if "/v1/events" not in url] == []
    # The odds came with the events: those the page shows are the service's of the last round.
    odds = get(service, "/v1/tables/t03/odds")
    expect(page.locator("#tv-odds-title")).to_contain_text(f"{odds['cards_left']['total']} cards")
    # The preview is still drawn: the next cell, highlighted, on the Big Road.
    expect(page.locator(".road-big_road svg rect[stroke]")).to_have_count(1)
    assert errors == []
    page.close()


def shown_cells(items: list[dict], cols: int, key: str) -> list[str]:
    last = max((item["col"] for item in items), default=0)
    first = max(0, last + 1 - cols)
    return sorted(f"{i['col']},{i['row']},{i[key]}" for i in items if i["col"] >= first)


def document_cells(doc: dict, road: str, cols: int) -> list[str]:
    if road == "bead_plate":
        return shown_cells(doc["bead_plate"], cols, "result")
    items = [item for column in doc[road]["columns"] for item in column]
    return shown_cells(items, cols, "result" if road == "big_road" else "color")


def drawn_cells(page, selector: str) -> list[str]:
    return sorted(
        page.eval_on_selector_all(
            f"{selector} g[data-cell]", "nodes => nodes.map(n => n.dataset.cell)"
        )
    )


def test_every_road_drawn_is_its_document_cell_by_cell(service, browser):
    send(service, "PUT", "/v1/tables/cells", {"name": "Cells"})
    rounds = card_rounds(2026)[:66]
    deal_all(service, {"cells": rounds}, 1, len(rounds))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    view = open_table(page, service, "cells")
    expect(view).to_have_attribute("data-version", f"s1:{len(rounds)}")
    doc = get(service, "/v1/tables/cells/roads")
    for road, cols in VIEW_COLS.items():
        assert drawn_cells(page, f".road-{road}") == document_cells(doc, road, cols), road
    tile = '#tiles .tile[data-table="cells"] .road'
    assert drawn_cells(page, tile) == document_cells(doc, "big_road", 14)
    # Ask Player: each road's next cell is drawn too, where the document says it goes.
    page.click("#ask-p")
    for road, cols in VIEW_COLS.items():
        preview = get(service, "/v1/tables/cells/roads?ask=P")
        assert drawn_cells(page, f".road-{road}") == document_cells(preview, road, cols), road
    page.close()


def svg_screenshot(page, road: str, cols: int, theme: str) -> np.ndarray:
    """The client's SVG of the table's road at its own size, as Chromium draws it."""
    page.evaluate(
        """async ([road, cols, theme]) => {
            const client = await import("/client/index.js");
            const doc = lobby.roadsDocument();
            const box = document.createElement("div");
            box.id = "drawn-alone";
            box.style = "position: fixed; left: 0; top: 0; z-index: 99; line-height: 0";
            const drawn = client.documentCells(doc, road);
            box.append(client.roadSvgElement(road, drawn, { cols, theme }));
            document.querySelector("#drawn-alone")?.remove();
            document.querySelector("#table-view").append(box);
        }""",
        [road, cols, theme],
    )
    picture = page.locator("#drawn-alone svg").screenshot()
    return np.asarray(Image.open(io.BytesIO(picture)).convert("RGB"), dtype=float)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_svg_looks_like_the_png_of_the_same_road(service, browser, theme):
    send(service, "PUT", "/v1/tables/looks", {"name": "Looks"})
    rounds = card_rounds(7)[:70]
    deal_all(service, {"looks": rounds}, 1, len(rounds))
    page = browser.new_page(viewport={"width": 1280, "height": 900}, device_scale_factor=1)
    view = open_table(page, service, "looks")
    expect(view).to_have_attribute("data-version", f"s1:{len(rounds)}")
    differences = {}
    for road in VIEW_COLS:
        drawn = svg_screenshot(page, road, 20, theme)
        png = get(service, f"/v1/tables/looks/roads/{road}.png?cols=20&theme={theme}&scale=1")
        painted = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float)
        assert drawn.shape == painted.shape, road
        differences[road] = float(np.abs(drawn - painted).mean())
        folder = os.environ.get("ROADS_SCREENSHOTS")
        if folder:  # to look at both
            Image.fromarray(drawn.astype("uint8")).save(f"{folder}/svg-{road}-{theme}.png")
            Image.fromarray(painted.astype("uint8")).save(f"{folder}/png-{road}-{theme}.png")
    assert max(differences.values()) < MOST_PIXEL_DIFFERENCE, differences
    page.close()
