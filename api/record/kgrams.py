"""The integrity watch's lasting k-gram index, in the record: each anchor the watch indexed in
Redis (which keeps the newest only) is added to ``record_kgrams`` by the recorder, and one that
the record already holds for another shoe names the shoe a repeat, with the table, shoe and
round it repeats, however long ago that shoe was dealt.

Off the write path: the writes hand their new anchors over in Redis (``{lobby}:integrity:
anchors``); each recorder pass takes them. A replay older than Redis's index is named a pass
after its anchor's round was written (within four rounds of the replay, then, and a second).
"""

from __future__ import annotations

import psycopg

from api.codecs.anchors import Anchor
from api.codecs.jsontext import dumps_text
from api.record.database import Database
from api.storage.integrity.watchstore import IntegrityStore

TAKEN = 10_000  # anchors a pass takes at most


class KgramIndex:
    def __init__(self, database: Database, store: IntegrityStore) -> None:
        self.database = database
        self.store = store

    def step(self) -> int:
        """Index the anchors waiting and name the shoes they repeat; how many were taken."""
        anchors = self.store.take_anchors(TAKEN)
        if not anchors:
            return 0
        with self.database.transaction() as conn:
            earlier = self._record(conn, anchors)
        named: set[tuple[str, str]] = set()
        for fingerprint, table, shoe, number in anchors:
            first = earlier.get(fingerprint)
            if first is None or first[:2] == (table, shoe) or (table, shoe) in named:
                continue
            named.add((table, shoe))
            data = {
                "table": table,
                "shoe": shoe,
                "round": number,
                "from_round": number,
                "earlier": {"table": first[0], "shoe": first[1], "round": first[2]},
                "from": "record",
            }
            self.store.raise_repeated(table, shoe, dumps_text(data))
        return len(anchors)

    @staticmethod
    def _record(conn: psycopg.Connection, anchors: list[Anchor]) -> dict[str, tuple[str, str, int]]:
        """Add the anchors the record lacks; where the record had each before (table, shoe,
        round), for those it held already."""
        fingerprints = [anchor.fingerprint for anchor in anchors]
        held = {
            row[0]: (row[1], row[2], row[3])
            for row in conn.execute(
                "SELECT fingerprint, table_id, shoe, round FROM record_kgrams "
                "WHERE fingerprint = ANY(%s)",
                (fingerprints,),
            )
        }
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO record_kgrams (fingerprint, table_id, shoe, round) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT (fingerprint) DO NOTHING",
                [anchor for anchor in anchors if anchor.fingerprint not in held],
            )
        return held
