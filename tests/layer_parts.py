"""The storage, write and record layers' own objects on the tests' Redis (and PostgreSQL), wired
as :meth:`api.services.Services.build` wires them, without the Flask app: the transport, the
keyspace, the shoe states, the rounds store, the tables, the read cache, the writer, the integrity
watch's store and, given a database, the record (:meth:`api.record.service.Record.build`: the
recorder, the record's reads, the shoes that leave Redis for it).

The shoe versions this process knows are :class:`Known`, a plain record of what the storage layer
reported (its :class:`~api.storage.known.KnownVersions` interface): the live version watch, which
also hears other processes' writes over pub/sub, is the live layer's and is not needed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from api.config import Settings
from api.record.recorder import Recorder
from api.record.service import Record
from api.storage.clients import RedisClients, database_of
from api.storage.integrity.watchapply import IntegrityApply
from api.storage.integrity.watchstore import IntegrityStore
from api.storage.keys import Keyspace
from api.storage.lobbystore import Lobby
from api.storage.memo import Memo
from api.storage.paytablestore import PayTableStore
from api.storage.readcache import ReadCache
from api.storage.rounds import RoundStore
from api.storage.states import ShoeStates
from api.storage.tables import Tables
from api.storage.transport import Transport
from api.storage.writelog import clock
from api.writes.writer import Writer
from roads.integrity.shoewatch import WatchSettings
from roads.integrity.sidebets import ClosePolicy

# The read cache's memory in the app (api/services.py); a test of the bound passes its own.
ANSWERS_BYTES = 64 * 1024 * 1024


class Known:
    """Shoe versions and current shoes as the storage layer reported them, always trusted (as
    the version watch is while its subscription is healthy)."""

    def __init__(self) -> None:
        self.versions: dict[tuple[str, str], int] = {}
        self.currents: dict[str, tuple[int, str]] = {}

    def get(self, table: str, shoe: str) -> int | None:
        return self.versions.get((table, shoe))

    def current(self, table: str) -> str | None:
        known = self.currents.get(table)
        return known[1] if known is not None else None

    def token(self) -> int | None:
        return 0

    def token_if_following(self) -> int | None:
        return 0

    def saw(self, table: str, shoe: str, version: int, token: int | None) -> None:
        if version > self.versions.get((table, shoe), -1):
            self.versions[(table, shoe)] = version

    def saw_current(self, table: str, shoe: str, seq: int, token: int | None) -> None:
        known = self.currents.get(table)
        if known is None or seq > known[0]:
            self.currents[table] = (seq, shoe)


@dataclass(frozen=True)
class Parts:
    settings: Settings
    clients: RedisClients
    keys: Keyspace
    transport: Transport
    versions: Known
    states: ShoeStates
    rounds: RoundStore
    tables: Tables
    lobby: Lobby
    reads: ReadCache
    writer: Writer
    integrity: IntegrityStore
    record: Record | None  # with a database_url only

    @property
    def recorder(self) -> Recorder:
        assert self.record is not None, "built without a database_url"
        return self.record.recorder

    def close(self) -> None:
        """Close the record's pool (the connections to Redis go with the process)."""
        if self.record is not None:
            self.record.database.close()


def build_parts(
    backend,
    *,
    logged: bool = False,
    watched: bool = False,
    answers_bytes: int = ANSWERS_BYTES,
    **overrides,
) -> Parts:
    """The layers' objects on ``backend`` (a :class:`tests.conftest.Backend`). ``logged``: the
    write scripts log each write for the record (its clock on) with no database behind it;
    ``database_url`` (among ``overrides``, the settings): the record on, on that database, and
    every write logged; ``watched``: the integrity watch on (off otherwise, as are the tiles'
    chances)."""
    settings = Settings(
        redis_url=backend.url, cluster=backend.cluster, integrity=watched, **overrides
    )
    clients = RedisClients.of(settings, patience=1.0)
    keys = Keyspace.of(settings.namespace, database_of(settings))
    transport = Transport(settings, clients)
    versions = Known()
    record = Record.build(settings, transport, keys) if settings.recording else None
    cold = record.cold if record is not None else None
    states = ShoeStates(transport, keys, settings.state_ttl, cold)
    at = clock(logged or settings.recording)
    apply = (
        IntegrityApply(keys.integrity, settings.integrity_index, settings.recording)
        if watched
        else None
    )
    rounds = RoundStore(
        transport,
        keys,
        versions,
        states,
        state_ttl=settings.state_ttl,
        clock=at,
        integrity=apply,
    )
    lobby = Lobby(transport, keys.lobby)
    tables = Tables(
        transport, keys, versions, lobby, at, PayTableStore(transport, keys.lobby), cold
    )
    reads = ReadCache(
        transport,
        keys,
        versions,
        states,
        memo=Memo(answers_bytes),
        cache_ttl=settings.cache_ttl,
        wait_seconds=0.3,
    )
    watch = (
        WatchSettings(
            behind=settings.cut_card_behind,
            close=ClosePolicy.parse(settings.side_bets_close_after),
        )
        if watched
        else None
    )
    return Parts(
        settings,
        clients,
        keys,
        transport,
        versions,
        states,
        rounds,
        tables,
        lobby,
        reads,
        Writer(rounds, tables, watch=watch),
        IntegrityStore(transport, keys.integrity),
        record,
    )
