"""The lobby update a committed write implies, as the lobby script reads it, and the form the
write scripts keep it in beside the table (``{t:TABLE}:lobby``) until the lobby has applied it.

An update (JSON, :meth:`LobbyUpdate.encode`): the shoe; its tile ``summary`` and Big Road
``shape`` (each JSON, stored as they are); the patterns matched (``id=since_round,...``); how each
lobby road's current run changed (``road=+`` grew, ``road=-`` another run started); the bets with
an edge (``bet=rtp,...``); the write's events, each ``[type, data JSON, patch JSON or
""]``; the integrity watch's part (``watch``, :mod:`api.codecs.watchupdate`; ``""``: off).

Kept (:class:`Stored`): ``SEQ:CURRENT:UPDATE``, the table's write sequence number, ``1`` when the
shoe is the table's current one (else ``0``), then the update. The write scripts keep it with
:data:`LUA`'s ``stored_update``; the lobby script reads it with ``parse_stored``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from api.codecs.jsontext import dumps_text, loads

# The Lua functions of the stored form (see api.storage.scripts.Script).
LUA = """
local function stored_update(seq, current, update)
  return seq .. ':' .. (current and '1' or '0') .. ':' .. update
end
local function parse_stored(stored)
  local seq, current, update = string.match(stored, '^(%d+):([01]):(.*)$')
  return tonumber(seq), current == '1', update
end
"""

StreamEvent = tuple[str, str, str]  # type, data JSON, patch JSON ("" for none)


@dataclass(frozen=True, slots=True)
class LobbyUpdate:
    shoe: str
    summary: str
    shape: str
    matched: str
    runs: str
    edges: str
    events: tuple[StreamEvent, ...]
    watch: str = ""  # the integrity watch's part (api.codecs.watchupdate), "" for none

    def encode(self) -> str:
        return dumps_text(
            {
                "shoe": self.shoe,
                "summary": self.summary,
                "shape": self.shape,
                "matched": self.matched,
                "runs": self.runs,
                "edges": self.edges,
                "events": [list(event) for event in self.events],
                "watch": self.watch,
            }
        )

    @classmethod
    def decode(cls, text: bytes | str) -> LobbyUpdate:
        raw = loads(text)
        events = tuple((kind, data, patch) for kind, data, patch in raw.pop("events"))
        return cls(**raw, events=events)


def pairs(items: Iterable[tuple[str, Any]]) -> str:
    """``name=value,...``, the form the script reads memberships in (names and values hold no
    ``,`` or ``=``)."""
    return ",".join(f"{name}={value}" for name, value in items)


def parse_pairs(text: str) -> dict[str, str]:
    """What :func:`pairs` wrote, as the script reads it."""
    return dict(part.split("=", 1) for part in text.split(",") if part)


class Stored(NamedTuple):
    """An update as the write scripts keep it."""

    seq: int
    current: bool
    update: str

    def encode(self) -> str:
        return f"{self.seq}:{int(self.current)}:{self.update}"

    @classmethod
    def decode(cls, text: bytes | str) -> Stored:
        raw = text.decode() if isinstance(text, bytes) else text
        seq, current, update = raw.split(":", 2)
        return cls(int(seq), current == "1", update)
