"""What the studio reports between rounds (``POST /v1/tables/{table}/studio``), its rules, and the
event it becomes: on the table's channel (a ``studio`` event), in the record (the table's own
chain, :mod:`api.codecs.writelog`'s ``studio`` kind) and, for some kinds, the table's status.

**The kinds** (:data:`KINDS`), each with the fields it needs (:data:`NEEDS`) and may have
(:data:`MAY`):

- ``shuffle``: the shoe ``shoe`` is being shuffled (the table's next shoe); the table's status
  becomes ``shuffling``;
- ``burn``: cards burned from ``shoe``, by their faces (``cards``, when the shoe reads them) or
  by their ``count``; burned faces leave the cards left, so the exact odds;
- ``cut_card``: the cut card came out of ``shoe``: its next round is its last, or ``round``
  when the report names it;
- ``new_decks``: ``shoe`` is made of new decks (``count`` of them, when said);
- ``pause`` and ``resume``: play stops (the status ``paused``, with the ``reason``) and goes on
  (``open``);
- ``cancel``: a round of ``shoe`` is cancelled: ``round`` when it was reported (it is voided),
  else a game cancelled before its result.

``cut_card`` and ``new_decks`` are also facts of the shoe the integrity watch uses
(:mod:`api.codecs.shoefacts`).

Any kind may carry a ``reason`` (shown to players, as a status's). A burn by its cards may
carry a ``report_id``, its retry key (:mod:`api.writes.burns`): the one report that sent twice
would change the shoe twice (a status, a shuffle, new decks, the cut card and a cancel set what
they set however often they are sent).
"""

from __future__ import annotations

from typing import Any

KINDS = ("shuffle", "burn", "cut_card", "new_decks", "pause", "resume", "cancel")
FIELDS = ("shoe", "cards", "count", "round", "reason", "report_id")
NEEDS: dict[str, tuple[str, ...]] = {
    "shuffle": ("shoe",),
    "burn": ("shoe",),
    "cut_card": ("shoe",),
    "new_decks": ("shoe",),
    "pause": (),
    "resume": (),
    "cancel": ("shoe",),
}
MAY: dict[str, tuple[str, ...]] = {
    "shuffle": ("shoe", "reason"),
    "burn": ("shoe", "cards", "count", "reason", "report_id"),
    "cut_card": ("shoe", "round", "reason"),
    "new_decks": ("shoe", "count", "reason"),
    "pause": ("reason",),
    "resume": ("reason",),
    "cancel": ("shoe", "round", "reason"),
}
#: The kinds that state a fact of their shoe (:func:`api.codecs.shoefacts.fact_of`).
FACT_KINDS = ("cut_card", "new_decks")
#: The status a kind puts the table in (the others leave it as it is).
STATUS = {"shuffle": "shuffling", "pause": "paused", "resume": "open"}
MOST_BURNED = 20


def studio_rule(report: dict[str, Any]) -> str | None:
    """What a report breaks that its schema cannot state (a 422), or ``None``: a field its kind
    needs and lacks, one its kind does not take, a burn of both faces and a count or of neither,
    a cancel of a round with no shoe."""
    kind = report["kind"]
    for field in NEEDS[kind]:
        if field not in report:
            return f"{field}: a {kind} needs it"
    for field in FIELDS:
        if field in report and field not in MAY[kind]:
            return f"{field}: a {kind} does not take it"
    if kind == "burn" and ("cards" in report) == ("count" in report):
        return "cards or count: a burn names the cards burned or how many, one of them"
    if "report_id" in report and "cards" not in report:
        return "report_id: a burn by its cards takes one (a count changes no card left)"
    return None


def studio_event(table: str, report: dict[str, Any], at: str) -> dict[str, Any]:
    """The event of a report: the table, the kind, the report's fields in :data:`FIELDS`' order,
    and ``at``, the service's clock when it took the report (RFC 3339)."""
    fields = {name: report[name] for name in FIELDS if name in report}
    return {"table": table, "kind": report["kind"], **fields, "at": at}
