"""What the writer refuses (the HTTP layer maps it to its status, :mod:`api.http.errorreplies`)."""

from __future__ import annotations

from typing import Any


class Conflict(Exception):
    """The write does not fit the shoe as it is (409)."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
