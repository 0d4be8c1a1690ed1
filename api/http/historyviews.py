"""A table's past, read from the record (PostgreSQL): its shoes newest first, one shoe's
summary with its chain head, and a shoe's export (NDJSON or CSV) that ``python -m
roads.verify`` checks. Without ``ROADS_DATABASE_URL`` there is no record: 404 saying so.

Every answer needs a read or an operator key unless ``ROADS_PUBLIC_RECORD=1``, and what reads
the record is bounded per process (:mod:`api.http.recordaccess`); a table's first page of shoes
serves the process's readers for 5 s (:mod:`api.record.shoelists`), so a crowd of lobby table
views reads it once. A summary is its shoe's chain's, checked: a shoe
whose chain breaks, or whose row disagrees with it, is a 409 and a ``record_tampered`` alert
(:meth:`api.storage.coldshoes.ColdShoes.checked`). The export serves the lines as stored,
unchecked: :mod:`roads.verify` names where a tampered one breaks."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import orjson
from flask import Response
from flask_smorest import Blueprint, abort

from api.http.answers import services
from api.http.historyschemas import RecordedShoeSchema, ShoeListSchema
from api.http.recordaccess import SECURITY, record_read, require_record_reader
from api.http.requests import ExportQuerySchema, ShoesQuerySchema
from api.record.recordreads import BadCursor, ExportLine, RecordReads
from api.record.service import Record

blp = Blueprint("history", __name__, description="A table's past, from the record.")

CSV_COLUMNS = ("number", "at", "kind", "shoe", "round", "result", "version", "write")


def record() -> Record:
    found = services().record
    if found is None:
        abort(404, message="this deployment keeps no record (ROADS_DATABASE_URL is not set)")
    return found


def reads() -> RecordReads:
    return record().reads


@blp.route("/v1/tables/<id:table>/shoes")
@blp.doc(security=SECURITY)
@blp.arguments(ShoesQuerySchema(), location="query", error_status_code=400)
@blp.response(200, ShoeListSchema)
@require_record_reader
def shoes(query, table):
    """The table's shoes in the record, newest first, a page at a time (a first page serves this
    process's readers for 5 s, kept before the record's bound: :mod:`api.record.shoelists`)."""
    limit, after = query["limit"], query.get("cursor")
    found, cursor, known = record().listings.get(
        table, limit, after, lambda: listing(table, limit, after)
    )
    if not known:
        abort(404, message=f"the record has no table {table}")
    return {"table": table, "shoes": [shoe.as_dict() for shoe in found], "next_cursor": cursor}


def listing(table: str, limit: int, after: str | None) -> tuple[list, str | None, bool]:
    """A page of the table's shoes read from the record, within the process's bound on record
    reads (503 past it), and whether the record knows the table (an empty first page of a table
    it does not know is a 404)."""
    with services().record_reads.entered():
        try:
            found, cursor = record().cold.checked(reads().shoes, table, limit, after)
        except BadCursor as error:
            abort(400, message=str(error))
        known = bool(found) or after is not None or reads().known(table)
    return found, cursor, known


@blp.route("/v1/tables/<id:table>/shoes/<id:shoe>")
@blp.doc(security=SECURITY)
@blp.response(200, RecordedShoeSchema)
@record_read
def shoe(table, shoe):
    """One shoe as the record holds it: its counts, times and chain head."""
    found = record().cold.checked(reads().shoe, table, shoe)
    if found is None:
        abort(404, message=f"the record has no shoe {shoe} of table {table}")
    return {"table": table, **found.as_dict()}


@blp.route("/v1/tables/<id:table>/shoes/<id:shoe>/export")
@blp.arguments(ExportQuerySchema(), location="query", error_status_code=400)
@blp.doc(
    security=SECURITY,
    responses={
        "200": {
            "description": "Every recorded write of the shoe in order, each with ``prev_hash`` "
            "and ``hash``: NDJSON, or CSV with the write's canonical JSON in ``write``.",
            "content": {
                "application/x-ndjson": {"schema": {"type": "string"}},
                "text/csv": {"schema": {"type": "string"}},
            },
        }
    },
)
@record_read
def export(query, table, shoe):
    """The shoe's recorded writes, chained: check a file with ``python -m roads.verify``."""
    if not reads().has_shoe(table, shoe):
        abort(404, message=f"the record has no shoe {shoe} of table {table}")
    lines = list(reads().export(table, shoe))
    name = f"{table}-{shoe}"
    if query["format"] == "csv":
        body, mimetype, name = as_csv(lines), "text/csv", f"{name}.csv"
    else:
        body, mimetype, name = b"".join(as_ndjson(lines)), "application/x-ndjson", f"{name}.ndjson"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def as_ndjson(lines: list[ExportLine]) -> Iterator[bytes]:
    for line in lines:
        write = {**written(line)[0], "prev_hash": line.prev_hash, "hash": line.hash}
        yield orjson.dumps(write, option=orjson.OPT_SORT_KEYS) + b"\n"


def as_csv(lines: list[ExportLine]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, "prev_hash", "hash"])
    for line in lines:
        write, text = written(line)
        record = write.get("record")
        writer.writerow(
            [
                write.get("number", ""),
                write.get("at", ""),
                write.get("kind", ""),
                write.get("shoe", ""),
                write.get("round", ""),
                record.get("result", "") if isinstance(record, dict) else "",
                write.get("version", ""),
                text,
                line.prev_hash,
                line.hash,
            ]
        )
    return out.getvalue().encode()


def written(line: ExportLine) -> tuple[dict, str]:
    """A line's write and its JSON text, as stored; a line that is not a JSON object (a
    tampered row) as an object holding its text, so that the export is still served and
    :mod:`roads.verify` names that line."""
    try:
        write = orjson.loads(line.canonical)
    except orjson.JSONDecodeError:
        write = None
    if isinstance(write, dict):
        return write, line.canonical
    write = {"canonical": line.canonical}
    return write, orjson.dumps(write).decode()
