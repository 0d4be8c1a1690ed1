"""The integrity watch's part of the lobby script: a committed write's part
(:mod:`api.codecs.watchupdate`), applied by :data:`api.storage.lobbyscript.LOBBY_PUBLISH` in the
same call as the lobby update, so once and in table write order like it. The lobby script is
always handed the watch's keys and arguments, and a flag (``watch_on``): with the watch off,
nothing of this runs.

:data:`LUA` (``watchapply.lua``) defines ``watch_apply``: it raises the plan's findings; looks
each anchor up in the k-gram index and names the earlier table, shoe and round of the first one
another shoe holds (``repeated_shoe``, once per shoe), indexing the others (and, with the record
on, handing them to the record's lasting index: :mod:`api.codecs.anchors`); adds the round, with
the chances the table's previous append left for it, to the rounds waiting for their day's tally
(:mod:`api.codecs.tallies`: the drift evaluator adds them up, off the write path); and raises
each open side bet newly exposed in the shoe. Findings go to the alert stream and to the table's
list of findings (:mod:`api.codecs.alerts`). The index keeps two generations: when the newer
holds ``index_entries`` entries it becomes the older, and the oldest go. It returns the kinds
raised.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from api.codecs import alerts, anchors, shoefacts, tallies
from api.metrics import INTEGRITY_ALERTS
from api.storage.keys import IntegrityKeys
from api.storage.luascript import lua_file

STREAM_LENGTH = 10_000  # alerts kept for operators who resume (approximate, trimmed by Redis)
FOUND_PER_TABLE = 500  # findings kept per table for its answer
# Rounds waiting to be tallied (the drift evaluator takes them each minute), and anchors waiting
# for the record's index (the recorder takes them each pass), at the most.
ROUNDS_KEPT = 1_000_000
INDEX_ENTRIES = 1_000_000  # k-grams in each of the index's two generations

# A queue no process took from (no write for that long) is dropped: a cache of work, not data.
QUEUE_SECONDS = 2 * 86_400

LUA = lua_file(__package__, "watchapply.lua")
#: The fragments a script that applies the watch's part includes, in order: the formats it
#: writes and reads, then ``watch_apply``.
USES = (alerts.LUA, anchors.LUA, tallies.LUA, shoefacts.LUA, LUA)


@dataclass(frozen=True)
class IntegrityApply:
    """The watch's keys and arguments in the lobby script's call, named as its header names
    them."""

    keys: IntegrityKeys
    index_entries: int = INDEX_ENTRIES
    recording: bool = False  # the record is on: new anchors also go to its lasting index

    @cached_property
    def fixed(self) -> dict[str, Any]:
        """What every write's call holds alike (:meth:`found_key` and the day are the write's)."""
        k = self.keys
        return {
            "alerts_key": k.events,
            "index_key": k.index,
            "index_old_key": k.index_old,
            "repeated_key": k.repeated,
            "last_key": k.last,
            "rounds_key": k.rounds,
            "anchors_key": k.anchors,
            "index_entries": self.index_entries,
            "alerts_length": STREAM_LENGTH,
            "found_kept": FOUND_PER_TABLE,
            "rounds_kept": ROUNDS_KEPT,
            "recording": int(self.recording),
            "queue_seconds": QUEUE_SECONDS,
        }

    def found_key(self, table: str) -> str:
        """The list of ``table``'s findings."""
        return self.keys.found(table)


def count_alerts(kinds: list[Any]) -> None:
    """Count the alerts a batch of writes raised (the lobby script's replies) in ``/metrics``."""
    for kind in kinds:
        INTEGRITY_ALERTS.labels(kind.decode() if isinstance(kind, bytes) else kind).inc()
