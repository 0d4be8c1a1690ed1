"""A shoe's scorecard at a version: its cached state when that is of the version, else rebuilt
from the stored rounds (and cached again). Both the writes (what an append is computed from) and
the read cache (what an answer is built from) start here; :func:`stamped_scorecard` is the one
place a stamped state becomes a scorecard. A write whose read went stale is only reported here
(``None``): the writes decide whether to read again (:mod:`api.writes.retry`).
"""

from __future__ import annotations

from typing import NamedTuple

from api.codecs.records import decode as decode_record
from api.codecs.records import scorecard_of
from api.codecs.stamps import at_version
from api.storage.coldshoes import ColdShoes
from api.storage.failures import Contended, NotFound, Retired
from api.storage.keys import Keyspace, ShoeKeys
from api.storage.transport import Transport
from api.storage.writescripts import STORE_STATE
from roads import Scorecard


class ShoeRecords(NamedTuple):
    """A shoe's stored rounds, read together with its version and its table's retired mark."""

    version: int | None  # None: no such shoe
    records: list[dict]
    retired: bool  # the table is retired (api.storage.writescripts.RetireTable)


# A read of a shoe's current scorecard is made again this often while writers keep changing
# it; then 503. (A write's own retries are api.writes.retry's.)
READ_ATTEMPTS = 8


def stamped_scorecard(state: bytes | None, version: int) -> Scorecard | None:
    """The scorecard the stamped ``state`` (``b"VERSION:bytes"``) holds when it is of
    ``version``; at version 0 the empty one (every write raises the version: no rounds yet);
    else ``None`` (no state of that version cached)."""
    if version == 0:
        return Scorecard.from_rounds([])
    cached = at_version(state, version)
    return Scorecard.from_bytes(cached) if cached is not None else None


class ShoeStates:
    def __init__(
        self,
        transport: Transport,
        keys: Keyspace,
        state_ttl: int,
        cold: ColdShoes | None = None,
    ) -> None:
        self.transport = transport
        self.keys = keys
        self.state_ttl = state_ttl
        self.cold = cold  # shoes that left Redis for the record (None: the record is off)

    def warm(self, table: str, shoe: str) -> bool:
        """Bring the shoe back from the record if it left Redis; whether it did."""
        return self.cold is not None and self.cold.warm(table, shoe)

    def current(self, table: str, shoe: str) -> tuple[int, Scorecard]:
        """The shoe's current version and scorecard. Raises :class:`NotFound` for an unknown
        shoe, :class:`Retired` for a retired table's, :class:`Contended` when it keeps changing
        while read."""
        keys = self.keys.shoe(table, shoe)
        for _ in range(READ_ATTEMPTS):
            version, state, retired = self.transport.multi(
                [
                    ("HGET", keys.info, "version"),
                    ("GET", keys.state),
                    ("HEXISTS", keys.table.meta, "retired"),
                ]
            )
            if retired:
                raise Retired(table)
            if version is None:
                if self.warm(table, shoe):
                    continue
                raise NotFound(f"table {table} has no shoe {shoe}")
            scorecard = self.at(keys, int(version), state)
            if scorecard is not None:
                return int(version), scorecard
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    def at(self, keys: ShoeKeys, version: int, state: bytes | None) -> Scorecard | None:
        """The scorecard at ``version``: the cached ``state`` (``b"VERSION:bytes"``) if it is of
        that version, else rebuilt from the rounds; ``None`` if the shoe is no longer at that
        version."""
        scorecard = stamped_scorecard(state, version)
        if scorecard is not None:
            return scorecard
        current, stored, _ = self.records(keys)
        if (current or 0) != version:
            return None
        scorecard = scorecard_of(stored)
        if stored:
            self.transport.script(
                STORE_STATE,
                info_key=keys.info,
                state_key=keys.state,
                version=version,
                state=scorecard.to_bytes(),
                state_ttl=self.state_ttl,
            )
        return scorecard

    def records(self, keys: ShoeKeys) -> ShoeRecords:
        """The shoe's version, every round record and the table's retired mark, read together."""
        version, stored, retired = self.transport.multi(
            [
                ("HGET", keys.info, "version"),
                ("LRANGE", keys.rounds, 0, -1),
                ("HEXISTS", keys.table.meta, "retired"),
            ]
        )
        return ShoeRecords(
            int(version) if version is not None else None,
            [decode_record(record) for record in stored],
            bool(retired),
        )
