"""Closed shoes leave Redis: those the record holds in full, ``ROADS_HOT_SECONDS`` after they
closed (or after they were last brought back), a batch each recorder pass.

A shoe leaves only when the record holds all of it: its version in Redis is the version of its
last recorded write (every write raises it), compared in the script that takes it out. It comes
back with that version (:mod:`api.storage.coldshoes`).
"""

from __future__ import annotations

from api.record.database import Database
from api.storage.coldshoes import ColdShoes

BATCH = 200


class Eviction:
    def __init__(self, database: Database, cold: ColdShoes, *, batch: int = BATCH) -> None:
        self.database = database
        self.cold = cold
        self.batch = batch

    def step(self) -> int:
        """Let the shoes that are due leave Redis; how many left."""
        with self.database.transaction() as conn:
            due = conn.execute(
                "SELECT table_id, shoe, version FROM record_shoes"
                " WHERE NOT evicted AND complete AND hot_until < now() ORDER BY hot_until LIMIT %s",
                (self.batch,),
            ).fetchall()
        gone = [
            (table, shoe) for table, shoe, version in due if self.cold.evict(table, shoe, version)
        ]
        if gone:
            with self.database.transaction() as conn, conn.cursor() as cursor:
                cursor.executemany(
                    "UPDATE record_shoes SET evicted = true WHERE table_id = %s AND shoe = %s",
                    gone,
                )
        return len(gone)
