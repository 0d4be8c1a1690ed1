"""What the write endpoints tell the integrity watch beyond a write's plan: the card reports
they refuse as impossible (cards that break the drawing rules, a card dealt more often than the
shoe holds it), counted in ``/metrics`` (``roads_integrity_refused_total``) and not kept: a
refused write changes nothing in Redis. (The drift evaluator is one of the process's jobs,
:mod:`api.jobs`.)"""

from __future__ import annotations

from api.metrics import INTEGRITY_REFUSED


def refused(check: str) -> None:
    """A card report refused as impossible: ``rules_broken`` or ``too_many_copies``."""
    INTEGRITY_REFUSED.labels(check).inc()
