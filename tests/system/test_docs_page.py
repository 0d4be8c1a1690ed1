"""The API reference at /docs in a real browser: Redoc, vendored, renders the service's own
OpenAPI document, and the page asks nothing of any other host."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.conftest import KEY
from tests.gunicorn_server import service as served


def test_the_api_reference_renders_the_document_from_the_service_alone(redis_server, browser):
    with served(redis_server.url, KEY) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        hosts, errors = set(), []
        # What reached a server: the page's policy blocks the rest before it leaves (Redoc's
        # badge asks its vendor's CDN for a logo).
        page.on("requestfinished", lambda request: hosts.add(urlsplit(request.url).netloc))
        blocked = []
        page.on("requestfailed", lambda request: blocked.append(request.failure))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/docs")
        expect(page.get_by_text("Baccarat roads").first).to_be_visible(timeout=15_000)
        page.get_by_text("rounds", exact=True).first.click()
        page.get_by_text("Report the next round of a shoe").first.click()
        # A round's body is one of two forms (the document's oneOf): Redoc offers both.
        expect(page.get_by_text("One of:")).to_be_visible()
        expect(page.get_by_role("tab", name="cards", exact=True).first).to_be_visible()
        expect(page.get_by_role("tab", name="result", exact=True).first).to_be_visible()
        assert hosts - {""} == {urlsplit(base).netloc}  # "": data: and blob: addresses
        # Stopped by the policy in the browser, not by this machine's closed network.
        assert all(failure == "csp" for failure in blocked), blocked
        assert errors == []
        page.close()
