"""What the storage layer raises when a write or a read cannot be done as asked (the HTTP layer
maps each to its status, :mod:`api.http.errors`)."""

from __future__ import annotations

from typing import Any


class Conflict(Exception):
    """The write does not fit the shoe as it is (409)."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotFound(Exception):
    """No such table, shoe or round (404)."""


class Retired(NotFound):
    """The table was retired (``DELETE``): its shoes and rounds are read from the archive now,
    until a write brings it back (404)."""

    def __init__(self, table: str) -> None:
        super().__init__(f"table {table} was retired")
        self.table = table


class NotReplicated(Exception):
    """The write is on the master but not yet confirmed on enough replicas (503, retry)."""

    def __init__(self, replicas: int, wanted: int) -> None:
        super().__init__(
            f"the write is stored but only {replicas} of {wanted} replicas confirmed it in time; "
            "retry (the retry is answered once it is replicated)"
        )


class Contended(Exception):
    """Other writers kept changing the shoe while this write was computed (503, retry)."""
