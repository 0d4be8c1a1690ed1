"""Closed shoes leave Redis: those the record holds in full, ``ROADS_HOT_SECONDS`` after they
closed (or after they were last brought back), a batch each recorder pass.

A shoe leaves only when its table's log is recorded to the last write (the script compares the
table's log number with the record's), so nothing of it exists in Redis alone; its version at
that moment is kept in the record, and it comes back with that version
(:mod:`api.storage.coldshoes`).
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

    def step(self, recorded: dict[str, int]) -> int:
        """Let the shoes that are due leave Redis; how many left."""
        with self.database.transaction() as conn:
            due = conn.execute(
                "SELECT table_id, shoe FROM record_shoes"
                " WHERE NOT evicted AND hot_until < now() ORDER BY hot_until LIMIT %s",
                (self.batch,),
            ).fetchall()
        gone = []
        for table, shoe in due:
            if table not in recorded:
                continue
            evicted = self.cold.evict(table, shoe, recorded[table])
            if evicted.gone:
                gone.append((evicted.version, table, shoe))
        if gone:
            with self.database.transaction() as conn, conn.cursor() as cursor:
                cursor.executemany(
                    "UPDATE record_shoes SET evicted = true,"
                    " version = COALESCE(%s, version) WHERE table_id = %s AND shoe = %s",
                    gone,
                )
        return len(gone)
