"""The rounds export's formats (api.codecs.roundexport): a round a line of JSON, or a CSV row of
its columns with booleans as JSON says them and a dealer's name never run as a formula."""

from __future__ import annotations

import csv
import io

import orjson

from api.codecs.roundexport import CSV_COLUMNS, ROWS_A_CHUNK, as_csv, as_ndjson

ROUND = {
    "table": "t1",
    "shoe": "s1",
    "round": 3,
    "result": "B",
    "player_total": 5,
    "banker_total": 7,
    "player_pair": False,
    "banker_pair": True,
    "natural": False,
    "player_cards": ["2S", "3D", "KC"],
    "banker_cards": ["KH", "7C"],
    "void": False,
    "game_id": "G-3",
    "dealt_at": "2026-11-27T08:00:15.000Z",
    "dealer": {"id": "d-1", "name": '=HYPERLINK("x")'},
    "version": 3,
    "corrected": True,
    "chain": {"number": 12, "hash": "ab" * 32},
}


def test_a_round_is_a_line_of_json():
    (line,) = as_ndjson([ROUND])
    assert line.endswith(b"\n") and orjson.loads(line) == ROUND


def test_a_round_is_a_csv_row_of_its_columns():
    text = b"".join(as_csv([ROUND, {**ROUND, "dealer": None, "player_total": None}])).decode()
    header, row, bare = list(csv.reader(io.StringIO(text)))
    assert header == list(CSV_COLUMNS)
    named = dict(zip(header, row, strict=True))
    assert named["player_cards"] == "2S 3D KC" and named["banker_pair"] == "true"
    assert named["corrected"] == "true" and named["log_number"] == "12"
    assert named["dealer_name"] == '\'=HYPERLINK("x")'  # shown, never run
    rows = list(csv.reader(io.StringIO(b"".join(as_csv([{**ROUND, "game_id": "-A1"}])).decode())))
    assert dict(zip(header, rows[1], strict=True))["game_id"] == "'-A1"  # an id too
    assert dict(zip(header, bare, strict=True))["player_total"] == ""


def test_many_rounds_come_a_chunk_at_a_time():
    chunks = list(as_csv(ROUND for _ in range(2 * ROWS_A_CHUNK + 1)))
    assert len(chunks) == 3
    assert sum(chunk.count(b"\n") for chunk in chunks) == 2 * ROWS_A_CHUNK + 2
