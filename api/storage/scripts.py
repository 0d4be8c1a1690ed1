"""The Lua scripts of a shoe's reads (each a ``.lua`` file, :mod:`api.storage.luascript`). The
write scripts are :mod:`api.storage.writescripts`; the formats the scripts write for Python (the
version message, the stamp of a cached value, the stored lobby update) are :mod:`api.codecs`'
modules, whose Lua side a script includes (:class:`Script`'s ``uses``).

Each script has the one Python wrapper that calls it (named as the script is: ``READ_OR_CLAIM``
by :class:`ReadOrClaim`); a wrapper holds the call's named arguments, ``queue``s the call on a
pipeline, can ``run`` it alone and ``parse`` the raw reply. All keys a script touches are passed
in KEYS and share the table's hash tag, so each runs on one Redis Cluster slot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import redis

from api.codecs import stamps
from api.codecs.stamps import at_version
from api.storage.keys import ShoeKeys
from api.storage.luascript import Script

# -- reads ------------------------------------------------------------------------------------

READ_OR_CLAIM = Script(__package__, "read_or_claim.lua", uses=[stamps.LUA])


class Lookup(NamedTuple):
    """What a read found: the shoe's ``version`` (``None``: no such shoe, or its table is
    ``retired``), the cached ``body`` built at that version, or else whether this request
    ``claimed`` building it and the shoe's cached ``state`` (``b"VERSION:bytes"``, of any
    version) to build from."""

    version: int | None
    body: bytes | None
    claimed: bool = False
    state: bytes | None = None
    retired: bool = False


@dataclass(frozen=True, slots=True)
class ReadOrClaim:
    """A read's one round trip: the shoe's version and the cached response if it was built at
    that version; when it was not, the claim to build it (single-flight: refused while another
    request holds the claim for this version) and, with the claim, the cached state. A retired
    table's shoes are not read (see :class:`~api.storage.writescripts.RetireTable`)."""

    keys: ShoeKeys
    name: str
    claim_ms: int

    def queue(self, commands: Any) -> None:
        READ_OR_CLAIM.queue(commands, **self._named())

    def run(self, client: redis.Redis) -> list:
        return READ_OR_CLAIM.run(client, **self._named())

    def _named(self) -> dict[str, Any]:
        keys = self.keys
        return {
            "info_key": keys.info,
            "cache_key": keys.cache(self.name),
            "claim_key": keys.claim(self.name),
            "state_key": keys.state,
            "meta_key": keys.table.meta,
            "claim_ms": self.claim_ms,
        }

    def parse(self, reply: list) -> Lookup:
        if reply[0] is None:
            return Lookup(None, None, retired=len(reply) > 1)
        version = int(reply[0])
        if len(reply) == 2:
            return Lookup(version, at_version(reply[1], version))
        return Lookup(version, None, reply[2] == 1, reply[3] if len(reply) > 3 else None)


READ_CACHED = Script(__package__, "read_cached.lua")


@dataclass(frozen=True, slots=True)
class ReadCached:
    """A shoe's version and one cached response, in one command (no claim). No transaction is
    needed: the cached value carries the version it was built at."""

    keys: ShoeKeys
    name: str

    def queue(self, commands: Any) -> None:
        READ_CACHED.queue(commands, info_key=self.keys.info, cache_key=self.keys.cache(self.name))

    def run(self, client: redis.Redis) -> list:
        return READ_CACHED.run(
            client, info_key=self.keys.info, cache_key=self.keys.cache(self.name)
        )

    def parse(self, reply: list) -> Lookup:
        if reply[0] is None:
            return Lookup(None, None)
        version = int(reply[0])
        return Lookup(version, at_version(reply[1], version))
