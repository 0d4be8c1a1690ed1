"""What the lobby page's browser tests share: the service's three starting tables, dealing by
result, and screenshots kept when ``ROADS_SCREENSHOTS`` names a folder."""

from __future__ import annotations

import os
from pathlib import Path

from . import gunicorn_server
from .conftest import KEY


def send(base: str, method: str, path: str, body: dict) -> dict:
    return gunicorn_server.send(base, method, path, body, KEY)


def deal(base: str, table: str, results: str, first: int = 1, shoe: str = "s1") -> None:
    """Deals ``results`` (one letter a round) to ``table`` from round ``first`` on."""
    for number, result in enumerate(results, start=first):
        body = {"round": number, "result": result}
        send(base, "POST", f"/v1/tables/{table}/shoes/{shoe}/rounds", body)


def open_three_tables(base: str, no_commission_name: str) -> None:
    """Alpha (standard), Bravo (speed) and Charlie (no commission), 18 rounds each."""
    send(base, "PUT", "/v1/tables/alpha", {"name": "Alpha Baccarat"})
    send(base, "PUT", "/v1/tables/bravo", {"name": "Bravo Speed", "variant": "speed"})
    charlie = {"name": no_commission_name, "variant": "no_commission"}
    send(base, "PUT", "/v1/tables/charlie", charlie)
    deal(base, "alpha", "BPPBTPBBPPPBPBTBBP")
    deal(base, "bravo", "PPBPBBTPPBPPBBBPBP")
    deal(base, "charlie", "BBPTPBPBPPBBPBPPBT")


def shoot(page, name: str) -> None:
    folder = os.environ.get("ROADS_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"))
