"""An alert of the integrity watch as a table's list of findings keeps it
(``{lobby}:integrity:found:TABLE``, newest first): ``ID KIND DATA``, its id in the alert stream,
its kind (one word) and its data JSON. The scripts that raise alerts write it with :data:`LUA`'s
``found_entry``; the table's answer reads it with :meth:`Alert.decode`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from api.codecs.jsontext import loads

# The Lua side: functions the scripts that use this format include (api.storage.luascript).
LUA = files(__package__).joinpath("alerts.lua")


@dataclass(frozen=True, slots=True)
class Alert:
    """One alert as stored: its stream ``id``, ``kind`` and ``data`` (JSON text)."""

    id: str
    kind: str
    data: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.kind, **loads(self.data)}

    def encode(self) -> str:
        return f"{self.id} {self.kind} {self.data}"

    @classmethod
    def decode(cls, raw: str | bytes) -> Alert:
        text = raw.decode() if isinstance(raw, bytes) else raw
        id, kind, data = text.split(" ", 2)
        return cls(id, kind, data)
