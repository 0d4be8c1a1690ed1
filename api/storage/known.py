"""What this process knows of shoe versions without asking Redis: the interface the storage layer
reads and records through, filled in by the version watch (:mod:`api.live.versions`).

The storage layer never imports the live services; the app factory hands it the watch.
"""

from __future__ import annotations

from typing import Protocol


class KnownVersions(Protocol):
    def get(self, table: str, shoe: str) -> int | None:
        """The shoe's version if this process knows it for sure, else ``None`` (ask Redis)."""

    def current(self, table: str) -> str | None:
        """The table's current shoe if this process knows it for sure, else ``None``."""

    def token(self) -> int | None:
        """Taken before a read from Redis whose answer :meth:`saw` may record."""

    def token_if_following(self) -> int | None:
        """:meth:`token` as a writer takes it: ``None`` unless this process already follows the
        versions (its own reads started that), and it does not start to."""

    def saw(self, table: str, shoe: str, version: int, token: int | None) -> None:
        """Record a version read from Redis (or committed here) since ``token``."""

    def saw_current(self, table: str, shoe: str, seq: int, token: int | None) -> None:
        """Record the table's current shoe as of its write ``seq``, read since ``token``."""
