"""Every Redis key, channel and stream name the service uses, in one place.

A deployment's names carry its **scope**, so two deployments on one Redis never meet:

- keys live in the deployment's database (``redis://host/N``), and a ``ROADS_NAMESPACE`` puts a
  prefix ``NAMESPACE:`` before every key, for deployments sharing a database or a cluster;
- pub/sub channels are not per database in Redis (a message published on database 1 reaches a
  subscriber on database 0), so the version channel names the database as well as the namespace.
  Database 0 without a namespace keeps the channel's old name, ``roads:versions``, so instances of
  the previous release and this one hear each other during a rolling upgrade.

Keys of one table all carry the hash tag ``{t:TABLE}`` and lobby-wide keys share ``{lobby}``, so
every script and every MULTI touches one Redis Cluster slot (the prefix stands before the tag):

- ``{t:T}:meta``: hash of the table's ``name``, ``variant``, ``current`` shoe, ``mver`` (metadata
  version), ``seq`` (write sequence number), ``logged`` (the log's last number), ``syncs``
  (replication markers), ``retired``
  (present while the table is retired: its reads answer from the archive) and ``burn_pending``
  (cards burned before a shoe's first round, until it takes them: :mod:`api.codecs.roundfacts`);
- ``{t:T}:shoes``: list of the table's shoe ids, oldest first;
- ``{t:T}:lobby``: the lobby update of the table's last write (see :mod:`api.storage.lobbyscript`);
- ``{t:T}:log``: the table's writes not yet in the record (a stream, :mod:`api.codecs.writelog`;
  only while the record is on); ``logged`` in the meta numbers them;
- ``{t:T}:games``: hash of each game id of the table's rounds in Redis to its round, ``SHOE:N``
  (:mod:`api.codecs.roundfacts`; a shoe that leaves Redis takes its game ids with it);
- ``{t:T}:shoe:S``: hash of the shoe's ``version`` (raised by every change), ``rounds`` reported
  and ``void`` count;
- ``{t:T}:shoe:S:rounds``: list of round records (JSON), round n at index n-1 (no TTL; with the
  record on, a closed shoe leaves Redis once recorded and ``ROADS_HOT_SECONDS`` old, and comes
  back from the record when read: :mod:`api.record`);
- ``{t:T}:shoe:S:state``: cached scorecard state, ``b"VERSION:" + bytes`` (with a TTL);
- ``{t:T}:shoe:S:RELEASE:cache:NAME``: cached response, ``b"VERSION:" + bytes`` (with a TTL),
  and ``...:cache:claim:NAME`` the claim to build it; ``RELEASE`` is :data:`RELEASE`, so an
  answer one release built is never served by another (releases before 0.11.0 named no release);
- ``{t:T}:shoe:S:cache:NAME``: where releases before 0.11.0 cached theirs;
- the lobby's keys: see :class:`LobbyKeys`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cached_property
from importlib import metadata
from pathlib import Path


def _release() -> str:
    """The version of the code running: its tree's ``pyproject.toml`` (a checkout, or a
    release's tree from git), else the installed package's."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return metadata.version("baccarat-roads")


# Cached answers are named by the release that built them: an answer's form may change from one
# release to the next (0.8.0's roads document added next_cells), and during a rolling upgrade
# (docs/operations.md) each release builds its own once instead of serving the other's.
RELEASE = _release()


@dataclass(frozen=True, slots=True)
class TableKeys:
    meta: str
    shoes: str
    lobby_update: str  # the lobby update of the table's last write, kept for a retry
    log: str
    games: str  # game id -> SHOE:N, for the rounds Redis holds (api.codecs.roundfacts)


@dataclass(frozen=True, slots=True)
class ShoeKeys:
    table: TableKeys
    info: str
    rounds: str
    state: str

    def cache(self, name: str) -> str:
        """Where the response ``name`` of this shoe is cached."""
        return f"{self.info}:{RELEASE}:cache:{name}"

    def claim(self, name: str) -> str:
        """Where a request's claim to build the response ``name`` is kept."""
        return f"{self.info}:{RELEASE}:cache:claim:{name}"


@dataclass(frozen=True)
class LobbyKeys:
    """The lobby-wide keys, all under one hash tag (see :mod:`api.storage.lobbystore`);
    ``events`` is the Redis Stream the live event feed reads. The lobby script names the
    ``grown`` and member hashes from ``applied``, which is ``TAG:applied``."""

    tag: str
    applied: str
    tables: str
    summaries: str
    shapes: str
    matched: str
    edges: str
    seq: str
    epoch: str
    events: str
    last_of: str  # each table's newest event id: the previous id of its channel's next event
    published: str  # the stream id the Pushpin publisher published up to
    publisher: str  # the Pushpin publisher's lease
    retired: str  # the registry entries of retired tables, until a round starts them again
    recorder: str  # the recorder's lease (api.record.recorder)
    frames: str  # the lobby feed's frames (api.storage.framestream)
    framer: str  # the frame builder's lease
    frame_publisher: str  # the lease of the publisher of frames to the GRIP proxies
    keyframe: str  # every tile at one frame, where a process's frame feed starts
    record_lag: str  # the ``at`` of the oldest write the recorder found unrecorded, 0 for none
    statuses: str  # table -> its status as the studio last reported it (api.codecs.tablestatus)
    dealers: str  # table -> its current dealer (api.codecs.roundfacts)
    shoe_facts: str  # table -> what the studio reported of its shoes (api.codecs.shoefacts)
    paytables: str  # name -> a pay table of the deployment's own (api.storage.paytablestore)

    @classmethod
    def under(cls, tag: str) -> LobbyKeys:
        names = [field for field in cls.__dataclass_fields__ if field != "tag"]
        return cls(tag, **{name: f"{tag}:{name}" for name in names})

    def grown(self, road: str) -> str:
        return f"{self.tag}:grown:{road}"

    def good(self, pattern: str) -> str:
        return f"{self.tag}:good:{pattern}"


@dataclass(frozen=True)
class IntegrityKeys:
    """The integrity watch's keys, under the lobby's hash tag (its script runs beside the lobby
    script, in the same call): the alert stream, the k-gram index (two generations), each table's
    shoe already named a repeat, each table's last append (its shoe, the next round's chances, the
    side bets exposed), the drift alerts already raised, the drift evaluator's lease, the rounds
    waiting for their day's tally and the lock of who adds them up; two tally hashes per day (by
    table, by dealer) and one list of findings per table."""

    tag: str

    def __getattr__(self, name: str) -> str:
        if name in _INTEGRITY_NAMES:
            return f"{self.tag}:integrity:{name}"
        raise AttributeError(name)

    def drift(self, day: str) -> str:
        return f"{self.tag}:integrity:drift:{day}"

    def dealers(self, day: str) -> str:
        """The day's tallies by dealer (a round reported with its dealer counts there too)."""
        return f"{self.tag}:integrity:dealers:{day}"

    def found(self, table: str) -> str:
        return f"{self.tag}:integrity:found:{table}"


_INTEGRITY_NAMES = frozenset(
    {
        "events",
        "index",
        "index_old",
        "repeated",
        "last",
        "alerted",
        "evaluator",
        "rounds",
        "folding",
        "anchors",
    }
)


@dataclass(frozen=True)
class Keyspace:
    """The names of one deployment: ``prefix`` before every key (``""`` or ``"NAMESPACE:"``) and
    the ``database`` its keys live in."""

    prefix: str = ""
    database: int = 0

    @classmethod
    def of(cls, namespace: str | None, database: int) -> Keyspace:
        """The names of a deployment with this namespace (checked by :mod:`api.config`)."""
        return cls(f"{namespace}:" if namespace else "", database)

    def table(self, table: str) -> TableKeys:
        tag = f"{self.prefix}{{t:{table}}}"
        return TableKeys(
            meta=f"{tag}:meta",
            shoes=f"{tag}:shoes",
            lobby_update=f"{tag}:lobby",
            log=f"{tag}:log",
            games=f"{tag}:games",
        )

    def shoe(self, table: str, shoe: str) -> ShoeKeys:
        info = f"{self.prefix}{{t:{table}}}:shoe:{shoe}"
        return ShoeKeys(self.table(table), info, f"{info}:rounds", f"{info}:state")

    @cached_property
    def lobby(self) -> LobbyKeys:
        return LobbyKeys.under(f"{self.prefix}{{lobby}}")

    @cached_property
    def integrity(self) -> IntegrityKeys:
        return IntegrityKeys(f"{self.prefix}{{lobby}}")

    @cached_property
    def versions_channel(self) -> str:
        """The pub/sub channel of committed versions (see :mod:`api.live.versions`)."""
        scope = f"@{self.database}" if self.database else ""
        return f"{self.prefix}roads:versions{scope}"
