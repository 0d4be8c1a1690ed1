"""What comes back from the record is what the chain covers: a shoe (and a table) brought back
from PostgreSQL is rebuilt from the canonical lines that were hashed, never from the ``record``
column (which the chain does not cover), and its chain is checked on the way.

The rules checked, in recorded order (:mod:`roads.chain`, :mod:`api.record.ledger`):

- each write's ``hash`` is :func:`roads.chain.link` of its ``prev_hash`` and its canonical line
  as parsed (what :mod:`roads.verify` checks of an export): what is served is what was hashed;
- each write's ``prev_hash`` is the previous write's ``hash``; a shoe's first write links to
  the head the table's previous shoe had then (:data:`~roads.chain.GENESIS` for the table's
  first), and a table's own writes (its name, a retirement) chain from ``GENESIS``;
- each canonical line names the table, the shoe and the number of its row, and is of a kind its
  chain holds (a round, a correction or a void in a shoe's; ``table`` or ``retire`` in the
  table's);
- each line holds what the service would have written: a round number of a shoe, an integer
  version, a round's record (:func:`api.codecs.records.round_of` takes it, its result agrees),
  a name and a known variant, a retirement's versions by shoe;
- the shoe's row (``record_shoes``: its count of writes, head and outcomes, which the chain
  does not cover) agrees with the chain (:func:`check_row`): a write cut from the end of a shoe
  whose row was left as it was is caught.

A line that breaks any of them raises :class:`~api.storage.coldshoes.RecordTampered` naming the
table, the shoe and the first bad write (a 409): never a ``KeyError``, whatever JSON object a
line holds. Keys a line may carry that this does not need (``by``, the key's name, and any added
later) are ignored. Pure: no database here (:mod:`api.record.recordreads` reads the rows).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import orjson

from api.codecs import paytables
from api.codecs.jsontext import dumps_text, loads
from api.codecs.records import round_of
from api.record.ledger import SHOE_KINDS, outcome
from api.storage.coldshoes import RecordTampered
from roads import MAX_ROUNDS, VARIANTS
from roads.chain import GENESIS, LINK_FIELDS, link
from roads.paytables import PayTableError

TABLE_KINDS = ("table", "studio", "retire")
RESULTS = ("B", "P", "T")
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
    "game_id",  # a round's own facts (api.codecs.roundfacts), when it has them
    "dealt_at",
    "dealer",
    "paytable",
    "burned",
    "burn_ids",
    "version",
)


class Row(NamedTuple):
    """One row of ``record_writes`` as read: what the chain covers, and the number it is read
    by."""

    number: int
    canonical: str
    prev_hash: str
    hash: str


class Summary(NamedTuple):
    """A shoe as ``record_shoes`` states it, or as its chain does: one letter a round (B, P, T,
    x void), its head and its count of writes."""

    outcomes: str
    head: str
    writes: int


class Shoe(NamedTuple):
    """A shoe rebuilt from its chain: its version and each round's latest record (as Redis
    holds it), and its summary."""

    version: int
    records: list[str]
    summary: Summary


class TableChain(NamedTuple):
    """A table's own chain, checked: its name, pay table (variant) and limits as its last
    ``table`` write set them, and each retirement (its number, and the shoes' versions it
    raised). A pay table that write made wait for the table's next shoe (``waits``) is in force
    once a shoe's first round was priced under it (its record says so); until then ``before``
    is, the one the table writes put in force before it."""

    name: str | None
    variant: str
    retirements: list[tuple[int, dict[str, int]]]
    limits: dict[str, Any] | None = None
    # The documents of the pay tables not presets its writes named, by name (their JSON text).
    paytables: tuple[tuple[str, str], ...] = ()
    waits: bool = False  # the last table write's pay table waits for the table's next shoe
    before: str = "standard"  # the pay table the table writes put in force before that one


def checked(
    table: str, shoe: str, rows: list[Row], first_prev: str, kinds: tuple[str, ...]
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
        if _hashed(row.prev_hash, entry) != row.hash:
            raise RecordTampered(table, shoe, row.number, entry.get("round"), "hash differs")
        if (
            entry.get("table") != table
            or not _whole(entry.get("number"))
            or entry["number"] != row.number
            or entry.get("kind") not in kinds
            or entry.get("shoe", "") != shoe
        ):
            raise RecordTampered(table, shoe, row.number, entry.get("round"), "misplaced")
        entries.append(entry)
        prev = row.hash
    return entries


def _limits(table: str, entry: dict[str, Any]) -> dict[str, Any] | None:
    """A ``table`` write's limits (chained as their JSON text), ``None`` for none; raise
    :class:`RecordTampered` when they are not limits."""
    text = entry.get("limits")
    if text is None:
        return None
    try:
        limits = loads(text) if isinstance(text, str) else None
    except ValueError:
        limits = None
    if not isinstance(limits, dict):
        raise _malformed(table, "", entry, "sets no limits")
    return limits


def table_chain(table: str, rows: list[Row]) -> TableChain:
    """The table's own writes, checked from ``GENESIS``."""
    name, variant, retirements, limits = None, "standard", [], None
    documents: dict[str, str] = {}
    waits, before = False, "standard"
    for entry in checked(table, "", rows, GENESIS, TABLE_KINDS):
        if entry["kind"] == "table":
            if not waits:
                before = variant
            name, variant = entry.get("name"), entry.get("variant", "standard")
            paytable = entry.get("paytable")
            if not (name is None or isinstance(name, str)) or not _priced(variant, paytable):
                raise _malformed(table, "", entry, "names no table")
            if paytable is not None:
                documents[variant] = paytable
            waits = entry.get("applies") == "next_shoe"
            limits = _limits(table, entry)
        elif entry["kind"] == "studio":
            if not isinstance(entry.get("event"), str):
                raise _malformed(table, "", entry, "reports no event")
        else:
            versions = entry.get("versions")
            if not isinstance(versions, dict) or not all(map(_whole, versions.values())):
                raise _malformed(table, "", entry, "raises no shoe's version")
            retirements.append((entry["number"], versions))
    paytables = tuple(documents.items())
    return TableChain(name, variant, retirements, limits, paytables, waits, before)


def _priced(variant: Any, paytable: Any) -> bool:
    """Whether a ``table`` write names a pay table: a preset, or the document it carries."""
    if paytable is None:
        return variant in VARIANTS
    try:
        return isinstance(paytable, str) and paytables.decode(paytable).name == variant
    except (ValueError, PayTableError):
        return False


def summary_of(table: str, shoe: str, rows: list[Row], first_prev: str) -> Summary:
    """The shoe's summary as its chain (checked, its first write linked to ``first_prev``)
    states it."""
    _, latest = _rounds(table, shoe, rows, first_prev)
    return _summary(rows, latest)


def shoe_from(table: str, shoe: str, rows: list[Row], first_prev: str, own: TableChain) -> Shoe:
    """The shoe rebuilt from its writes (checked, its first linked to ``first_prev``): each
    round's latest record, and its version: its last write's, or a later retirement's."""
    entries, latest = _rounds(table, shoe, rows, first_prev)
    for number, record in latest.items():
        try:
            agrees = round_of(record).result == record["result"]
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            agrees = False  # (RoadsError is a ValueError: cards no deal holds)
        if not agrees:
            raise RecordTampered(table, shoe, _last_write(entries, number), number, "no round")
    last = entries[-1]
    version = last["version"]
    for number, versions in own.retirements:
        if number > last["number"] and shoe in versions:
            version = versions[shoe]
    records = [encode_record(latest[number]) for number in sorted(latest)]
    return Shoe(version, records, _summary(rows, latest))


def check_row(table: str, shoe: str, row: Summary, chain: Summary) -> None:
    """Raise :class:`RecordTampered` unless the shoe's row (``record_shoes``) states what its
    chain does: writes cut from its end (the row left as it was), or the row's counts, head or
    outcomes rewritten."""
    if row.writes != chain.writes:
        reason = f"its row counts {row.writes} writes, the record holds {chain.writes}"
    elif row.head != chain.head:
        reason = "its row's head is not its last write's"
    elif row.outcomes != chain.outcomes:
        reason = "its row's outcomes are not its writes'"
    else:
        return
    raise RecordTampered(table, shoe, None, None, reason)


def encode_record(record: dict[str, Any]) -> str:
    """A round's record as Redis holds it: :data:`RECORD_ORDER`, then the rest sorted."""
    return dumps_text(in_record_order(record))


def in_record_order(record: dict[str, Any]) -> dict[str, Any]:
    """A round's record (from the chain's sorted bytes) with its keys in the order Redis holds
    them: :data:`RECORD_ORDER`, then the rest sorted."""
    ordered = {key: record[key] for key in RECORD_ORDER if key in record}
    ordered |= {key: record[key] for key in sorted(record) if key not in ordered}
    return ordered


def _rounds(
    table: str, shoe: str, rows: list[Row], first_prev: str
) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """The shoe's lines, checked, and each round's latest record (its result one of
    :data:`RESULTS`, its number the round's)."""
    if not rows:
        raise RecordTampered(table, shoe, None, None, "the record holds none of its writes")
    entries = checked(table, shoe, rows, first_prev, SHOE_KINDS)
    latest: dict[int, dict[str, Any]] = {}
    for entry in entries:
        number, record = entry.get("round"), entry.get("record")
        if (
            not _whole(number)
            or not 1 <= number <= MAX_ROUNDS
            or not _whole(entry.get("version"))
            or not isinstance(record, dict)
            or record.get("round") != number
            or not _whole(record["round"])
            or record.get("result") not in RESULTS
        ):
            raise _malformed(table, shoe, entry, "holds no round")
        latest[number] = record
    return entries, latest


def _summary(rows: list[Row], latest: dict[int, dict[str, Any]]) -> Summary:
    """As the ledger keeps it: one letter a round up to the last, ``x`` for a round the record
    lacks (a shoe begun before the record was on)."""
    letters = [outcome(latest[n]) if n in latest else "x" for n in range(1, max(latest) + 1)]
    return Summary("".join(letters), rows[-1].hash, len(rows))


def _last_write(entries: list[dict[str, Any]], round: int) -> int:
    return max(entry["number"] for entry in entries if entry["round"] == round)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _malformed(table: str, shoe: str, entry: dict[str, Any], reason: str) -> RecordTampered:
    return RecordTampered(table, shoe, entry["number"], entry.get("round"), reason)


def _parse(table: str, shoe: str, row: Row) -> dict[str, Any]:
    try:
        entry = orjson.loads(row.canonical)
    except orjson.JSONDecodeError:
        raise RecordTampered(table, shoe, row.number, None, "not JSON") from None
    if not isinstance(entry, dict) or any(field in entry for field in LINK_FIELDS):
        raise RecordTampered(table, shoe, row.number, None, "not a write")
    return entry


def _hashed(prev_hash: str, entry: dict[str, Any]) -> str:
    """:func:`roads.chain.link`; ``""`` (no hash matches it) when ``prev_hash`` is not hex or
    the line cannot be put in canonical form (a value nested past Python's recursion limit)."""
    try:
        return link(prev_hash, entry)
    except (ValueError, RecursionError):
        return ""
