"""The record's PostgreSQL: a pool of connections (psycopg 3), made on first use and again in a
forked process, and the migrations that create and change its schema.

A migration is a file ``migrations/NNNN_name.sql``; :meth:`Database.migrate` applies those not
yet applied, in order, each in its own transaction with its row in ``record_migrations``, under
an advisory lock so instances starting together apply each once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout, TooManyRequests

from api.resources import MIGRATIONS  # package data

LOCK = 0x726F616473  # the advisory lock the migrations are applied under ("roads")


class RecordUnavailable(Exception):
    """PostgreSQL cannot be reached now (a read of the record answers 503; the recorder waits
    and tries again). Its text names the problem, never psycopg's (which holds the database's
    address, port and user)."""


class RecordBusy(RecordUnavailable):
    """The record did not answer in time: no connection of the pool came free within its wait
    (every one busy, or PostgreSQL not answering), or a read ran past its statement timeout
    (``ROADS_RECORD_TIMEOUT_MS``). A 503 to retry, never "the table is new"."""


UNREACHABLE = "the record (PostgreSQL) is unavailable; retry shortly"
BUSY = "the record (PostgreSQL) did not answer in time; retry shortly"


class Database:
    """The record's database at ``url``, reached through a small pool."""

    def __init__(
        self, url: str, *, max_size: int = 4, timeout: float = 2.0, read_timeout_ms: int = 5000
    ) -> None:
        self.url = url
        self.max_size = max_size
        self.timeout = timeout
        self.read_timeout_ms = read_timeout_ms  # each statement of a read (0: none)
        self._pool: ConnectionPool | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._migrated = False
        # Tracing's seam (api.tracing): when set, each transaction runs inside around().
        self.around: Callable[[], AbstractContextManager[object]] | None = None

    def ready(self) -> None:
        """Migrate once per process before the first use (PostgreSQL may be down when the
        service starts: ingest goes on, and the recorder migrates when it can)."""
        if not self._migrated:
            self.migrate()
            self._migrated = True

    def pool(self) -> ConnectionPool:
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = ConnectionPool(
                    self.url,
                    min_size=0,
                    max_size=self.max_size,
                    timeout=self.timeout,
                    kwargs={
                        "connect_timeout": max(1, int(self.timeout)),
                        "options": "-c timezone=UTC",
                    },
                    open=True,
                )
                self._pid = os.getpid()
            return self._pool

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection]:
        """A connection in a transaction, committed at the end (rolled back on an error).
        Raises :class:`RecordUnavailable` when PostgreSQL cannot be reached."""
        try:
            self.ready()
            around = self.around() if self.around is not None else nullcontext()
            with around, self.pool().connection() as conn, conn.transaction():
                yield conn
        except (PoolTimeout, TooManyRequests, psycopg.errors.QueryCanceled):
            raise RecordBusy(BUSY) from None
        except (psycopg.OperationalError, psycopg.InterfaceError):
            raise RecordUnavailable(UNREACHABLE) from None

    @contextmanager
    def reading(self) -> Iterator[psycopg.Connection]:
        """A read-only transaction of one snapshot (``REPEATABLE READ``: its statements agree
        with each other), each statement under ``read_timeout_ms`` (``SET LOCAL``: the
        recorder's batches, on the same pool, are not cut). Raises as :meth:`transaction`."""
        with self.transaction() as conn:
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            conn.execute(f"SET LOCAL statement_timeout = {int(self.read_timeout_ms)}")
            yield conn

    def migrate(self) -> list[str]:
        """Apply the migrations not yet applied; their names."""
        applied = []
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (LOCK,))
            try:
                # Created only when missing: the service's own role (ROADS_RECORD_ROLE) may
                # not create tables, and finds the schema up to date.
                (found,) = conn.execute("SELECT to_regclass('record_migrations')").fetchone()
                if found is None:
                    conn.execute(
                        "CREATE TABLE record_migrations (name text PRIMARY KEY,"
                        " applied_at timestamptz NOT NULL DEFAULT now())"
                    )
                done = {row[0] for row in conn.execute("SELECT name FROM record_migrations")}
                for path in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
                    if path.stem in done:
                        continue
                    with conn.transaction():
                        conn.execute(path.read_text())
                        conn.execute(
                            "INSERT INTO record_migrations (name) VALUES (%s)", (path.stem,)
                        )
                    applied.append(path.stem)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK,))
        return applied

    def ping(self) -> bool:
        with self.pool().connection() as conn:
            conn.execute("SELECT 1")
        return True

    def close(self) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.close()
            self._pool = None
