"""Redis storage: rounds are the source of truth, scorecard states and responses are caches.

Keys of one table all carry the hash tag ``{t:TABLE}`` so the service runs unchanged on Redis
Cluster (``ROADS_REDIS_CLUSTER=1``: every script and every MULTI touches one slot; lobby-wide
keys share ``{lobby}``, see :mod:`api.lobby`):

- ``{t:T}:meta``: hash of the table's ``name``, ``variant``, ``current`` shoe and ``mver``
  (metadata version);
- ``{t:T}:shoes``: list of the table's shoe ids, oldest first;
- ``{t:T}:shoe:S``: hash of the shoe's ``version`` (bumped by every change), ``rounds`` reported
  and ``void`` count;
- ``{t:T}:shoe:S:rounds``: list of round records (JSON), round n at index n-1 (no TTL: durable);
- ``{t:T}:shoe:S:state``: cached scorecard state, ``b"VERSION:" + bytes`` (with a TTL);
- ``{t:T}:shoe:S:cache:NAME``: cached response, ``b"VERSION:" + bytes`` (with a TTL);
- ``{t:T}:lobby``: the lobby update of the table's last write (see :mod:`api.lobby`).

Caches carry the version they were built at in their value and are used only when it equals the
shoe's version, so a reader never sees a mix of old rounds and a new scorecard, and anything
evicted or flushed is rebuilt from the rounds on the next read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import redis
from redis.cluster import RedisCluster

from api.coalesce import Coalescer, at_once
from api.config import Settings
from api.events import EventHub
from api.lobby import SEQ as LOBBY_SLOT
from api.lobby import Lobby, round_event, update_of
from api.localcache import LocalCache
from api.nodelink import Commands, NodeLink
from api.recentwrites import LastWrite, RecentWrites
from api.records import dumps, record_of, round_of, same_round
from api.scripts import (
    APPEND_ROUND,
    LOBBY_PUBLISH,
    READ_CACHED,
    READ_FOR_APPEND,
    READ_OR_CLAIM,
    REPLACE_ROUND,
    STORE_STATE,
    queue,
)
from api.versions import CHANNEL, SEPARATOR, VersionWatch
from roads import RoadsError, Round, Scorecard
from roads.lobby import streaks

VARIANTS = ("standard", "no_commission", "speed")
# Optimistic writes retry this often when other writers keep winning; then 503.
MAX_ATTEMPTS = 8
Entry = TypeVar("Entry")  # what Store._on_each_node groups by node


class Conflict(Exception):
    """The write does not fit the shoe as it is (409)."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotFound(Exception):
    """No such table, shoe or round (404)."""


class NotReplicated(Exception):
    """The write is on the master but not yet confirmed on enough replicas (503, retry)."""


class Contended(Exception):
    """Other writers kept changing the shoe while this write was computed (503, retry)."""


@dataclass(frozen=True)
class PendingAppend:
    """An append computed and ready for its write script: what it was computed from (``base``,
    whose scorecard now holds the round), the record and lobby update, the script's keys and
    arguments."""

    table: str
    base: LastWrite
    record: dict
    update: str
    keys: list
    args: list


@dataclass(frozen=True)
class Lookup:
    """What a read found at the shoe's current ``version``: the cached response ``body``, or,
    when there is none, whether this request ``claimed`` building it, and then the shoe's
    ``scorecard`` if its cached state was of that version (else it is to be read or rebuilt)."""

    version: int
    body: bytes | None
    claimed: bool = False
    scorecard: Scorecard | None = None


@dataclass(frozen=True)
class Scripts:
    """The write and read scripts, registered with one client (see :mod:`api.scripts`)."""

    append: Any
    replace: Any
    store_state: Any
    read_cached: Any
    read_or_claim: Any
    read_for_append: Any
    lobby_publish: Any

    @classmethod
    def on(cls, client: redis.Redis) -> Scripts:
        register = client.register_script
        return cls(
            append=register(APPEND_ROUND),
            replace=register(REPLACE_ROUND),
            store_state=register(STORE_STATE),
            read_cached=register(READ_CACHED),
            read_or_claim=register(READ_OR_CLAIM),
            read_for_append=register(READ_FOR_APPEND),
            lobby_publish=register(LOBBY_PUBLISH),
        )


@dataclass(frozen=True)
class TableKeys:
    meta: str
    shoes: str
    lobby: str

    @classmethod
    def of(cls, table: str) -> TableKeys:
        tag = f"{{t:{table}}}"
        return cls(meta=f"{tag}:meta", shoes=f"{tag}:shoes", lobby=f"{tag}:lobby")


@dataclass(frozen=True)
class ShoeKeys:
    meta: str
    shoes: str
    lobby: str
    info: str
    rounds: str
    state: str
    cache_prefix: str

    @classmethod
    def of(cls, table: str, shoe: str) -> ShoeKeys:
        tables = TableKeys.of(table)
        base = f"{{t:{table}}}:shoe:{shoe}"
        return cls(
            meta=tables.meta,
            shoes=tables.shoes,
            lobby=tables.lobby,
            info=base,
            rounds=f"{base}:rounds",
            state=f"{base}:state",
            cache_prefix=f"{base}:cache:",
        )


def connect(settings: Settings, *, blocking_seconds: float = 0) -> redis.Redis:
    """A client for the configured Redis (a ``RedisCluster`` when ``settings.cluster``), with
    short timeouts so an outage answers fast; a client for blocking reads waits
    ``blocking_seconds`` longer."""
    if settings.cluster:
        return RedisCluster.from_url(
            settings.redis_url,
            socket_timeout=settings.redis_timeout + blocking_seconds,
            socket_connect_timeout=settings.redis_timeout,
        )
    return redis.Redis.from_url(
        settings.redis_url,
        socket_timeout=settings.redis_timeout + blocking_seconds,
        socket_connect_timeout=settings.redis_timeout,
        health_check_interval=30,
    )


class Store:
    """The service's view of Redis. One per process; the client is made on first use, so a
    gunicorn master that preloads the app never shares a connection pool with its workers."""

    def __init__(
        self,
        settings: Settings,
        factory: Callable[[], redis.Redis],
        blocking_factory: Callable[[], redis.Redis] | None = None,
    ) -> None:
        self.settings = settings
        self._factory = factory
        self._connection: tuple[int, redis.Redis, Scripts] | None = None  # (pid, client, scripts)
        # Responses this process served lately, keyed by shoe version (immutable entries);
        # dropped whenever the version watch starts afresh.
        self.pictures = LocalCache()
        self.picture_urls = LocalCache()
        self.responses = LocalCache()
        self.recent_writes = RecentWrites()
        self.versions = VersionWatch(factory, on_reset=self._forget_recent)
        self.lobby = Lobby(lambda: self.client, lambda: self.scripts.lobby_publish)
        # Per process: (pid, {(node, wait): the Coalescer of the pipelines to that node}).
        self._batchers: tuple[int, dict[tuple[str, bool], Coalescer]] = (0, {})
        self._blocking_factory = blocking_factory or factory
        self._blocking: tuple[int, redis.Redis] | None = None
        self.events = EventHub(self._blocking_factory)

    def _forget_recent(self) -> None:
        self.pictures.clear()
        self.picture_urls.clear()
        self.responses.clear()

    def _connected(self) -> tuple[int, redis.Redis, Scripts]:
        if self._connection is None or self._connection[0] != os.getpid():
            client = self._factory()
            self._connection = (os.getpid(), client, Scripts.on(client))
        return self._connection

    @property
    def client(self) -> redis.Redis:
        return self._connected()[1]

    @property
    def scripts(self) -> Scripts:
        """The Lua scripts, registered with :attr:`client` (both made on first use)."""
        return self._connected()[2]

    def ping(self) -> bool:
        return bool(self.client.ping())

    # -- tables -----------------------------------------------------------------------------

    def put_table(self, table: str, name: str, variant: str) -> None:
        meta = TableKeys.of(table).meta
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(meta, mapping={"name": name, "variant": variant})
        pipe.hincrby(meta, "mver", 1)
        pipe.execute()
        self.lobby.register(table, name, variant)

    def table(self, table: str) -> dict[str, Any] | None:
        """The table's metadata and its current shoe's version and counts, or ``None``."""
        keys = TableKeys.of(table)
        meta = {k.decode(): v.decode() for k, v in self.client.hgetall(keys.meta).items()}
        if not meta:
            return None
        current = meta.get("current")
        version = rounds = void = 0
        shoes: list[str] = []
        if current is not None:
            pipe = self.client.pipeline(transaction=True)
            pipe.hmget(ShoeKeys.of(table, current).info, "version", "rounds", "void")
            pipe.lrange(keys.shoes, 0, -1)
            (version, rounds, void), shoe_ids = pipe.execute()
            version, rounds, void = (int(v or 0) for v in (version, rounds, void))
            shoes = [s.decode() for s in shoe_ids]
        return {
            "table": table,
            "name": meta.get("name", table),
            "variant": meta.get("variant", "standard"),
            "current_shoe": current,
            "version": version,
            "rounds": rounds,
            "rounds_played": rounds - void,
            "void_rounds": void,
            "shoes": shoes,
            "meta_version": int(meta.get("mver", 0)),
        }

    def variant(self, table: str) -> str:
        """The table's variant (``standard`` until it is set)."""
        return _variant(self.client.hget(TableKeys.of(table).meta, "variant"))

    def current_shoe(self, table: str) -> str | None:
        """The table's current shoe, known in this process (see :mod:`api.versions`) or read
        from Redis; ``None`` for a table without one."""
        known = self.versions.current(table)
        if known is not None:
            return known
        token = self.versions.token()
        current, seq = self.client.hmget(TableKeys.of(table).meta, "current", "seq")
        if current is None:
            return None
        self.versions.saw_current(table, current.decode(), int(seq or 0), token)
        return current.decode()

    # -- writes -----------------------------------------------------------------------------

    def append(self, table: str, shoe: str, number: int, round: Round) -> tuple[bool, dict, int]:
        """Store round ``number`` of the shoe. Returns (created, record, version): created is
        false for the identical round sent again (an idempotent retry)."""
        keys = ShoeKeys.of(table, shoe)
        token = self.versions.token()
        guess = self.recent_writes.take(table, shoe)
        for _ in range(MAX_ATTEMPTS):
            if guess is not None and number == guess.count + 1:
                base = guess  # this process's last write to the shoe (checked by the script)
            else:
                base = self._append_base(table, shoe, number, round, keys)
                if base is None:
                    continue  # the shoe moved on while we read it
                if not isinstance(base, LastWrite):
                    return base  # the identical round again
            guess = None
            pending = self._prepare_append(table, shoe, number, round, base)
            reply = self._commit(
                table,
                keys.meta,
                self.scripts.append,
                keys=pending.keys,
                args=pending.args,
                lobby_update=pending.update,
            )
            done = self._settle_append(pending, reply, token)
            if done is not None:
                return done
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    def append_many(
        self, items: Sequence[tuple[str, str, int, Round]]
    ) -> list[tuple[bool, dict, int] | Exception]:
        """Store several rounds, of any tables, in order: for each, what :meth:`append` returns
        or the exception it raises for that round (:class:`Conflict`, :class:`Contended` or a
        rules error); an unreachable Redis raises for the whole call.

        The first round of each table that this process wrote last is committed with the others
        in one round trip per Redis node, to every node at once (each write checked by its script
        as in :meth:`append`; on Redis Cluster their lobby updates follow in one more); every
        other round, and any whose check failed, then goes through :meth:`append` one by one."""
        outcomes: list[tuple[bool, dict, int] | Exception | None] = [None] * len(items)
        self._append_pipelined(items, outcomes)
        for index, (table, shoe, number, round) in enumerate(items):
            if outcomes[index] is None:
                try:
                    outcomes[index] = self.append(table, shoe, number, round)
                except (Conflict, Contended, NotFound, RoadsError) as error:
                    outcomes[index] = error
        return outcomes  # type: ignore[return-value]

    def _append_pipelined(
        self,
        items: Sequence[tuple[str, str, int, Round]],
        outcomes: list[tuple[bool, dict, int] | Exception | None],
    ) -> None:
        """Commit, in one pipeline per node (all sent at once), the first round of each table
        that plainly comes next: known from this process's last write to the shoe, or else read
        (in one pipeline per node too); fill in their outcomes (``None`` where a script found
        the shoe had moved on, or where the read found anything but a plain next round)."""
        token = self.versions.token()
        tables: set[str] = set()
        pending: list[tuple[int, PendingAppend]] = []
        unknown: list[tuple[int, str, str, int, Round]] = []
        for index, (table, shoe, number, round) in enumerate(items):
            if table in tables:
                continue  # a table's later rounds follow its first one, one by one
            tables.add(table)
            guess = self.recent_writes.take_next(table, shoe, number)
            if guess is None:
                unknown.append((index, table, shoe, number, round))
                continue
            try:
                pending.append((index, self._prepare_append(table, shoe, number, round, guess)))
            except RoadsError as error:
                self.recent_writes.keep(table, guess)  # add() left it unchanged
                outcomes[index] = error
        bases = self._read_bases([(table, shoe, number) for _, table, shoe, number, _ in unknown])
        for (index, table, shoe, number, round), base in zip(unknown, bases, strict=True):
            if base is None:
                continue
            try:
                pending.append((index, self._prepare_append(table, shoe, number, round, base)))
            except RoadsError as error:
                outcomes[index] = error
        if not pending:
            return
        cluster = isinstance(self.client, RedisCluster)
        replicated, published = [], []
        for writes, replies in self._on_each_node(
            pending, lambda entry: entry[1].keys[0], partial(self._append_filler, cluster=cluster)
        ):
            per_write = 1 if cluster else 2  # the write script, and on one server the lobby's
            for position, (index, write) in enumerate(writes):
                reply = replies[per_write * position]
                try:
                    outcomes[index] = self._settle_append(write, reply, token)
                except Conflict as error:
                    outcomes[index] = error
                if cluster and reply[0] == 1:
                    published.append((write.table, f"{reply[2]}:{reply[3]}:{write.update}"))
            if self.settings.write_replicas:
                replicated.append(replies[-1])
        self.publish_lobby(published)  # on Redis Cluster: every committed write's, in one trip
        wanted = self.settings.write_replicas
        if replicated and min(replicated) < wanted:
            raise NotReplicated(_not_replicated(min(replicated), wanted))

    def _read_bases(self, wanted: Sequence[tuple[str, str, int]]) -> list[LastWrite | None]:
        """For each ``(table, shoe, number)``, what appending that round is computed from, read
        in one round trip per node (all at once), where the round plainly comes next (see
        :func:`_plain_base`); else ``None``: :meth:`append` then reads again and answers (a
        repeat, a conflict, a rebuild from the rounds)."""
        keys = [ShoeKeys.of(table, shoe) for table, shoe, _ in wanted]
        bases: list[LastWrite | None] = [None] * len(wanted)

        def reads(positions: list[int]) -> Callable[[Any], None]:
            def fill(pipe: Any) -> None:
                for position in positions:
                    k = keys[position]
                    queue(
                        pipe, self.scripts.read_for_append, [k.meta, k.info, k.rounds, k.state], []
                    )

            return fill

        for positions, replies in self._on_each_node(
            list(range(len(wanted))), lambda position: keys[position].meta, reads, wait=False
        ):
            for position, reply in zip(positions, replies, strict=True):
                _, shoe, number = wanted[position]
                bases[position] = _plain_base(reply, shoe, number)
        return bases

    def _on_each_node(
        self,
        entries: Sequence[Entry],
        slot_key: Callable[[Entry], str],
        fill: Callable[[list[Entry]], Callable[[Any], None]],
        *,
        wait: bool = True,
    ) -> list[tuple[list[Entry], list]]:
        """``entries`` grouped by the node that holds each one's ``slot_key``, and for each group
        the replies to what ``fill(group)`` queues on a pipeline to that node (see
        :meth:`_pipelined`): every node's pipeline sent at once (:func:`~api.coalesce.at_once`),
        so the caller waits for the slowest node, not for each in turn."""
        by_node: dict[str, list[Entry]] = {}
        for entry in entries:
            by_node.setdefault(self._node_name(slot_key(entry), wait=wait), []).append(entry)
        groups = list(by_node.values())
        sends = [
            partial(self._pipelined, slot_key(group[0]), fill(group), wait=wait) for group in groups
        ]
        return list(zip(groups, at_once(sends), strict=True))

    def _append_filler(
        self, writes: list[tuple[int, PendingAppend]], *, cluster: bool
    ) -> Callable[[Any], None]:
        """What queues ``writes``' scripts on a pipeline to their node; on one Redis server
        each with the lobby step that reads the update it stores."""

        def fill(pipe: Any) -> None:
            for _, write in writes:
                queue(pipe, self.scripts.append, write.keys, write.args)
                if not cluster:
                    self.lobby.publish_stored(write.table, TableKeys.of(write.table).lobby, pipe)

        return fill

    def _prepare_append(
        self, table: str, shoe: str, number: int, round: Round, base: LastWrite
    ) -> PendingAppend:
        """Add the round to ``base``'s scorecard (in place) and make the write script's keys and
        arguments: the record, the new state and the lobby update."""
        scorecard, count, version = base.scorecard, base.count, base.version
        before = streaks(scorecard) if count else None
        scorecard.add(round)
        record = record_of(number, round, version + 1)
        events = [("round", round_event(table, shoe, version + 1, number, round))]
        if count == 0:
            events.insert(0, ("shoe", {"table": table, "shoe": shoe}))
        update = update_of(
            table, shoe, version + 1, scorecard, variant=base.variant, before=before, events=events
        )
        keys = ShoeKeys.of(table, shoe)
        return PendingAppend(
            table=table,
            base=base,
            record=record,
            update=update,
            keys=[keys.meta, keys.info, keys.rounds, keys.state, keys.shoes, keys.lobby],
            args=[
                shoe,
                version,
                count,
                dumps(record),
                scorecard.to_bytes(),
                self.settings.state_ttl,
                CHANNEL,
                _message_prefix(table, shoe),
                update,
                base.variant,
            ],
        )

    def _settle_append(
        self, write: PendingAppend, reply: list, token: int | None
    ) -> tuple[bool, dict, int] | None:
        """What the write script's ``reply`` means: the answer when it committed (this process
        then knows the new version and keeps the scorecard), :class:`Conflict` when the shoe
        was closed, ``None`` when the shoe had moved on (compute again)."""
        done, new_version, seq, _ = reply
        base, table, scorecard = write.base, write.table, write.base.scorecard
        if done == 1:
            self.versions.saw(table, base.shoe, int(new_version), token)
            self.versions.saw_current(table, base.shoe, int(seq), token)
            kept = LastWrite(base.shoe, int(new_version), base.count + 1, base.variant, scorecard)
            self.recent_writes.keep(table, kept)
            return True, write.record, int(new_version)
        if done == -1:
            current = self.current_shoe(table)
            raise Conflict(_closed(base.shoe, current or "?"), expected_round=base.count + 1)
        return None

    def _append_base(
        self, table: str, shoe: str, number: int, round: Round, keys: ShoeKeys
    ) -> LastWrite | tuple[bool, dict, int] | None:
        """What appending round ``number`` is computed from, read from Redis; or the answer to
        the identical round sent again; or ``None`` if the shoe moved on while it was read.
        Raises :class:`Conflict` when the round does not fit the shoe."""
        current, variant, version, count, state = self.scripts.read_for_append(
            keys=[keys.meta, keys.info, keys.rounds, keys.state]
        )
        version = int(version or 0)
        if number <= count:
            stored = self.client.lindex(keys.rounds, number - 1)
            if stored is not None:
                record = json.loads(stored)
                if same_round(record, round):
                    self._confirm_replicated(keys.meta)
                    # The first answer may have been lost before the lobby had it.
                    self.publish_lobby([(table, self.client.get(keys.lobby))])
                    return False, record, record["version"]
                raise Conflict(
                    f"round {number} of shoe {shoe} is already stored with a different "
                    "result; correct it with PUT .../rounds/{n}",
                    expected_round=count + 1,
                )
        if number != count + 1:
            raise Conflict(
                f"round {number} is not the next round of shoe {shoe}",
                expected_round=count + 1,
            )
        if count and current is not None and current.decode() != shoe:
            raise Conflict(_closed(shoe, current.decode()), expected_round=count + 1)
        scorecard = self._scorecard_at(keys, version, state)
        if scorecard is None:
            return None
        return LastWrite(shoe, version, count, _variant(variant), scorecard)

    def replace(self, table: str, shoe: str, number: int, round: Round) -> tuple[bool, dict, int]:
        """Correct round ``number``. Returns (changed, record, version)."""
        return self._rewrite(table, shoe, number, lambda old: round, void=False)

    def void(self, table: str, shoe: str, number: int) -> tuple[bool, dict, int]:
        """Cancel round ``number``: it stays in the history, marked, and leaves every road."""
        return self._rewrite(table, shoe, number, lambda old: old.voided(), void=True)

    def _rewrite(
        self, table: str, shoe: str, number: int, change: Callable[[Round], Round], *, void: bool
    ) -> tuple[bool, dict, int]:
        keys = ShoeKeys.of(table, shoe)
        token = self.versions.token()
        for _ in range(MAX_ATTEMPTS):
            version, records = self._records(keys)
            if version is None:
                raise NotFound(f"table {table} has no shoe {shoe}")
            if not 1 <= number <= len(records):
                raise NotFound(f"shoe {shoe} has no round {number} (it has {len(records)})")
            old = records[number - 1]
            if old["void"]:
                if void:
                    self._confirm_replicated(keys.meta)
                    self.publish_lobby([(table, self.client.get(keys.lobby))])
                    return False, old, version
                raise Conflict(f"round {number} of shoe {shoe} is void and cannot be corrected")
            rounds = [round_of(record) for record in records]
            new = change(rounds[number - 1])
            if not void and same_round(old, new):
                self._confirm_replicated(keys.meta)
                self.publish_lobby([(table, self.client.get(keys.lobby))])
                return False, old, version
            rounds[number - 1] = new
            scorecard = Scorecard.from_rounds(rounds)
            record = record_of(number, new, version + 1)
            event = round_event(table, shoe, version + 1, number, new)
            variant = self.variant(table)
            update = update_of(
                table,
                shoe,
                version + 1,
                scorecard,
                variant=variant,
                before=None,
                events=[("void" if void else "correction", event)],
            )
            done, new_version, _, current = self._commit(
                table,
                keys.meta,
                self.scripts.replace,
                keys=[keys.info, keys.rounds, keys.state, keys.meta, keys.lobby],
                args=[
                    version,
                    number - 1,
                    dumps(record),
                    scorecard.to_bytes(),
                    self.settings.state_ttl,
                    int(void),
                    CHANNEL,
                    _message_prefix(table, shoe),
                    shoe,
                    update,
                ],
                lobby_update=update,
            )
            if done == 1:
                self.versions.saw(table, shoe, int(new_version), token)
                if current == 1:
                    self.recent_writes.keep(
                        table, LastWrite(shoe, int(new_version), len(rounds), variant, scorecard)
                    )
                return True, record, int(new_version)
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    # -- replication ------------------------------------------------------------------------

    def _commit(
        self,
        table: str,
        slot_key: str,
        script: Any,
        *,
        keys: list,
        args: list,
        lobby_update: str,
    ) -> list:
        """Run a write script (its reply is ``1, version, write sequence, current`` when it
        committed) and hand the lobby update it stored, ``lobby_update``, to the lobby. With
        ``write_replicas`` set, also ``WAIT`` for that many replicas on the same connection,
        and raise :class:`NotReplicated` when they do not confirm it in time (the write stands
        on the master; the client's retry is safe).

        On one Redis server the write, the lobby step and the ``WAIT`` are one round trip (the
        lobby script reads the update from the table's key, and does nothing if the write did
        not commit). On Redis Cluster the write goes straight to the table's master, and the
        lobby, in another slot, gets the update in a second round trip. Either round trip is
        shared with the other writes this process makes at that moment (:meth:`_pipelined`)."""
        single = not isinstance(self.client, RedisCluster)
        replicas = self.settings.write_replicas

        def fill(pipe: Any) -> None:
            queue(pipe, script, keys, args)
            if single:
                self.lobby.publish_stored(table, TableKeys.of(table).lobby, pipe)

        replies = self._pipelined(slot_key, fill)
        result = replies[0]
        if replicas and result[0] == 1 and replies[-1] < replicas:
            raise NotReplicated(_not_replicated(replies[-1], replicas))
        if result[0] == 1 and not single:
            self.publish_lobby([(table, f"{result[2]}:{result[3]}:{lobby_update}")])
        return result

    def publish_lobby(self, updates: Sequence[tuple[str, bytes | str | None]]) -> None:
        """Hand committed writes' lobby updates, ``(table, "SEQ:CURRENT:JSON")`` as the write
        scripts stored them (``None``: nothing stored), to the lobby's node in one round trip
        (see :meth:`Lobby.queue_publish`)."""
        stored = [(table, update) for table, update in updates if update is not None]
        if not stored:
            return

        def fill(pipe: Any) -> None:
            for table, update in stored:
                self.lobby.queue_publish(pipe, table, update)

        self._pipelined(LOBBY_SLOT, fill, wait=False)

    def _pipelined(self, slot_key: str, fill: Callable[[Any], None], *, wait: bool = True) -> list:
        """The replies to the commands ``fill`` queues on a pipeline to the master of
        ``slot_key``, with the count of ``WAIT`` last when writes must reach replicas (unless not
        to ``wait``).

        Calls made at once to one node share one pipeline (group commit, :mod:`api.coalesce`):
        under load a worker has several writes in flight, and a round trip's fixed cost in the
        client is then paid once for all of them. A call made while nothing is in flight to that
        node goes at once. Each node's batcher sends on a connection of its own
        (:mod:`api.nodelink`), not one borrowed from the pool for every pipeline."""
        client = self._write_client(wait)
        node = _node_of(client, slot_key)
        pid, batchers = self._batchers
        if pid != os.getpid():
            batchers = {}
            self._batchers = (os.getpid(), batchers)
        # Keyed by the node as the client that sends sees it: once that client learns that a
        # master moved, the slot's writes go to a new batcher, with a link to the new master.
        key = (node.name if node else "", wait)
        batcher = batchers.get(key)
        if batcher is None:
            link = NodeLink(client.get_redis_connection(node) if node else client)
            replicas = self.settings.write_replicas if wait else 0
            send = partial(self._send_pipeline, link=link, replicas=replicas)
            batcher = batchers.setdefault(key, Coalescer(send))
        return batcher.call((slot_key, fill))

    def _node_name(self, slot_key: str, *, wait: bool) -> str:
        """The Redis Cluster node that holds ``slot_key`` now, as the client that
        :meth:`_pipelined` sends with sees it (``""`` for one Redis server)."""
        node = _node_of(self._write_client(wait), slot_key)
        return node.name if node else ""

    def _send_pipeline(
        self, calls: Sequence[tuple[str, Callable[[Any], None]]], *, link: NodeLink, replicas: int
    ) -> list[list]:
        """One pipeline on ``link`` (to one node) holding the commands of every call, ``(slot
        key, fill)``, with ``WAIT`` for ``replicas`` last when there are any (``link`` is then a
        connection of the client whose timeout outlasts the wait); each call's replies, the
        ``WAIT`` count last. After a ``NOSCRIPT`` the scripts are loaded and the pipeline is sent
        again, once."""
        commands = Commands()
        counts = []
        for _, fill in calls:
            queued = len(commands)
            fill(commands)
            counts.append(len(commands) - queued)
        if replicas:
            commands.execute_command("WAIT", replicas, self.settings.write_wait_ms)
        for attempt in range(2):
            try:
                replies = self._execute_on_node(link, commands.queued)
            except redis.exceptions.NoScriptError:
                if attempt:
                    raise
                self._load_scripts()
                continue
            waited = [replies[-1]] if replicas else []
            each, start = [], 0
            for count in counts:
                each.append(replies[start : start + count] + waited)
                start += count
            return each
        raise AssertionError("unreachable: the second attempt returns or raises")

    def _load_scripts(self) -> None:
        """Load every script (on every master of a cluster), after a ``NOSCRIPT``."""
        for script in vars(self.scripts).values():
            self.client.script_load(script.script)

    def _confirm_replicated(self, slot_key: str) -> None:
        """Before answering a repeated write as done: make sure what is stored reached the
        replicas. A marker write on the table's slot is sent and waited for; replication is in
        order, so once a replica has it, it has every earlier write of that master too."""
        if not self.settings.write_replicas:
            return
        replies = self._pipelined(
            slot_key, lambda commands: commands.execute_command("HINCRBY", slot_key, "syncs", 1)
        )
        replicas = replies[-1]
        if replicas < self.settings.write_replicas:
            raise NotReplicated(_not_replicated(replicas, self.settings.write_replicas))

    def _write_client(self, wait: bool) -> redis.Redis:
        """The client the pipelines go through; for those that ``wait`` for replicas (``WAIT``
        counts the writes of its own connection), one whose timeout outlasts the wait."""
        if not (wait and self.settings.write_replicas):
            return self.client
        if self._blocking is None or self._blocking[0] != os.getpid():
            self._blocking = (os.getpid(), self._blocking_factory())
        return self._blocking[1]

    def _execute_on_node(self, link: NodeLink, commands: Sequence[tuple[Any, ...]]) -> list:
        """The replies of one round trip to ``link``'s node; on Redis Cluster, a failure of the
        node makes the client learn the cluster's shape again."""
        try:
            return link.execute(commands)
        except redis.exceptions.NoScriptError:
            raise
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
            for client in (self.client, self._blocking[1] if self._blocking else None):
                if isinstance(client, RedisCluster):
                    # The node may have failed over: learn the cluster's shape again.
                    client.nodes_manager.initialize()
            if isinstance(self.client, RedisCluster):
                raise redis.ConnectionError("a Redis Cluster master moved; retry") from None
            raise

    # -- reads ------------------------------------------------------------------------------

    def history(self, table: str, shoe: str) -> tuple[int, list[dict]]:
        version, records = self._records(ShoeKeys.of(table, shoe))
        if version is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        return version, records

    def cached(self, table: str, shoe: str, name: str) -> tuple[int, bytes | None]:
        """The shoe's version and the cached response ``name`` if it was built at that version.
        Raises :class:`NotFound` for an unknown shoe."""
        keys = ShoeKeys.of(table, shoe)
        token = self.versions.token()
        version, cached = self._read(
            self.scripts.read_cached, [keys.info, keys.cache_prefix + name]
        )
        if version is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        self.versions.saw(table, shoe, int(version), token)
        return int(version), _at_version(cached, int(version))

    def look_up(self, table: str, shoe: str, name: str, claim_ms: int) -> Lookup:
        """The shoe's version and the cached response ``name`` built at that version, or the
        claim to build it (for ``claim_ms``, unless another request holds it) with the
        scorecard to build it from: one round trip. Raises :class:`NotFound` for an unknown
        shoe."""
        keys = ShoeKeys.of(table, shoe)
        token = self.versions.token()
        reply = self._read(
            self.scripts.read_or_claim,
            [keys.info, keys.cache_prefix + name, _claim_key(keys, name), keys.state],
            [claim_ms],
        )
        if reply[0] is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        version = int(reply[0])
        self.versions.saw(table, shoe, version, token)
        if len(reply) == 2:
            return Lookup(version, _at_version(reply[1], version))
        if reply[2] != 1:
            return Lookup(version, None)
        state = _at_version(reply[3], version)
        scorecard = Scorecard.from_bytes(state) if state is not None else None
        return Lookup(version, None, claimed=True, scorecard=scorecard)

    def _read(self, script: Any, keys: list, args: Sequence = ()) -> Any:
        """A read script's reply (see :meth:`_unwaited`)."""
        return self._unwaited(
            keys[0],
            lambda commands: queue(commands, script, keys, list(args)),
            lambda: script(keys=keys, args=list(args)),
        )

    def _unwaited(
        self, slot_key: str, fill: Callable[[Any], None], routed: Callable[[], Any]
    ) -> Any:
        """The reply to the one command ``fill`` queues (a read, or a cache write): sent like
        the writes (:meth:`_pipelined`) but without ``WAIT``, in one round trip with whatever
        else is in flight to the node at that moment, on the connection held for it. On Redis
        Cluster, should that fail because the cluster changed shape (a failover, a moved slot),
        the command is made once more as ``routed``, through the cluster client's own routing,
        which follows the change."""
        try:
            return self._pipelined(slot_key, fill, wait=False)[0]
        except redis.ConnectionError:
            if not isinstance(self.client, RedisCluster):
                raise
            return routed()

    def release_claim(self, table: str, shoe: str, name: str) -> None:
        """Give up a claim :meth:`look_up` took (the request answered without building)."""
        self.client.delete(_claim_key(ShoeKeys.of(table, shoe), name))

    def version(self, table: str, shoe: str) -> int:
        """The shoe's current version, known in this process (see :mod:`api.versions`) or read
        from Redis; raises :class:`NotFound` for an unknown shoe."""
        known = self.versions.get(table, shoe)
        if known is not None:
            return known
        token = self.versions.token()
        version = self.client.hget(ShoeKeys.of(table, shoe).info, "version")
        if version is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        self.versions.saw(table, shoe, int(version), token)
        return int(version)

    def put_cached(self, table: str, shoe: str, name: str, version: int, body: bytes) -> None:
        key = ShoeKeys.of(table, shoe).cache_prefix + name
        value, ttl = b"%d:%s" % (version, body), self.settings.cache_ttl
        # A cache: lost with its node at worst, and rebuilt; no wait for replicas.
        self._unwaited(
            key,
            lambda commands: commands.execute_command("SET", key, value, "EX", ttl),
            lambda: self.client.set(key, value, ex=ttl),
        )

    def scorecard(self, table: str, shoe: str) -> tuple[int, Scorecard]:
        """The shoe's current version and scorecard, from the cached state or rebuilt from the
        rounds (and cached again) when the state is missing or older."""
        keys = ShoeKeys.of(table, shoe)
        for _ in range(MAX_ATTEMPTS):
            pipe = self.client.pipeline(transaction=True)
            pipe.hget(keys.info, "version")
            pipe.get(keys.state)
            version, state = pipe.execute()
            if version is None:
                raise NotFound(f"table {table} has no shoe {shoe}")
            scorecard = self._scorecard_at(keys, int(version), state)
            if scorecard is not None:
                return int(version), scorecard
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    def _scorecard_at(self, keys: ShoeKeys, version: int, state: bytes | None) -> Scorecard | None:
        """The scorecard at ``version``: the cached state if it is of that version, else rebuilt
        from the rounds; ``None`` if the shoe is no longer at that version."""
        if version == 0:
            return Scorecard.from_rounds([])  # every write raises the version: no rounds yet
        cached = _at_version(state, version)
        if cached is not None:
            return Scorecard.from_bytes(cached)
        current, records = self._records(keys)
        if (current or 0) != version:
            return None
        scorecard = Scorecard.from_rounds([round_of(record) for record in records])
        if records:
            self.scripts.store_state(
                keys=[keys.info, keys.state],
                args=[version, scorecard.to_bytes(), self.settings.state_ttl],
            )
        return scorecard

    def _records(self, keys: ShoeKeys) -> tuple[int | None, list[dict]]:
        pipe = self.client.pipeline(transaction=True)
        pipe.hget(keys.info, "version")
        pipe.lrange(keys.rounds, 0, -1)
        version, records = pipe.execute()
        return (int(version) if version is not None else None), [json.loads(r) for r in records]


def _node_of(client: redis.Redis, slot_key: str) -> Any:
    """The Redis Cluster node that holds ``slot_key`` as ``client`` sees it now (``None`` for
    one Redis server)."""
    return client.get_node_from_key(slot_key) if isinstance(client, RedisCluster) else None


def _plain_base(reply: list, shoe: str, number: int) -> LastWrite | None:
    """What appending round ``number`` is computed from, given what :data:`READ_FOR_APPEND`
    read, when it plainly comes next: the shoe's next round, the table's current shoe (or a new
    one), its cached state current (or no round yet); else ``None``."""
    current, variant, version, count, state = reply
    version = int(version or 0)
    if number != count + 1 or (count and current is not None and current.decode() != shoe):
        return None
    if version == 0:
        return LastWrite(shoe, 0, count, _variant(variant), Scorecard.from_rounds([]))
    cached = _at_version(state, version)
    if cached is None:
        return None
    return LastWrite(shoe, version, count, _variant(variant), Scorecard.from_bytes(cached))


def _at_version(value: bytes | None, version: int) -> bytes | None:
    """The payload of a ``b"VERSION:payload"`` cache value if it was built at ``version``."""
    if value is None:
        return None
    stamp, _, payload = value.partition(b":")
    return payload if stamp == b"%d" % version else None


def _claim_key(keys: ShoeKeys, name: str) -> str:
    return f"{keys.cache_prefix}claim:{name}"


def _not_replicated(replicas: int, wanted: int) -> str:
    return (
        f"the write is stored but only {replicas} of {wanted} replicas confirmed it in time; "
        "retry (the retry is answered once it is replicated)"
    )


def _variant(stored: bytes | None) -> str:
    return stored.decode() if stored is not None else "standard"


def _message_prefix(table: str, shoe: str) -> str:
    return f"{table}{SEPARATOR}{shoe}{SEPARATOR}"


def _closed(shoe: str, current: str) -> str:
    return f"shoe {shoe} is closed: the table's current shoe is {current}"
