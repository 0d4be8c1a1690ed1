"""The version message: every write script publishes one when it commits, on the deployment's
version channel, and every process's version watch reads it (:mod:`api.live.versions`).

``table \\x1f shoe \\x1f version \\x1f current \\x1f seq``: ``current`` is ``current`` when the shoe
is the table's current one, else empty; ``seq`` the table's write sequence number. The scripts
write it with :data:`LUA`'s ``version_message``; Python reads it with :meth:`VersionMessage.decode`.
"""

from __future__ import annotations

from importlib.resources import files
from typing import NamedTuple

SEPARATOR = "\x1f"

# The Lua side: functions the scripts that use this format include (api.storage.luascript).
LUA = files(__package__).joinpath("versionmessage.lua")


class VersionMessage(NamedTuple):
    table: str
    shoe: str
    version: int
    current: bool
    seq: int

    def encode(self) -> bytes:
        current = "current" if self.current else ""
        fields = (self.table, self.shoe, str(self.version), current, str(self.seq))
        return SEPARATOR.join(fields).encode()

    @classmethod
    def decode(cls, data: bytes) -> VersionMessage:
        table, shoe, version, current, seq = data.decode().split(SEPARATOR)
        return cls(table, shoe, int(version), current == "current", int(seq))
