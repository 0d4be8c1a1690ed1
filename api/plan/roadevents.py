"""The events a write emits about its table, and the road patch each one carries.

A table's roads document (``GET /v1/tables/{table}/roads``) is ``{"table", "shoe", "version"}``
plus the scorecard's :meth:`~roads.Scorecard.as_dict`. Every event that changes it (``round``,
``void``, ``correction``) carries ``base_version`` and ``patch``: the JSON Patch (RFC 6902) that
turns the document at ``base_version`` into the document at the event's ``version``. The first
round of a shoe carries the whole new document as one ``replace`` of the root, with
``base_version`` ``null`` (it applies to whatever the client held: another shoe's document, or
nothing). Beside the patch goes the shoe's ``odds`` after the event (:func:`roads.odds.shoe_odds`),
which the table's channel sends to the clients who may read them: a table view needs no request
a round for them. The patch is made here, where the write is computed, from the scorecard before and
after (:mod:`roads.delta`), and stored with the event by the write's scripts.

An event is kept as a triple ``(type, data, patch JSON)`` (the patch JSON ``{"base_version":
..., "patch": [...]}``, or empty for an event that carries none); :func:`encode_event` makes it
the form the lobby script writes to the event stream as separate fields
(:mod:`api.codecs.feedevents`).
"""

from __future__ import annotations

from typing import Any

from api.codecs.feedevents import encode_data, encode_patch
from api.codecs.lobbyupdate import StreamEvent
from api.codecs.roundfacts import NO_FACTS, RoundFacts
from roads import Round, Scorecard
from roads.delta import Tails, diff, replace_all, round_patch

TableEvent = tuple[str, dict[str, Any], str]


def document(table: str, shoe: str, version: int, scorecard: Scorecard) -> dict[str, Any]:
    """The roads document the service serves for the shoe at ``version``."""
    return {"table": table, "shoe": shoe, "version": version, **scorecard.as_dict()}


def round_data(
    table: str, shoe: str, version: int, number: int, round: Round, facts: RoundFacts = NO_FACTS
) -> dict[str, Any]:
    """What every ``round``, ``void`` and ``correction`` event says, whatever its channel: with
    the round's own facts when it has them (:mod:`api.codecs.roundfacts`), but its pay table
    (the event's odds name it; the record keeps it)."""
    said = facts.fields()  # a new dict each call
    said.pop("paytable", None)
    return {
        "table": table,
        "shoe": shoe,
        "version": version,
        "round": number,
        "result": round.result,
        "void": round.void,
        **said,
    }


def encode_event(event: TableEvent) -> StreamEvent:
    """The event as the lobby script writes it to the stream: type, data JSON, patch JSON."""
    kind, data, patch = event
    return kind, encode_data(data), patch


def next_version(
    version: int, operations: list[dict[str, Any]], odds: dict[str, Any] | None = None
) -> str:
    """The patch from ``version - 1`` to ``version``: the version number, then ``operations``
    (and the shoe's odds at ``version``)."""
    version_op = {"op": "replace", "path": "/version", "value": version}
    return encode_patch(version - 1, [version_op, *operations], odds)


def appended(
    table: str,
    shoe: str,
    version: int,
    before: Tails | None,
    scorecard: Scorecard,
    round: Round,
    odds: dict[str, Any] | None = None,
) -> str:
    """The patch of appending ``round`` (``scorecard`` is after it, at ``version``; ``before``
    is :meth:`Tails.of` the scorecard before it, or ``None`` when the round opens the shoe),
    with the shoe's ``odds`` after it."""
    if before is None:
        return encode_patch(None, replace_all(document(table, shoe, version, scorecard)), odds)
    return next_version(version, round_patch(before, scorecard, round), odds)


def rewritten(
    version: int, before: Scorecard, after: Scorecard, odds: dict[str, Any] | None = None
) -> str:
    """The patch of a void or a correction: from ``before`` at ``version - 1`` to ``after``."""
    return next_version(version, diff(before.as_dict(), after.as_dict()), odds)


def append_events(
    table: str,
    shoe: str,
    version: int,
    number: int,
    round: Round,
    before: Tails | None,
    scorecard: Scorecard,
    odds: dict[str, Any] | None = None,
    facts: RoundFacts = NO_FACTS,
) -> list[TableEvent]:
    """The events of appending round ``number`` (``shoe`` first when it opens the shoe)."""
    data = round_data(table, shoe, version, number, round, facts)
    patch = appended(table, shoe, version, before, scorecard, round, odds)
    events = [("round", data, patch)]
    if before is None:
        events.insert(0, ("shoe", {"table": table, "shoe": shoe}, ""))
    return events


def rewrite_event(
    kind: str,
    table: str,
    shoe: str,
    version: int,
    number: int,
    round: Round,
    before: Scorecard,
    after: Scorecard,
    odds: dict[str, Any] | None = None,
    facts: RoundFacts = NO_FACTS,
) -> TableEvent:
    """The ``void`` or ``correction`` event of round ``number`` becoming ``round``, which
    took the shoe from ``before`` to ``after`` (at ``version``, where its odds are ``odds``)."""
    data = round_data(table, shoe, version, number, round, facts)
    return (kind, data, rewritten(version, before, after, odds))
