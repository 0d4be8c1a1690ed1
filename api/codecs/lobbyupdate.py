"""The lobby update a committed write implies, as the lobby script reads it, and the form the
write scripts keep it in beside the table (``{t:TABLE}:lobby``) until the lobby has applied it.

An update (:meth:`LobbyUpdate.encode`) is ``SIZE:WATCH`` and then JSON. ``WATCH`` is the
integrity watch's part (:mod:`api.codecs.watchupdate`; empty with the watch off), ``SIZE`` its
length in bytes. The JSON holds the shoe;
its tile ``summary`` and Big Road ``shape`` (each JSON, stored as they are); the patterns matched
(``id=since_round,...``); how each lobby road's current run changed (``road=+`` grew, ``road=-``
another run started); the bets with an edge (``bet=rtp,...``); the write's events, each ``[type,
data JSON, patch JSON or ""]``; the round's ``dealer`` (JSON) when it names one; and the
``variant``, the pay table the shoe is priced under (the lobby's registry entry follows it).

Kept (:class:`Stored`): ``SEQ:CURRENT:UPDATE``, the table's write sequence number, ``1`` when the
shoe is the table's current one (else ``0``), then the update. The write scripts keep it with
:data:`LUA`'s ``stored_update``; the lobby script reads it with ``parse_stored`` (the JSON, and
the watch's part; an update kept before the watch has none).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, NamedTuple

from api.codecs.jsontext import dumps_text, loads

# The Lua side: functions the scripts that use this format include (api.storage.luascript).
LUA = files(__package__).joinpath("lobbyupdate.lua")

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
    dealer: str = ""  # the round's dealer (JSON, api.codecs.roundfacts), "" for none
    # The pay table the write's shoe is priced under: the lobby's registry entry follows it
    # (api.codecs.tiles.in_force), "" for an update made before updates named it.
    variant: str = ""

    def encode(self) -> str:
        watch = self.watch.encode()
        body = {
            "shoe": self.shoe,
            "summary": self.summary,
            "shape": self.shape,
            "matched": self.matched,
            "runs": self.runs,
            "edges": self.edges,
            "events": [list(event) for event in self.events],
        }
        if self.dealer:  # an update without one is as it always was
            body["dealer"] = self.dealer
        if self.variant:
            body["variant"] = self.variant
        return f"{len(watch)}:{self.watch}" + dumps_text(body)

    @classmethod
    def decode(cls, text: bytes | str) -> LobbyUpdate:
        data = text.encode() if isinstance(text, str) else text
        watch = b""
        if not data.startswith(b"{"):
            size, _, rest = data.partition(b":")
            watch, data = rest[: int(size)], rest[int(size) :]
        raw = loads(data)
        raw["watch"] = watch.decode()
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
