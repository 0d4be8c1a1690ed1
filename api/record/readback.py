"""What comes back from the record is what the chain covers: a shoe (and a table) brought back
from PostgreSQL is rebuilt from the canonical bytes that were hashed, never from the ``record``
column (which the chain does not cover), and its chain is checked on the way.

The rules checked, in recorded order (:mod:`roads.chain`, :mod:`api.record.ledger`):

- each write's ``hash`` is SHA-256 of its ``prev_hash`` (hex, as bytes) and its canonical bytes,
  exactly as stored;
- each write's ``prev_hash`` is the previous write's ``hash``; a shoe's first write links to
  the head the table's previous shoe had then (:data:`~roads.chain.GENESIS` for the table's
  first), and a table's own writes (its name, a retirement) chain from ``GENESIS``;
- each canonical line names the table, the shoe and the number of its row, and is of a kind its
  chain holds (a round, a correction or a void in a shoe's; ``table`` or ``retire`` in the
  table's).

A chain that breaks raises :class:`~api.storage.coldshoes.RecordTampered` naming the table, the
shoe and the first bad write. Keys a canonical line may carry that this does not need (``by``,
the key's name, and any added later) are ignored. Pure: no database here
(:mod:`api.record.history` reads the rows).
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import orjson

from api.codecs.jsontext import dumps_text
from api.storage.coldshoes import RecordTampered
from roads.chain import GENESIS

SHOE_KINDS = frozenset(("round", "correction", "void"))
TABLE_KINDS = frozenset(("table", "retire"))
# A round's record as Redis holds it (api.codecs.records.record_of): these keys in this order,
# then any other in sorted order, so a shoe brought back is served byte for byte as before.
RECORD_ORDER = (
    "round",
    "result",
    "player_total",
    "banker_total",
    "player_pair",
    "banker_pair",
    "natural",
    "player_cards",
    "banker_cards",
    "player_perfect_pair",
    "banker_perfect_pair",
    "banker_six",
    "void",
    "version",
)


class Row(NamedTuple):
    """One row of ``record_writes`` as read: what the chain covers, and the number it is read
    by."""

    number: int
    canonical: str
    prev_hash: str
    hash: str


class Shoe(NamedTuple):
    """A shoe rebuilt from its chain: its version and each round's latest record (as Redis
    holds it), and its head."""

    version: int
    records: list[str]
    head: str


class TableChain(NamedTuple):
    """A table's own chain, checked: its name and variant as its last ``table`` write set them,
    and each retirement (its number, and the shoes' versions it raised)."""

    name: str | None
    variant: str
    retirements: list[tuple[int, dict[str, int]]]


def checked(
    table: str, shoe: str, rows: list[Row], first_prev: str, kinds: frozenset[str]
) -> list[dict[str, Any]]:
    """The rows' canonical lines, parsed, once each link holds (see the module doc); raise
    :class:`RecordTampered` at the first that does not. ``first_prev``: what the first write
    must link to."""
    entries = []
    prev = first_prev
    for row in rows:
        entry = _parse(table, shoe, row)
        if row.prev_hash != prev:
            raise RecordTampered(table, shoe, row.number, entry.get("round"), "links elsewhere")
        if _link(row.prev_hash, row.canonical) != row.hash:
            raise RecordTampered(table, shoe, row.number, entry.get("round"), "hash differs")
        if (
            entry.get("table") != table
            or entry.get("number") != row.number
            or entry.get("kind") not in kinds
            or entry.get("shoe", "") != shoe
        ):
            raise RecordTampered(table, shoe, row.number, entry.get("round"), "misplaced")
        entries.append(entry)
        prev = row.hash
    return entries


def table_chain(table: str, rows: list[Row]) -> TableChain:
    """The table's own writes, checked from ``GENESIS``."""
    name, variant, retirements = None, "standard", []
    for entry in checked(table, "", rows, GENESIS, TABLE_KINDS):
        if entry["kind"] == "table":
            name, variant = entry.get("name"), entry.get("variant", "standard")
        else:
            versions = entry.get("versions") or {}
            retirements.append((entry["number"], {s: int(v) for s, v in versions.items()}))
    return TableChain(name, variant, retirements)


def shoe_from(table: str, shoe: str, rows: list[Row], first_prev: str, own: TableChain) -> Shoe:
    """The shoe rebuilt from its writes (checked, its first linked to ``first_prev``): each
    round's latest record, and its version: its last write's, or a later retirement's."""
    if not rows:
        raise RecordTampered(table, shoe, None, None, "the record holds none of its writes")
    entries = checked(table, shoe, rows, first_prev, SHOE_KINDS)
    latest: dict[int, dict[str, Any]] = {}
    for entry in entries:
        number, record = entry.get("round"), entry.get("record")
        if not isinstance(number, int) or not isinstance(record, dict):
            raise RecordTampered(table, shoe, entry["number"], number, "holds no round")
        latest[number] = record
    last = entries[-1]
    version = int(last["version"])
    for number, versions in own.retirements:
        if number > last["number"] and shoe in versions:
            version = versions[shoe]
    records = [encode_record(latest[number]) for number in sorted(latest)]
    return Shoe(version, records, rows[-1].hash)


def encode_record(record: dict[str, Any]) -> str:
    """A round's record as Redis holds it: :data:`RECORD_ORDER`, then the rest sorted."""
    ordered = {key: record[key] for key in RECORD_ORDER if key in record}
    ordered |= {key: record[key] for key in sorted(record) if key not in ordered}
    return dumps_text(ordered)


def _parse(table: str, shoe: str, row: Row) -> dict[str, Any]:
    try:
        entry = orjson.loads(row.canonical)
    except orjson.JSONDecodeError:
        raise RecordTampered(table, shoe, row.number, None, "not JSON") from None
    if not isinstance(entry, dict):
        raise RecordTampered(table, shoe, row.number, None, "not a JSON object")
    return entry


def _link(prev_hash: str, canonical: str) -> str:
    """:func:`roads.chain.link` over the bytes as stored (what the ledger hashed)."""
    try:
        prev = bytes.fromhex(prev_hash)
    except ValueError:
        return ""
    return hashlib.sha256(prev + canonical.encode()).hexdigest()
