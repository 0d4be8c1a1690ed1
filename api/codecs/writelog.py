"""A committed write as the write scripts log it for the record (``{t:TABLE}:log``, a Redis
Stream per table), and as the recorder (:mod:`api.record.recorder`) reads it back.

Each entry's id is ``N-1``, ``N`` the table's log number (``logged`` in its meta, raised by one
per write), so the entries of a table are numbered without gaps and the recorder knows where it
stopped by one number. Fields: ``at`` (milliseconds since the epoch, when the write committed),
``by`` (the name of the API key that made the write, :mod:`api.http.keyring`; ``""`` for a write
the service made itself without one) and ``kind``, then by kind:

- ``round``: ``shoe``, ``number``, ``version`` (the shoe's after it), ``record`` (as stored),
  ``opens`` (``1`` when it opened the shoe);
- ``correction``, ``void`` and ``burn`` (cards burned after the round, in its record):
  ``shoe``, ``number``, ``version``, ``record``;
- ``table``: ``name``, ``variant`` (the pay table's name), ``limits`` (JSON) when the table has
  some, ``paytable`` (the pay table's document, :mod:`api.codecs.paytables`) when it is not a
  preset, and ``applies`` (``next_shoe``) when it waits for the table's next shoe;
- ``studio``: ``event``, what the studio reported between rounds (JSON,
  :mod:`api.codecs.studioevents`);
- ``retire``: ``versions`` (``shoe=version,...``, each shoe's version raised by retiring).

A kind's fields are spelled in this codec only: on the Lua side by :data:`LUA`'s function of
each kind (``log_round``, ``log_correction``, ``log_void``, ``log_burn``, ``log_table``,
``log_studio``,
``log_retire``, all
through ``log_write``, so every kind carries ``by``; an entry is logged only when the script is
handed an ``at``: the record is on), on the Python side by :class:`LoggedWrite`'s properties.
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
        """The shoe of a ``round``, ``correction`` or ``void``."""
        return self.fields.get("shoe")

    @property
    def round_number(self) -> int:
        """The number of the round a ``round``, ``correction`` or ``void`` wrote (from 1)."""
        return int(self.fields["number"])

    @property
    def version(self) -> int:
        """The shoe's version after a ``round``, ``correction`` or ``void``."""
        return int(self.fields["version"])

    @property
    def record(self) -> str | None:
        """The round as stored (:mod:`api.codecs.records`), by a ``round``, ``correction`` or
        ``void``."""
        return self.fields.get("record")

    @property
    def opens(self) -> bool:
        """Whether a ``round`` opened its shoe."""
        return self.fields.get("opens") == "1"

    @property
    def name(self) -> str:
        """The name a ``table`` write gave the table."""
        return self.fields["name"]

    @property
    def variant(self) -> str:
        """The variant a ``table`` write set."""
        return self.fields["variant"]

    @property
    def paytable(self) -> str | None:
        """The document of the pay table a ``table`` write set, as its JSON text (``None``: a
        preset's, named by :attr:`variant`)."""
        return self.fields.get("paytable") or None

    @property
    def applies(self) -> str | None:
        """``next_shoe`` when a ``table`` write's pay table waits for the next shoe."""
        return self.fields.get("applies") or None

    @property
    def limits(self) -> str | None:
        """The limits a ``table`` write set, as their JSON text (``None``: none). The record
        chains the text, not the numbers: two JSON encoders may spell a number two ways (``1e-7``,
        ``1e-07``), never a string."""
        return self.fields.get("limits") or None

    @property
    def event(self) -> str:
        """What a ``studio`` write reported, as its JSON text (the record chains the text)."""
        return self.fields["event"]

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
