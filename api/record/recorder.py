"""The recorder: copies what Redis committed into the record, off the request path.

Every process of every instance runs a :class:`Recorder`; one at a time records, the one holding
the lease (``{lobby}:recorder``, as the GRIP publisher holds its own). Each pass it reads each
table's last logged number (one round trip per node), reads the writes of the tables that are
behind the record, records them in one transaction (:class:`~api.record.ledger.Ledger`) and only
then trims them from the tables' logs. So:

- a write is acknowledged once Redis holds it; the record follows within a pass or two;
- PostgreSQL down: passes fail, the logs keep the writes (ingest and reads are unchanged), the
  lag grows and shows (``/readyz``, ``roads_record_behind_seconds``), and the next pass after
  PostgreSQL returns records everything;
- a recorder killed mid-batch: its transaction never committed, or committed before the logs
  were trimmed; either way the next holder reads from the record's numbers and records each
  write once (the ledger skips a number it holds).

Once a second a pass also lets the shoes that are due leave Redis (:mod:`api.record.eviction`);
each pass adds the anchors the integrity watch indexed to the record's (:mod:`api.record.kgrams`).

With a signing key, each committed batch's heads go to the checkpointer, and every
``ROADS_CHECKPOINT_SECONDS`` the holder signs those advanced since its last checkpoint
(:mod:`api.record.checkpoints`); stopping, it signs what is pending. Taking the lease, it adds the
heads recorded since the store's latest checkpoint: a holder killed, or one that lost the lease,
before it signed leaves nothing unsigned for good. A role that may change
recorded writes is named in the log once (:mod:`api.record.roles`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime

from api.codecs.writelog import LoggedWrite
from api.metrics import CHECKPOINT_FAILURES, RECORD_BEHIND, RECORD_LAG, RECORDED
from api.record.checkpoints import Checkpointer, recorded_since
from api.record.checkpointstore import DamagedStore
from api.record.database import Database
from api.record.ledger import Head, Ledger
from api.record.roles import owns_the_record
from api.storage.leases import TAKEN, Candidate
from api.storage.writelog import WriteLog

log = logging.getLogger("roads.recorder")

LEASE_MS = 5_000
PASS_LIMIT = 20_000  # writes a pass reads at most


class Recorder(Candidate):
    """This process's candidate recorder (started with :meth:`start`, after any fork);
    :meth:`step` is one pass, for a caller that drives it (the tests, a benchmark)."""

    def __init__(
        self,
        writelog: WriteLog,
        database: Database,
        ledger: Ledger,
        *,
        evict: Callable[[], int] | None = None,
        kgrams: Callable[[], int] | None = None,
        evict_seconds: float = 1.0,
        lease_ms: int = LEASE_MS,
        pause_seconds: float = 0.1,
        sweep_seconds: float = 2.0,
        batch: int = 500,
        checkpoints: Checkpointer | None = None,
    ) -> None:
        self.writelog = writelog
        self.database = database
        self.ledger = ledger
        self.evict = evict
        self.kgrams = kgrams  # the integrity watch's lasting index (api.record.kgrams)
        self.evict_seconds = evict_seconds
        self._evicted = 0.0
        self.lease_ms = lease_ms
        self.pause = pause_seconds
        self.sweep = sweep_seconds
        self.batch = batch
        self.checkpoints = checkpoints
        self._role_checked = False
        self._caught_up = False  # the heads recorded since the store's latest checkpoint
        self._positions: dict[str, int] | None = None  # the record's numbers, while held
        self._tables: list[str] = []
        self._swept = 0.0
        super().__init__("recorder")

    def forget(self) -> None:
        self._positions = None

    def run(self) -> None:
        """Record until :meth:`stop` (in the calling thread: the recorder's own process)."""
        self._run()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                busy = self.step()
            except Exception:  # Redis or PostgreSQL away: the logs keep everything; again
                log.warning("the record could not be written; trying again", exc_info=True)
                self._positions = None
                busy = False
            if not busy:
                self._stop.wait(self.pause)
        self.checkpoint(force=True)

    def step(self) -> bool:
        """One pass (see the module doc); whether it found more than one batch could take (go
        on at once)."""
        busy = self._pass()
        self.checkpoint()
        return busy

    def checkpoint(self, *, force: bool = False) -> dict | None:
        """Sign the heads advanced when a checkpoint is due (``force``: now), while the lease
        is held; the checkpoint made, if any. Having just taken the lease, first add the heads
        recorded since the store's latest checkpoint (a killed holder's unsigned ones). A store
        that cannot be written, or whose latest checkpoint cannot be chained on, is logged and
        counted (``roads_checkpoint_failures_total``) at each try; the heads stay pending."""
        if self.checkpoints is None or self._positions is None:
            return None
        try:
            catch_up = None if self._caught_up else self._unsigned
            return self.checkpoints.maybe(force=force, catch_up=catch_up)
        except OSError as error:  # its text may name the store's path: only its reason
            CHECKPOINT_FAILURES.labels("store").inc()
            log.error(
                "no checkpoint made: the checkpoint store cannot be used (%s); the heads stay"
                " pending",
                error.strerror or type(error).__name__,
            )
        except DamagedStore as error:
            CHECKPOINT_FAILURES.labels("damaged").inc()
            log.error(
                "no checkpoint made: %s; nothing is signed until an operator repairs the store"
                " (docs/security.md); the heads stay pending",
                error,
            )
        return None

    def _unsigned(self, since: datetime) -> list[Head]:
        """The heads recorded since ``since`` (the catch-up of a lease just taken), read once."""
        with self.database.transaction() as conn:
            heads = recorded_since(conn, since)
        self._caught_up = True
        return heads

    def _pass(self) -> bool:
        held = self.writelog.lease(self.holder, self.lease_ms)
        if not held:
            self._positions = None
            return False
        if held == TAKEN or self._positions is None:  # another holder may have moved them
            self.database.ready()
            self._positions = self._recorded()
            self._caught_up = False
            self._check_role()
        now = time.monotonic()
        count = self.writelog.count_tables()
        if count != len(self._tables) or now - self._swept > self.sweep:
            self._tables = self.writelog.tables()
            self._swept = now
        positions = self._positions
        logged = self.writelog.pending(self._tables)
        behind = {
            table: positions.get(table, 0)
            for table, n in logged.items()
            if n > positions.get(table, 0)
        }
        if self.evict is not None and now - self._evicted > self.evict_seconds:
            self._evicted = now
            self.evict()
        if self.kgrams is not None:
            self.kgrams()
        if not behind:
            self._report(None)
            return False
        # At most ``batch`` writes a table and PASS_LIMIT in all: after a long outage the
        # backlog is recorded in passes of bounded size, not read into memory at once.
        each = max(1, min(self.batch, PASS_LIMIT // len(behind)))
        found = {t: writes for t, writes in self.writelog.after(behind, each).items() if writes}
        oldest = min((writes[0].at_ms for writes in found.values()), default=None)
        self._report(oldest)
        with self.database.transaction() as conn:
            recorded = self.ledger.record(conn, found)
        done = recorded.numbers
        if self.checkpoints is not None:
            self.checkpoints.advanced(recorded.heads)  # committed: now they may be signed
        positions.update(done)
        self.writelog.trim(done)
        self._count(found)
        return any(len(writes) >= each for writes in found.values())

    def _recorded(self) -> dict[str, int]:
        with self.database.transaction() as conn:
            rows = conn.execute("SELECT table_id, recorded FROM record_tables").fetchall()
        return dict(rows)

    def _check_role(self) -> None:
        if self._role_checked:
            return
        self._role_checked = True
        with self.database.transaction() as conn:
            if owns_the_record(conn):
                log.warning(
                    "the service's database role may change recorded writes (it owns"
                    " record_writes or may UPDATE or DELETE it): see ROADS_RECORD_ROLE in"
                    " docs/operations.md"
                )

    def _report(self, oldest_ms: int | None) -> None:
        self.writelog.report(oldest_ms or 0)
        RECORD_BEHIND.set(0 if oldest_ms is None else max(0.0, time.time() - oldest_ms / 1000))

    @staticmethod
    def _count(found: dict[str, list[LoggedWrite]]) -> None:
        now = time.time()
        for writes in found.values():
            for write in writes:
                RECORD_LAG.observe(max(0.0, now - write.at_ms / 1000))
            RECORDED.inc(len(writes))
