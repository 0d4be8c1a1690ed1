"""An event of the live feed: what a write stores in the event stream, and the text each channel
sends for it.

A stream entry has the fields ``type``, ``data`` (JSON), ``table`` and ``prev`` (the table's event
before it), and, for a write to the table's current shoe, ``summary`` (the table's tile after the
write) and ``patch`` (JSON: ``base_version`` and ``patch``, the roads document's change). The lobby
channel sends ``data`` with the tile as ``summary``; a table's channel sends ``data`` with
``base_version`` and ``patch``, and the shoe's ``odds`` after the event. A client who may not
read the odds gets each with the tile's edge flags empty and no ``odds``, and an ``edge`` event
as a bare comment (which keeps ids and GRIP chains whole).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from api.codecs.jsontext import Fragment, dumps_text, loads
from api.codecs.tiles import public_summary

HIDDEN = ":\n\n"  # what a client without the odds gets of an ``edge`` event: a comment
# What a client that resumes after events no longer kept is told (it reloads).
RESET = (
    f"event: reset\ndata: {dumps_text({'reason': 'the events after Last-Event-ID are gone'})}\n\n"
)


def encode_data(data: dict[str, Any]) -> str:
    """An event's ``data`` field."""
    return dumps_text(data)


def encode_patch(
    base_version: int | None,
    operations: list[dict[str, Any]],
    odds: dict[str, Any] | None = None,
) -> str:
    """An event's ``patch`` field; ``odds``: the shoe's odds after the event, for the clients
    who may read them (``GET /v1/tables/{table}/odds`` without the note)."""
    fields: dict[str, Any] = {"base_version": base_version, "patch": operations}
    if odds is not None:
        fields["odds"] = odds
    return dumps_text(fields)


LARGEST_PART = 2**64 - 1  # each part of a stream id is an unsigned 64-bit integer in Redis


def is_event_id(text: str) -> bool:
    """Whether ``text`` is a stream id Redis takes: ``MILLIS`` or ``MILLIS-SEQ``, each part a
    decimal integer of at most 64 bits (``0`` alone: from the start)."""
    millis, dash, sequence = text.partition("-")
    parts = [millis, sequence] if dash else [millis]
    return all(
        0 < len(part) <= 20 and part.isascii() and part.isdigit() and int(part) <= LARGEST_PART
        for part in parts
    )


def stream_key(event_id: str) -> tuple[int, int]:
    """A stream id as a comparable pair (``"1700000000000-3"`` -> ``(1700000000000, 3)``)."""
    millis, _, sequence = event_id.partition("-")
    return int(millis), int(sequence or 0)


# Which events a client gets: ``None`` for the lobby channel, else the tables it watches.
Channel = frozenset[str] | None


@dataclass(frozen=True, slots=True)
class Event:
    """One event of the stream, rendered once for each kind of channel: ``lobby`` and ``table``
    (see the module doc), each in full and without the odds."""

    id: str
    type: str
    table: str | None
    prev: str | None
    lobby: str
    detail: str
    lobby_public: str
    detail_public: str

    @property
    def key(self) -> tuple[int, int]:
        return stream_key(self.id)

    def sse(self, channel: Channel, odds: bool = True) -> str:
        """The event in the ``text/event-stream`` format, as ``channel`` carries it to a client
        who reads the odds, or one who does not."""
        if channel is None:
            return self.lobby if odds else self.lobby_public
        return self.detail if odds else self.detail_public

    @classmethod
    def of(cls, entry_id: str, type: str, data: str, extras: dict[str, str]) -> Event:
        """An event from a stream entry's fields (``extras``: all but ``type`` and ``data``)."""
        summary, patch = extras.get("summary"), extras.get("patch")
        fields = loads(data) if summary is not None or patch is not None else None
        lobby = detail = lobby_public = detail_public = data
        if summary is not None:
            lobby = dumps_text({**fields, "summary": Fragment(summary)})
            lobby_public = dumps_text({**fields, "summary": Fragment(public_summary(summary))})
        if patch is not None:
            patch_fields = loads(patch)
            detail = detail_public = dumps_text({**fields, **patch_fields})
            if patch_fields.pop("odds", None) is not None:
                detail_public = dumps_text({**fields, **patch_fields})
        head = f"id: {entry_id}\nevent: {type}\ndata: "
        if type == "edge":
            hidden_lobby = hidden_detail = f"id: {entry_id}\n{HIDDEN}"
        else:
            hidden_lobby, hidden_detail = f"{head}{lobby_public}\n\n", f"{head}{detail_public}\n\n"
        return cls(
            entry_id,
            type,
            extras.get("table"),
            extras.get("prev") or None,
            f"{head}{lobby}\n\n",
            f"{head}{detail}\n\n",
            hidden_lobby,
            hidden_detail,
        )


def entry_event(entry_id: bytes, fields: dict[bytes, bytes]) -> Event:
    """The event of a stream entry as Redis returns it."""
    extras = {
        name.decode(): value.decode()
        for name, value in fields.items()
        if name not in (b"type", b"data")
    }
    return Event.of(entry_id.decode(), fields[b"type"].decode(), fields[b"data"].decode(), extras)
