"""The Lua scripts of a shoe's writes and reads, each with the one Python wrapper that calls it
(named as the script is: ``READ_FOR_APPEND`` by :class:`ReadForAppend`, and so on). A wrapper
holds the call's named arguments and ``queue``s the call on a pipeline; a read's wrapper can also
``run`` it alone and ``parse`` the raw reply, a write's reply is read by :func:`write_reply`.

Every write script compares what it was computed from (the shoe's version and round count, the
table's current shoe and variant) with what is stored, and sets the new state only when they are
equal: an atomic compare-and-set. Which round may come next is decided in Python, by
:func:`roads.shoe.check_append`; a script that finds the shoe moved on changes nothing, and the
caller reads again and decides again. All keys a script touches are passed in KEYS and share the
table's hash tag, so each runs on one Redis Cluster slot.

Each script's arguments are built here, by its wrapper, next to the Lua that reads them; the
formats the scripts write for Python (the version message) are read back here too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import redis

from api.storage.keys import ShoeKeys
from roads.shoe import ShoeHead

SEPARATOR = "\x1f"


class Script:
    """A Lua script, sent by its SHA (see :meth:`queue`). Every script made is listed in
    :data:`SCRIPTS`, so a server that forgot them (a restart, ``SCRIPT FLUSH``) gets them all
    again at once."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()
        SCRIPTS.append(self)

    def queue(self, commands: Any, keys: Sequence[str], args: Sequence[Any]) -> None:
        """Add the script to a pipeline (anything with ``execute_command``) by its SHA.

        redis-py's own way asks the server whether the script is loaded before every
        execution, one more round trip; the transport instead loads the scripts and sends the
        pipeline again when the server answers ``NOSCRIPT``."""
        commands.execute_command("EVALSHA", self.sha, len(keys), *keys, *args)

    def run(self, client: redis.Redis, keys: Sequence[str], args: Sequence[Any] = ()) -> Any:
        """Run the script alone through ``client`` (its own routing on a cluster), loading it
        first if the server does not know it."""
        try:
            return client.evalsha(self.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            client.script_load(self.source)
            return client.evalsha(self.sha, len(keys), *keys, *args)


SCRIPTS: list[Script] = []


# -- the version message ---------------------------------------------------------------------
# Every write script publishes "table \x1f shoe \x1f version \x1f current \x1f seq" when it
# commits (current: "current" when the shoe is the table's current one, else empty; seq: the
# table's write sequence number). The scripts are given the part before the version.


class VersionMessage(NamedTuple):
    table: str
    shoe: str
    version: int
    current: bool
    seq: int


def message_prefix(table: str, shoe: str) -> str:
    return f"{table}{SEPARATOR}{shoe}{SEPARATOR}"


def parse_version_message(data: bytes) -> VersionMessage:
    table, shoe, version, current, seq = data.decode().split(SEPARATOR)
    return VersionMessage(table, shoe, int(version), current == "current", int(seq))


# -- reads ------------------------------------------------------------------------------------

READ_FOR_APPEND = Script("""
-- (false, not nil, stands for a missing value: a nil would end the reply there)
local meta = redis.call('HMGET', KEYS[1], 'current', 'variant')
return {meta[1] or false, meta[2] or false, redis.call('HGET', KEYS[2], 'version') or false,
  redis.call('LLEN', KEYS[3]), redis.call('GET', KEYS[4]) or false}
""")


@dataclass(frozen=True, slots=True)
class ReadForAppend:
    """What an append is computed from, read at one instant in one command: the table's
    current shoe and variant, the shoe's version, its round count and its cached state."""

    keys: ShoeKeys

    def queue(self, commands: Any) -> None:
        keys = self.keys
        READ_FOR_APPEND.queue(commands, [keys.table.meta, keys.info, keys.rounds, keys.state], [])

    def run(self, client: redis.Redis) -> list:
        keys = self.keys
        return READ_FOR_APPEND.run(client, [keys.table.meta, keys.info, keys.rounds, keys.state])

    def parse(self, reply: list) -> AppendBase:
        current, variant, version, count, state = reply
        return AppendBase(
            current.decode() if current is not None else None,
            variant.decode() if variant is not None else "standard",
            int(version or 0),
            count,
            state,
        )


class AppendBase(NamedTuple):
    current: str | None
    variant: str
    version: int
    count: int
    state: bytes | None  # b"VERSION:bytes", of any version

    def head(self, shoe: str) -> ShoeHead:
        return ShoeHead(shoe, self.count, self.current)


READ_OR_CLAIM = Script("""
local version = redis.call('HGET', KEYS[1], 'version')
if not version then
  return {false}
end
local stamp = version .. ':'
local cached = redis.call('GET', KEYS[2])
if cached and string.sub(cached, 1, #stamp) == stamp then
  return {version, cached}
end
if redis.call('GET', KEYS[3]) == version then
  return {version, false, 0}
end
redis.call('SET', KEYS[3], version, 'PX', tonumber(ARGV[1]))
return {version, false, 1, redis.call('GET', KEYS[4]) or false}
""")


class Lookup(NamedTuple):
    """What a read found: the shoe's ``version`` (``None``: no such shoe), the cached ``body``
    built at that version, or else whether this request ``claimed`` building it and the shoe's
    cached ``state`` (``b"VERSION:bytes"``, of any version) to build from."""

    version: int | None
    body: bytes | None
    claimed: bool = False
    state: bytes | None = None


@dataclass(frozen=True, slots=True)
class ReadOrClaim:
    """A read's one round trip: the shoe's version and the cached response if it was built at
    that version; when it was not, the claim to build it (single-flight: refused while another
    request holds the claim for this version) and, with the claim, the cached state."""

    keys: ShoeKeys
    name: str
    claim_ms: int

    def queue(self, commands: Any) -> None:
        READ_OR_CLAIM.queue(commands, self._keys(), [self.claim_ms])

    def run(self, client: redis.Redis) -> list:
        return READ_OR_CLAIM.run(client, self._keys(), [self.claim_ms])

    def _keys(self) -> list[str]:
        keys = self.keys
        return [keys.info, keys.cache(self.name), keys.claim(self.name), keys.state]

    def parse(self, reply: list) -> Lookup:
        if reply[0] is None:
            return Lookup(None, None)
        version = int(reply[0])
        if len(reply) == 2:
            return Lookup(version, at_version(reply[1], version))
        return Lookup(version, None, reply[2] == 1, reply[3] if len(reply) > 3 else None)


READ_CACHED = Script("""
return {redis.call('HGET', KEYS[1], 'version'), redis.call('GET', KEYS[2])}
""")


@dataclass(frozen=True, slots=True)
class ReadCached:
    """A shoe's version and one cached response, in one command (no claim). No transaction is
    needed: the cached value carries the version it was built at."""

    keys: ShoeKeys
    name: str

    def queue(self, commands: Any) -> None:
        READ_CACHED.queue(commands, [self.keys.info, self.keys.cache(self.name)], [])

    def run(self, client: redis.Redis) -> list:
        return READ_CACHED.run(client, [self.keys.info, self.keys.cache(self.name)])

    def parse(self, reply: list) -> Lookup:
        if reply[0] is None:
            return Lookup(None, None)
        version = int(reply[0])
        return Lookup(version, at_version(reply[1], version))


def at_version(value: bytes | None, version: int) -> bytes | None:
    """The payload of a ``b"VERSION:payload"`` cache value if it was built at ``version``."""
    if value is None:
        return None
    stamp, _, payload = value.partition(b":")
    return payload if stamp == b"%d" % version else None


def stamped(version: int, payload: bytes) -> bytes:
    """A cache value: the payload with the version it was built at (read by :func:`at_version`
    and by the scripts' ``version .. ':'`` prefix test)."""
    return b"%d:%s" % (version, payload)


# -- writes -----------------------------------------------------------------------------------


class WriteReply(NamedTuple):
    """A write script's reply: whether it ``committed``; then the shoe's new version, the
    table's write sequence number and whether the shoe is the table's current one."""

    committed: bool
    version: int
    seq: int
    current: bool


def write_reply(reply: list) -> WriteReply:
    done, version, seq, current = reply
    return WriteReply(done == 1, int(version), int(seq), current == 1)


APPEND_ROUND = Script("""
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local count = redis.call('LLEN', KEYS[3])
local meta = redis.call('HMGET', KEYS[1], 'current', 'variant')
if version ~= tonumber(ARGV[2]) or count ~= tonumber(ARGV[3]) or (meta[1] or '') ~= ARGV[4]
    or (meta[2] or 'standard') ~= ARGV[5] then
  return {0, version, count, 0}
end
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[1], 'current', ARGV[1])
  redis.call('RPUSH', KEYS[5], ARGV[1])
end
redis.call('RPUSH', KEYS[3], ARGV[7])
version = version + 1
redis.call('HSET', KEYS[2], 'version', version, 'rounds', count + 1)
redis.call('SET', KEYS[4], version .. ':' .. ARGV[8], 'EX', tonumber(ARGV[9]))
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('PUBLISH', ARGV[10], ARGV[11] .. version .. '\\31' .. 'current' .. '\\31' .. seq)
redis.call('SET', KEYS[6], seq .. ':1:' .. ARGV[12])
return {1, version, seq, 1}
""")


@dataclass(frozen=True, slots=True)
class AppendRound:
    """Append a round computed from ``head`` at ``version`` under ``variant`` (both compared);
    when ``head`` opens the shoe, it becomes the table's current shoe. The lobby update is kept
    beside the round under the table's write sequence number, so it can be handed to the lobby
    again after a crash; the variant is compared because the update's edge depends on it."""

    keys: ShoeKeys
    table: str
    head: ShoeHead
    version: int
    variant: str
    record: str
    state: bytes
    state_ttl: int
    channel: str
    lobby_update: str

    def queue(self, commands: Any) -> None:
        keys, head = self.keys, self.head
        APPEND_ROUND.queue(
            commands,
            [
                keys.table.meta,
                keys.info,
                keys.rounds,
                keys.state,
                keys.table.shoes,
                keys.table.lobby,
            ],
            [
                head.shoe,
                self.version,
                head.count,
                head.current or "",
                self.variant,
                int(head.opens),
                self.record,
                self.state,
                self.state_ttl,
                self.channel,
                message_prefix(self.table, head.shoe),
                self.lobby_update,
            ],
        )


REPLACE_ROUND = Script("""
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return {0, version, 0, 0}
end
redis.call('LSET', KEYS[2], tonumber(ARGV[2]), ARGV[3])
version = version + 1
redis.call('HSET', KEYS[1], 'version', version)
redis.call('HINCRBY', KEYS[1], 'void', tonumber(ARGV[6]))
redis.call('SET', KEYS[3], version .. ':' .. ARGV[4], 'EX', tonumber(ARGV[5]))
local current = redis.call('HGET', KEYS[4], 'current') == ARGV[9] and '1' or '0'
local seq = redis.call('HINCRBY', KEYS[4], 'seq', 1)
local flag = current == '1' and 'current' or ''
redis.call('PUBLISH', ARGV[7], ARGV[8] .. version .. '\\31' .. flag .. '\\31' .. seq)
redis.call('SET', KEYS[5], seq .. ':' .. current .. ':' .. ARGV[10])
return {1, version, seq, tonumber(current)}
""")


@dataclass(frozen=True, slots=True)
class ReplaceRound:
    """Rewrite round ``index`` (0-based) of a shoe at ``version`` (compared): a correction, or
    a void (counted in the shoe's ``void``). The lobby update is flagged 1 when the shoe is the
    table's current one (its summary is then the table's), else 0 (only its events count)."""

    keys: ShoeKeys
    table: str
    shoe: str
    version: int
    index: int
    record: str
    state: bytes
    state_ttl: int
    void: bool
    channel: str
    lobby_update: str

    def queue(self, commands: Any) -> None:
        keys = self.keys
        REPLACE_ROUND.queue(
            commands,
            [keys.info, keys.rounds, keys.state, keys.table.meta, keys.table.lobby],
            [
                self.version,
                self.index,
                self.record,
                self.state,
                self.state_ttl,
                int(self.void),
                self.channel,
                message_prefix(self.table, self.shoe),
                self.shoe,
                self.lobby_update,
            ],
        )


STORE_STATE = Script("""
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. ARGV[2], 'EX', tonumber(ARGV[3]))
return 1
""")


def store_state(client: redis.Redis, keys: ShoeKeys, version: int, state: bytes, ttl: int) -> None:
    """Cache a rebuilt scorecard state, only if the shoe is still at ``version``."""
    STORE_STATE.run(client, [keys.info, keys.state], [version, state, ttl])
