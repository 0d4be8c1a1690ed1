"""Drift alerts: a day's tallies of every table, tested together (Benjamini-Hochberg, in
:func:`roads.integrity.drift.report`), each table past the alert bound raised once per day.

One process evaluates, the holder of the lease ``{lobby}:integrity:evaluator``: every minute,
today and yesterday (whose last minutes came after its last pass). Each process's candidate is
started by its first write (:meth:`DriftWatch.start`). Raising is idempotent
(:meth:`IntegrityStore.raise_drift`), so the operators' reads may evaluate a day too.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from api.codecs.jsontext import dumps_text
from api.live.candidate import Candidate
from api.storage.integrity import IntegrityStore
from roads.integrity.drift import ALERT, FALSE_DISCOVERY, report

log = logging.getLogger("roads.drift")

PERIOD_SECONDS = 60.0
LEASE_MS = 3 * 60_000  # outlives a pass; a holder that died is replaced within three minutes


def today(offset_days: int = 0) -> str:
    """The UTC day a write is tallied under, as the storage layer names it (``offset_days``
    before today)."""
    return time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86_400 * offset_days))


class DriftWatch(Candidate):
    def __init__(self, store: IntegrityStore, *, period: float = PERIOD_SECONDS) -> None:
        self.store = store
        self.period = period
        super().__init__("drift-watch")

    def evaluate(self, day: str) -> dict[str, dict[str, Any]]:
        """The day's report, every table in it; each alert not raised yet is raised."""
        found = report(self.store.day(day))
        for table, entry in found.items():
            if entry["alert"]:
                data = {
                    "table": table,
                    "day": day,
                    "rounds": entry["rounds"],
                    "p": entry["p"],
                    "adjusted_p": entry["adjusted_p"],
                    "bound": ALERT,
                    "false_discovery_rate": FALSE_DISCOVERY,
                    "tests": entry["tests"],
                }
                self.store.raise_drift(day, table, dumps_text(data))
        return found

    def step(self) -> bool:
        """One pass, if this process holds the lease; whether it did."""
        if not self.store.lease(self.holder, LEASE_MS):
            return False
        for day in (today(1), today()):
            self.evaluate(day)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception:  # Redis away: the next pass tries again
                log.warning("drift not evaluated; trying again", exc_info=True)
            self._stop.wait(self.period)
