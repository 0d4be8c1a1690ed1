"""The Lua scripts of a shoe's writes, each with the one Python wrapper that calls it (named as
the script is: ``APPEND_ROUND`` by :class:`AppendRound`), and the read a write is computed from.
Each script is a ``.lua`` file beside this module whose header names its keys and arguments
(:mod:`api.storage.luascript`); a wrapper holds the call's named arguments and ``queue``s the call
on a pipeline; a write's reply is read by :func:`write_reply`. What a write logs for the record
is written by the functions of :mod:`api.codecs.writelog`'s Lua side, one per kind.

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

import redis

from api.codecs import lobbyupdate, roundfacts, stamps, versionmessage, writelog
from api.storage.keys import ShoeKeys, TableKeys
from api.storage.luascript import Script
from roads.shoe import ShoeHead

READ_FOR_APPEND = Script(__package__, "read_for_append.lua")


@dataclass(frozen=True, slots=True)
class ReadForAppend:
    """What an append is computed from, read at one instant in one command: the table's
    current shoe and variant, the shoe's version, its round count and its cached state."""

    keys: ShoeKeys

    def queue(self, commands: Any) -> None:
        READ_FOR_APPEND.queue(commands, **self._named())

    def run(self, client: redis.Redis) -> list:
        """The read alone through ``client`` (its own routing on a cluster)."""
        return READ_FOR_APPEND.run(client, **self._named())

    def _named(self) -> dict[str, str]:
        keys = self.keys
        return {
            "meta_key": keys.table.meta,
            "info_key": keys.info,
            "rounds_key": keys.rounds,
            "state_key": keys.state,
        }

    def parse(self, reply: list) -> AppendBase:
        current, variant, version, count, state, pending, waiting = reply
        return AppendBase(
            current.decode() if current is not None else None,
            variant.decode() if variant is not None else "standard",
            int(version or 0),
            count,
            state,
            pending,
            waiting.decode() if waiting is not None else None,
        )


class AppendBase(NamedTuple):
    current: str | None
    variant: str  # the pay table in force
    version: int
    count: int
    state: bytes | None  # stamped with any version (api.codecs.stamps)
    pending: bytes | None = None  # cards burned before a shoe's first round (api.codecs.roundfacts)
    waiting: str | None = None  # the pay table waiting for the next shoe

    def head(self, shoe: str) -> ShoeHead:
        return ShoeHead(shoe, self.count, self.current)

    def priced_under(self, shoe: str) -> str:
        """The pay table ``shoe``'s next round is priced under: the one waiting for the next
        shoe from a shoe's first round (which puts it in force), else the one in force."""
        if self.waiting is not None and self.head(shoe).opens:  # as append_round.lua decides
            return self.waiting
        return self.variant

    def burned_before(self, shoe: str) -> roundfacts.BurnedBefore:
        """The cards burned before ``shoe``'s first round, when that round is the next."""
        if self.count:
            return roundfacts.NONE_BURNED
        return roundfacts.burned_before(self.pending, shoe)


class WriteReply(NamedTuple):
    """A write script's reply: whether it ``committed``; then the shoe's new version, the
    table's write sequence number and whether the shoe is the table's current one; for an
    append refused because its game id is another round's, that round's place (``SHOE:N``,
    :func:`api.codecs.roundfacts.read_place`)."""

    committed: bool
    version: int
    seq: int
    current: bool
    game_taken: str | None = None


def write_reply(reply: list) -> WriteReply:
    done, version, seq, current, *taken = reply
    place = taken[0].decode() if taken else None
    return WriteReply(done == 1, int(version), int(seq), current == 1, place)


APPEND_ROUND = Script(
    __package__,
    "append_round.lua",
    uses=[stamps.LUA, versionmessage.LUA, lobbyupdate.LUA, writelog.LUA, roundfacts.LUA],
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
    game_id: str = ""  # the round's game id ("" for none)
    burned_before: str = ""  # the cards burned before the shoe it opens, as the meta kept them

    def queue(self, commands: Any) -> None:
        keys, head = self.keys, self.head
        APPEND_ROUND.queue(
            commands,
            meta_key=keys.table.meta,
            info_key=keys.info,
            rounds_key=keys.rounds,
            state_key=keys.state,
            shoes_key=keys.table.shoes,
            lobby_update_key=keys.table.lobby_update,
            log_key=keys.table.log,
            games_key=keys.table.games,
            shoe=head.shoe,
            base_version=self.version,
            base_count=head.count,
            base_current=head.current or "",
            base_variant=self.variant,
            opens=int(head.opens),
            record=self.record,
            state=self.state,
            state_ttl=self.state_ttl,
            channel=self.channel,
            table_id=self.table,
            lobby_update=self.lobby_update,
            at=self.at,
            by=self.by,
            game_id=self.game_id,
            burned_before=self.burned_before,
        )


REPLACE_ROUND = Script(
    __package__,
    "replace_round.lua",
    uses=[stamps.LUA, versionmessage.LUA, lobbyupdate.LUA, writelog.LUA],
)


@dataclass(frozen=True, slots=True)
class ReplaceRound:
    """Rewrite round ``index`` (0-based) of a shoe at ``version`` (compared): a correction, a
    void (counted in the shoe's ``void``), or a burn (the round kept, the cards burned after it
    added to its record). The lobby update is flagged current when the shoe is
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
    kind: str  # "correction", "void" (counted in the shoe's voids) or "burn"
    channel: str
    lobby_update: str
    at: str  # see AppendRound
    by: str = ""  # see AppendRound

    def queue(self, commands: Any) -> None:
        keys = self.keys
        REPLACE_ROUND.queue(
            commands,
            info_key=keys.info,
            rounds_key=keys.rounds,
            state_key=keys.state,
            meta_key=keys.table.meta,
            lobby_update_key=keys.table.lobby_update,
            log_key=keys.table.log,
            base_version=self.version,
            index=self.index,
            record=self.record,
            state=self.state,
            state_ttl=self.state_ttl,
            kind=self.kind,
            channel=self.channel,
            table_id=self.table,
            shoe=self.shoe,
            lobby_update=self.lobby_update,
            at=self.at,
            by=self.by,
        )


STORE_STATE = Script(__package__, "store_state.lua", uses=[stamps.LUA])

RETIRE_TABLE = Script(__package__, "retire_table.lua", uses=[versionmessage.LUA, writelog.LUA])


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

    def named(self) -> dict[str, Any]:
        """The script's keys and arguments by the names its header binds."""
        keys = self.table_keys
        return {
            "meta_key": keys.meta,
            "shoes_key": keys.shoes,
            "log_key": keys.log,
            "info_keys": self.shoe_info,
            "channel": self.channel,
            "table_id": self.table,
            "at": self.at,
            "by": self.by,
            "shoes": self.shoes,
        }

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


PUT_TABLE = Script(__package__, "put_table.lua", uses=[writelog.LUA])
STUDIO_LOG = Script(__package__, "studio_log.lua", uses=[writelog.LUA])
KEEP_BURNED = Script(__package__, "keep_burned.lua")
