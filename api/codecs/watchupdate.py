"""The integrity watch's part of a write, as the integrity script reads it
(:mod:`api.storage.integrity.watchapply`): carried in the write's lobby update (``watch``), so it is
kept and applied once and in order like the rest of it.

JSON: ``shoe``, ``round``; ``findings`` ``[[kind, data JSON],
...]`` to raise; ``anchors`` ``[[fingerprint, round], ...]`` (the fingerprint: the k-gram's cards in
hexadecimal) to look up and index; ``tally`` (``null`` for a correction or a void) with the round's
``observed`` outcomes, its ``side``, ``expect`` (its chances when known, else ``null``: the previous
append's ``upcoming`` stand for them), ``upcoming`` (comma-separated, as the script keeps them),
``dealer`` when the round names one, and ``day``, the UTC day the round was dealt (its
``dealt_at``'s: the day the record files it under), which its drift tallies count it in;
``exposed`` ``[[bet, data JSON], ...]``, the open side bets with the edge (raised when new to the
shoe).
"""

from __future__ import annotations

from typing import Any

from api.codecs.jsontext import dumps, dumps_text
from roads.integrity.shoewatch import AppendWatch, Finding


def _finding(finding: Finding, table: str, shoe: str) -> list[str]:
    return [finding.kind, dumps({"table": table, "shoe": shoe, **finding.data}).decode()]


def encode_append(
    table: str,
    shoe: str,
    number: int,
    watch: AppendWatch,
    dealer: str | None = None,
    day: str | None = None,
) -> str:
    """An append's part; ``dealer``: the id of the round's dealer, whose day's tally the round
    counts in too (``None``: not reported); ``day``: the UTC day it was dealt (``None``: not
    known, and the script tallies it under the day it applies the write)."""
    tally: dict[str, Any] = {
        "observed": ",".join(map(str, watch.observed)),
        "side": watch.side,
        "expect": None if watch.expect is None else ",".join(map(repr, watch.expect)),
        "upcoming": ",".join(map(repr, watch.upcoming)),
    }
    if dealer:
        tally["dealer"] = dealer
    if day:
        tally["day"] = day
    return dumps_text(
        {
            "shoe": shoe,
            "round": number,
            "findings": [_finding(finding, table, shoe) for finding in watch.findings],
            "anchors": [[fp, at] for fp, at in watch.anchors],
            "tally": tally,
            "exposed": [[bet, _finding(f, table, shoe)[1]] for bet, f in watch.exposed],
        }
    )


def encode_findings(table: str, shoe: str, number: int, findings: list[Finding]) -> str:
    """A correction's or a void's part: its findings alone (``""`` for none)."""
    if not findings:
        return ""
    return dumps_text(
        {
            "shoe": shoe,
            "round": number,
            "findings": [_finding(finding, table, shoe) for finding in findings],
            "anchors": [],
            "tally": None,
            "exposed": [],
        }
    )
