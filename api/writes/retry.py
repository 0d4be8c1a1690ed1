"""The writes' retry policy: a write computed from a read that went stale (storage reports it:
:meth:`api.storage.rounds.RoundStore.scorecard_at` gives ``None``, a commit's reply is not
``committed``) is computed again from a fresh read, at most :data:`MAX_ATTEMPTS` times; then
:class:`~api.storage.failures.Contended` (503: other writers keep winning, the client retries).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from api.storage.failures import Contended

# A write is computed this often when other writers keep winning; then 503.
MAX_ATTEMPTS = 8

T = TypeVar("T")


def retried(shoe: str, attempt: Callable[[], T | None]) -> T:
    """What ``attempt`` answers, calling it again while it answers ``None`` (its read went
    stale), at most :data:`MAX_ATTEMPTS` times in all. Raises :class:`Contended` naming
    ``shoe`` when every attempt went stale."""
    for _ in range(MAX_ATTEMPTS):
        done = attempt()
        if done is not None:
            return done
    raise Contended(f"shoe {shoe} is changing too fast; retry")
