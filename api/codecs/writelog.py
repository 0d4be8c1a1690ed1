"""A committed write as the write scripts log it for the record (``{t:TABLE}:log``, a Redis
Stream per table), and as the recorder (:mod:`api.record.recorder`) reads it back.

Each entry's id is ``N-1``, ``N`` the table's log number (``logged`` in its meta, raised by one
per write), so the entries of a table are numbered without gaps and the recorder knows where it
stopped by one number. Fields: ``at`` (milliseconds since the epoch, when the write committed),
``by`` (the name of the API key that made the write, :mod:`api.http.keyring`; ``""`` for a write
the service made itself without one) and ``kind``, then by kind:

- ``round``: ``shoe``, ``number``, ``version`` (the shoe's after it), ``record`` (as stored),
  ``opens`` (``1`` when it opened the shoe);
- ``correction`` and ``void``: ``shoe``, ``number``, ``version``, ``record``;
- ``table``: ``name``, ``variant``;
- ``retire``: ``versions`` (``shoe=version,...``, each shoe's version raised by retiring).

A write script logs only when handed an ``at`` (the record is on); :data:`LUA`'s ``log_write``
is the one place the scripts write an entry, so every kind carries ``by``.
"""

from __future__ import annotations

from importlib.resources import files
from typing import NamedTuple

# The Lua side: functions the scripts that use this format include (api.storage.luascript).
LUA = files(__package__).joinpath("writelog.lua")


class LoggedWrite(NamedTuple):
    """One entry of a table's log (see the module doc)."""

    table: str
    number: int  # the table's log number (the entry's id before ``-1``)
    at_ms: int
    kind: str
    fields: dict[str, str]

    @classmethod
    def decode(cls, table: str, entry_id: bytes | str, fields: dict) -> LoggedWrite:
        text = {_text(key): _text(value) for key, value in fields.items()}
        number = int(_text(entry_id).partition("-")[0])
        return cls(table, number, int(text.pop("at")), text.pop("kind"), text)

    @property
    def by(self) -> str:
        """The name of the key that made the write (``""``: none, or logged before keys were
        named)."""
        return self.fields.get("by", "")

    @property
    def shoe(self) -> str | None:
        return self.fields.get("shoe")

    @property
    def versions(self) -> dict[str, int]:
        """A retirement's raised versions, by shoe."""
        pairs = (
            item.rpartition("=") for item in self.fields.get("versions", "").split(",") if item
        )
        return {shoe: int(version) for shoe, _, version in pairs}


def entry_id(number: int) -> str:
    return f"{number}-1"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
