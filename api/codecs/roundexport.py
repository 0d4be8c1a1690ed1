"""Every table's rounds of a time range as the export streams them (``GET /v1/export/rounds``):
NDJSON, each round a line as a game lookup answers it, or CSV, a row a round in
:data:`CSV_COLUMNS`. Both are made a round at a time from an iterator of answers, never the
whole export at once."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

CSV_COLUMNS = (
    "table",
    "shoe",
    "round",
    "game_id",
    "dealt_at",
    "dealer_id",
    "dealer_name",
    "result",
    "player_cards",
    "banker_cards",
    "player_total",
    "banker_total",
    "player_pair",
    "banker_pair",
    "natural",
    "void",
    "corrected",
    "version",
    "log_number",
    "hash",
)
ROWS_A_CHUNK = 256  # CSV rows written out together


def as_ndjson(rounds: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """Each round's answer as a line of JSON."""
    for round in rounds:
        yield orjson.dumps(round) + b"\n"


def as_csv(rounds: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """The header, then :data:`ROWS_A_CHUNK` rows at a time."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for count, round in enumerate(rounds):
        writer.writerow(csv_row(round))
        if count % ROWS_A_CHUNK == ROWS_A_CHUNK - 1:
            yield out.getvalue().encode()
            out.seek(0)
            out.truncate()
    yield out.getvalue().encode()


def csv_row(round: dict[str, Any]) -> list[Any]:
    """A round's answer (a game lookup's) as a row of :data:`CSV_COLUMNS`."""
    dealer = round.get("dealer") or {}
    chain = round.get("chain") or {}
    return [
        _text(round["table"]),
        _text(round["shoe"]),
        round["round"],
        _text(round.get("game_id", "")),
        round.get("dealt_at", ""),
        _text(dealer.get("id", "")),
        _text(dealer.get("name", "")),
        round.get("result", ""),
        " ".join(round.get("player_cards") or ()),
        " ".join(round.get("banker_cards") or ()),
        *(_cell(round.get(name)) for name in ("player_total", "banker_total")),
        *(_cell(round.get(name)) for name in ("player_pair", "banker_pair", "natural", "void")),
        _cell(round.get("corrected")),
        _cell(round.get("version")),
        _cell(chain.get("number")),
        _cell(chain.get("hash")),
    ]


def _text(text: str) -> str:
    """Text as a CSV cell a spreadsheet shows and never runs: one that opens as a formula would
    (``=``, ``+``, ``-``, ``@``; an id may begin with ``-``) gets a ``'`` first (OWASP's advice
    on CSV injection)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def _cell(value: Any) -> Any:
    """A CSV cell: booleans as ``true``/``false`` (as the JSON says them), ``None`` empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
