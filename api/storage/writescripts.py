"""The Lua scripts of a shoe's writes, each with the one Python wrapper that calls it (named as
the script is: ``APPEND_ROUND`` by :class:`AppendRound`), and the read a write is computed from.
A wrapper holds the call's named arguments and ``queue``s the call on a pipeline; a write's reply
is read by :func:`write_reply`.

Every write script compares what its plan was computed from (the shoe's version and round count,
the table's current shoe and variant) with what is stored, and sets the new state only when they
are equal: an atomic compare-and-set. Which round may come next is decided above, by the writer
(:mod:`api.writes`); a script that finds the shoe moved on changes nothing, and the writer reads
again and decides again. Every key a script touches arrives in KEYS and shares the table's hash
tag, so each runs on one Redis Cluster slot. A write also brings a retired table back
(:data:`RETIRE_TABLE`): it clears the table's ``retired`` mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from api.codecs import lobbyupdate, stamps, versionmessage, writelog
from api.storage.keys import ShoeKeys, TableKeys
from api.storage.scripts import InlineScript as Script
from roads.shoe import ShoeHead

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
        READ_FOR_APPEND.queue(commands, self.key_list, [])

    @property
    def key_list(self) -> list[str]:
        keys = self.keys
        return [keys.table.meta, keys.info, keys.rounds, keys.state]

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
    state: bytes | None  # stamped with any version (api.codecs.stamps)

    def head(self, shoe: str) -> ShoeHead:
        return ShoeHead(shoe, self.count, self.current)


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


APPEND_ROUND = Script(
    """
local version = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
local count = redis.call('LLEN', KEYS[3])
local meta = redis.call('HMGET', KEYS[1], 'current', 'variant')
if version ~= tonumber(ARGV[2]) or count ~= tonumber(ARGV[3]) or (meta[1] or '') ~= ARGV[4]
    or (meta[2] or 'standard') ~= ARGV[5] then
  return {0, version, count, 0}
end
-- The round first: Redis at its maxmemory refuses a script's first write that may grow memory,
-- and only its first, so no other write may come before it (HDEL would not be refused).
redis.call('RPUSH', KEYS[3], ARGV[7])
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[1], 'current', ARGV[1])
  redis.call('RPUSH', KEYS[5], ARGV[1])
end
redis.call('HDEL', KEYS[1], 'retired')
version = version + 1
redis.call('HSET', KEYS[2], 'version', version, 'rounds', count + 1)
redis.call('SET', KEYS[4], stamped(version, ARGV[8]), 'EX', tonumber(ARGV[9]))
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('PUBLISH', ARGV[10], version_message(ARGV[11], ARGV[1], version, true, seq))
redis.call('SET', KEYS[6], stored_update(seq, true, ARGV[12]))
log_write(KEYS[1], KEYS[7], ARGV[13], ARGV[14], {'kind', 'round', 'shoe', ARGV[1],
  'number', count + 1, 'version', version, 'record', ARGV[7], 'opens', ARGV[6]})
return {1, version, seq, 1}
""",
    uses=[stamps.LUA, versionmessage.LUA, lobbyupdate.LUA, writelog.LUA],
)


@dataclass(frozen=True, slots=True)
class AppendRound:
    """Append a round computed from ``head`` at ``version`` under ``variant`` (all compared);
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
    at: str  # when, for the record's log (milliseconds; "" while the record is off)
    by: str = ""  # the name of the key that made the write, for the record's log

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
                keys.table.lobby_update,
                keys.table.log,
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
                self.table,
                self.lobby_update,
                self.at,
                self.by,
            ],
        )


REPLACE_ROUND = Script(
    """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return {0, version, 0, 0}
end
redis.call('LSET', KEYS[2], tonumber(ARGV[2]), ARGV[3])  -- first: see APPEND_ROUND
redis.call('HDEL', KEYS[4], 'retired')
version = version + 1
redis.call('HSET', KEYS[1], 'version', version)
redis.call('HINCRBY', KEYS[1], 'void', tonumber(ARGV[6]))
redis.call('SET', KEYS[3], stamped(version, ARGV[4]), 'EX', tonumber(ARGV[5]))
local current = redis.call('HGET', KEYS[4], 'current') == ARGV[9]
local seq = redis.call('HINCRBY', KEYS[4], 'seq', 1)
redis.call('PUBLISH', ARGV[7], version_message(ARGV[8], ARGV[9], version, current, seq))
redis.call('SET', KEYS[5], stored_update(seq, current, ARGV[10]))
log_write(KEYS[4], KEYS[6], ARGV[11], ARGV[12], {'kind', ARGV[6] == '1' and 'void' or 'correction',
  'shoe', ARGV[9], 'number', tonumber(ARGV[2]) + 1, 'version', version, 'record', ARGV[3]})
return {1, version, seq, current and 1 or 0}
""",
    uses=[stamps.LUA, versionmessage.LUA, lobbyupdate.LUA, writelog.LUA],
)


@dataclass(frozen=True, slots=True)
class ReplaceRound:
    """Rewrite round ``index`` (0-based) of a shoe at ``version`` (compared): a correction, or
    a void (counted in the shoe's ``void``). The lobby update is flagged current when the shoe is
    the table's current one (its summary is then the table's), else not (only its events
    count)."""

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
    at: str  # see AppendRound
    by: str = ""  # see AppendRound

    def queue(self, commands: Any) -> None:
        keys = self.keys
        REPLACE_ROUND.queue(
            commands,
            [
                keys.info,
                keys.rounds,
                keys.state,
                keys.table.meta,
                keys.table.lobby_update,
                keys.table.log,
            ],
            [
                self.version,
                self.index,
                self.record,
                self.state,
                self.state_ttl,
                int(self.void),
                self.channel,
                self.table,
                self.shoe,
                self.lobby_update,
                self.at,
                self.by,
            ],
        )


STORE_STATE = Script(
    """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('SET', KEYS[2], stamped(ARGV[1], ARGV[2]), 'EX', tonumber(ARGV[3]))
return 1
""",
    uses=[stamps.LUA],
)


# KEYS: the table's meta, its shoe list, its log, then the info key of each shoe in the list.
# ARGV: the version channel, the table, the log's ``at`` and ``by``, then each shoe id in the
# list's order.
# Returns {0} for an unknown table; {2} when the list is no longer the one passed (read it
# again); {1} when it was retired already; else {1, shoe, version, ...} of each shoe raised (a
# shoe that has left Redis for the record is not raised: it has no cached answers).
RETIRE_TABLE = Script(
    """
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {0}
end
if redis.call('LLEN', KEYS[2]) ~= #KEYS - 3 then
  return {2}
end
if redis.call('HSETNX', KEYS[1], 'retired', '1') == 0 then
  return {1}
end
local current = redis.call('HGET', KEYS[1], 'current')
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local reply = {1}
local raised = {}
for i = 4, #KEYS do
  local shoe = ARGV[i + 1]
  if redis.call('EXISTS', KEYS[i]) == 1 then
    local version = redis.call('HINCRBY', KEYS[i], 'version', 1)
    redis.call('PUBLISH', ARGV[1], version_message(ARGV[2], shoe, version, shoe == current, seq))
    reply[#reply + 1] = shoe
    reply[#reply + 1] = version
    raised[#raised + 1] = shoe .. '=' .. version
  end
end
log_write(KEYS[1], KEYS[3], ARGV[3], ARGV[4],
  {'kind', 'retire', 'versions', table.concat(raised, ',')})
return reply
""",
    uses=[versionmessage.LUA, writelog.LUA],
)


@dataclass(frozen=True, slots=True)
class RetireTable:
    """Mark a table ``retired`` and raise the version of each of its ``shoes`` (each published
    as a write's is): every answer cached or kept in memory for a shoe was built at a version
    before the mark, so none is served again, and every read of it finds the mark (a 404 naming
    the archive). Nothing else changes: the rounds stay, and the next write to the table clears
    the mark (it is back). Retiring a retired table changes nothing."""

    table_keys: TableKeys
    shoe_info: list[str]  # the info key of each shoe, in the table's list order
    shoes: list[str]
    channel: str
    table: str
    at: str  # see AppendRound
    by: str = ""  # see AppendRound

    @property
    def key_list(self) -> list[str]:
        keys = self.table_keys
        return [keys.meta, keys.shoes, keys.log, *self.shoe_info]

    @property
    def args(self) -> list[str]:
        return [self.channel, self.table, self.at, self.by, *self.shoes]

    @staticmethod
    def parse(reply: list) -> Retiring | None:
        """What retiring found, or ``None`` when the shoe list changed meanwhile."""
        if reply[0] == 2:
            return None
        raised = reply[1:]
        pairs = [(raised[i].decode(), int(raised[i + 1])) for i in range(0, len(raised), 2)]
        return Retiring(found=reply[0] == 1, versions=pairs)


class Retiring(NamedTuple):
    """What retiring found: whether the table exists, and the versions its shoes were raised
    to (none when it was retired already)."""

    found: bool
    versions: list[tuple[str, int]]


# KEYS: the table's meta, its log.  ARGV: name, variant, the log's ``at`` and ``by``.
PUT_TABLE = Script(
    """
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'variant', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'mver', 1)
redis.call('HDEL', KEYS[1], 'retired')
log_write(KEYS[1], KEYS[2], ARGV[3], ARGV[4],
  {'kind', 'table', 'name', ARGV[1], 'variant', ARGV[2]})
return 1
""",
    uses=[writelog.LUA],
)
