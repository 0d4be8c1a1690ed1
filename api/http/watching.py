"""What the write endpoints tell the integrity watch beyond a write's plan: a card report
refused for breaking the drawing rules (kept, so that the same round reported as a result is
an alert), a card dealt more often than the shoe holds (an alert, once per round), and the start
of this process's drift evaluator."""

from __future__ import annotations

from api.codecs.jsontext import dumps_text
from api.http.answers import services


def watched() -> bool:
    """Whether the integrity watch is on (and starts this process's drift evaluator)."""
    svc = services()
    if svc.writer.watch is None:
        return False
    svc.drift.start()
    return True


def rules_broken(table: str, shoe: str, number: int, rule: str) -> None:
    """A report of round ``number`` with cards that broke the drawing ``rule`` was refused."""
    if watched():
        services().integrity.keep_refused(table, shoe, number, rule)


def too_many_copies(table: str, shoe: str, number: int, why: str) -> None:
    """Round ``number`` was refused: it deals a card more often than the shoe holds it."""
    if not watched():
        return
    data = {
        "table": table,
        "shoe": shoe,
        "round": number,
        "check": "too_many_copies",
        "why": why,
    }
    reason = f"copies {table} {shoe} {number}"
    services().integrity.raise_once(reason, table, "impossible_cards", dumps_text(data))
