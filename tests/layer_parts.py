"""The storage and write layers' own objects on the tests' Redis, wired as
:meth:`api.services.Services.build` wires them, without the Flask app: the transport, the keyspace,
the shoe states, the rounds store, the tables, the read cache and the writer.

The shoe versions this process knows are :class:`Known`, a plain record of what the storage layer
reported (its :class:`~api.storage.known.KnownVersions` interface): the live version watch, which
also hears other processes' writes over pub/sub, is the live layer's and is not needed here.
"""

from __future__ import annotations

from dataclasses import dataclass

from api.config import Settings
from api.storage.clients import RedisClients, database_of
from api.storage.keys import Keyspace
from api.storage.lobbystore import Lobby
from api.storage.memo import Memo
from api.storage.readcache import ReadCache
from api.storage.rounds import RoundStore
from api.storage.states import ShoeStates
from api.storage.tables import Tables
from api.storage.transport import Transport
from api.storage.writelog import clock
from api.writes.writer import Writer

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
    keys: Keyspace
    transport: Transport
    versions: Known
    states: ShoeStates
    rounds: RoundStore
    tables: Tables
    lobby: Lobby
    reads: ReadCache
    writer: Writer


def build_parts(
    backend, *, logged: bool = False, answers_bytes: int = ANSWERS_BYTES, **overrides
) -> Parts:
    """The layers' objects on ``backend`` (a :class:`tests.conftest.Backend`). ``logged``: the
    write scripts log each write for the record (its clock on) with no database behind it;
    ``overrides``: settings. The integrity watch is off, and so are the tiles' chances."""
    settings = Settings(redis_url=backend.url, cluster=backend.cluster, **overrides)
    keys = Keyspace.of(settings.namespace, database_of(settings))
    transport = Transport(settings, RedisClients.of(settings, patience=1.0))
    versions = Known()
    states = ShoeStates(transport, keys, settings.state_ttl)
    at = clock(logged)
    rounds = RoundStore(transport, keys, versions, states, state_ttl=settings.state_ttl, clock=at)
    lobby = Lobby(transport, keys.lobby)
    tables = Tables(transport, keys, versions, lobby, at)
    reads = ReadCache(
        transport,
        keys,
        versions,
        states,
        memo=Memo(answers_bytes),
        cache_ttl=settings.cache_ttl,
        wait_seconds=0.3,
    )
    return Parts(
        settings,
        keys,
        transport,
        versions,
        states,
        rounds,
        tables,
        lobby,
        reads,
        Writer(rounds, tables),
    )
