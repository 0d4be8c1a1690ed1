"""The integrity watch's k-gram index (:mod:`roads.integrity.repeats`), as its Lua keeps it, and
the anchors it hands to the record's lasting index (:mod:`api.record.kgrams`).

- **A sighting** (the value of the index's hash, fingerprint -> sighting): ``TABLE SHOE ROUND``,
  where the k-gram was first seen. Written and read by the watch's Lua alone (:data:`LUA`'s
  ``sighting`` and ``parse_sighting``).
- **An anchor** (the list ``{lobby}:integrity:anchors``): ``FINGERPRINT TABLE SHOE ROUND``, the
  k-gram's fingerprint (its cards in hexadecimal) and its sighting. Written by the watch's Lua
  (``anchor_entry``), read by the recorder (:meth:`Anchor.decode`).

Table and shoe ids hold no space (the API's ids are ``[A-Za-z0-9_-]``).
"""

from __future__ import annotations

from importlib.resources import files
from typing import NamedTuple

# The Lua side: functions the scripts that use these formats include (api.storage.luascript).
LUA = files(__package__).joinpath("anchors.lua")


class Anchor(NamedTuple):
    """A k-gram's fingerprint and where it was first seen: ``table``, ``shoe``, ``round``."""

    fingerprint: str
    table: str
    shoe: str
    round: int

    def encode(self) -> str:
        return f"{self.fingerprint} {self.table} {self.shoe} {self.round}"

    @classmethod
    def decode(cls, raw: str | bytes) -> Anchor:
        text = raw.decode() if isinstance(raw, bytes) else raw
        fingerprint, table, shoe, number = text.split(" ")
        return cls(fingerprint, table, shoe, int(number))
