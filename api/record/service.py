"""The record's parts, made once per app when ``ROADS_DATABASE_URL`` is set: the database, the
recorder, the record's reads (a table's shoes, and its rounds by what the studio knows of
them), the store of signed checkpoints (``ROADS_CHECKPOINT_DIR``), which ``GET
/v1/checkpoints/latest`` reads, and a table's shoe listings kept a few seconds. The signing key
is read only where the recorder runs
(``signing``: :mod:`api.record.run`), never in a web worker; a key set that cannot be used
raises :class:`~api.record.checkpoints.CheckpointKeyError` (fail closed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from api.config import Settings
from api.record.checkpoints import Checkpointer, store_of
from api.record.checkpointstore import CheckpointStore
from api.record.database import Database
from api.record.eviction import Eviction
from api.record.kgrams import KgramIndex
from api.record.ledger import Ledger
from api.record.recorder import Recorder
from api.record.recordreads import RecordReads
from api.record.roundreads import RoundReads
from api.record.shoelists import ShoeListings
from api.storage.coldshoes import ColdShoes
from api.storage.integrity.watchstore import IntegrityStore
from api.storage.keys import Keyspace
from api.storage.transport import Transport
from api.storage.writelog import WriteLog


@dataclass(frozen=True)
class Record:
    database: Database
    recorder: Recorder
    reads: RecordReads

    cold: ColdShoes
    checkpoints: CheckpointStore | None = None
    rounds: RoundReads | None = None  # rounds by game id, by time, and the export
    listings: ShoeListings = field(default_factory=ShoeListings)  # a table's shoes, kept 5 s

    @classmethod
    def build(
        cls, settings: Settings, transport: Transport, keys: Keyspace, *, signing: bool = False
    ) -> Record:
        assert settings.database_url is not None
        store = store_of(settings)
        # Before anything is opened: a signing key that cannot be used stops the recorder here.
        signer = Checkpointer.of(settings, store) if signing else None
        database = Database(settings.database_url, read_timeout_ms=settings.record_timeout_ms)
        reads = RecordReads(database, settings.hot_seconds)
        cold = ColdShoes(transport, keys, reads)
        kgrams = KgramIndex(database, IntegrityStore(transport, keys.integrity))
        recorder = Recorder(
            WriteLog(transport, keys),
            database,
            Ledger(settings.hot_seconds),
            evict=Eviction(database, cold).step,
            kgrams=kgrams.step if settings.integrity else None,
            lease_ms=settings.record_lease_ms,
            checkpoints=signer,
        )
        return cls(database, recorder, reads, cold, store, RoundReads(reads))

    def behind_seconds(self, now_ms: int) -> float:
        """How far behind the record is, as the recorder last reported it (0: caught up)."""
        oldest = self.recorder.writelog.behind_since()
        return max(0.0, (now_ms - oldest) / 1000) if oldest else 0.0
