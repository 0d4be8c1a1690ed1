"""Drift alerts: a day's tallies of every table, tested together (Benjamini-Hochberg, in
:func:`roads.integrity.drift.report`), each table past the alert bound raised once per day; and
the same of every dealer (``dealer_drift``) over the rounds reported with their dealer.

One process evaluates, the holder of the lease ``{lobby}:integrity:evaluator``: every minute it adds
up the rounds the writes noted (:meth:`DriftWatch.fold`: the arithmetic stays off the write path)
and evaluates today and yesterday (whose last minutes came after its last pass). Each process's
candidate is started with its jobs when the watch is on (:mod:`api.jobs`). Raising is idempotent
(:meth:`IntegrityStore.raise_drift`), so the operators' reads may evaluate a day too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from api.codecs.jsontext import dumps_text
from api.storage.integrity.watchstore import IntegrityStore, utc_day
from api.storage.leases import Candidate, holder_name
from roads.integrity.drift import ALERT, FALSE_DISCOVERY, fold, report

log = logging.getLogger("roads.drift")

PERIOD_SECONDS = 60.0
FOLD_BATCH = 5_000  # rounds taken at once
FOLD_BATCHES = 200  # at most a million rounds a pass
FOLD_LOCK_MS = 30_000
LEASE_MS = 3 * 60_000  # outlives a pass; a holder that died is replaced within three minutes


class DriftWatch(Candidate):
    def __init__(self, store: IntegrityStore, *, period: float = PERIOD_SECONDS) -> None:
        self.store = store
        self.period = period
        super().__init__("drift-watch")

    def evaluate(self, day: str) -> dict[str, dict[str, Any]]:
        """The day's report, every table in it; each alert not raised yet is raised."""
        return self._raised(report(self.store.day(day)), day, "table", self.store.raise_drift)

    def evaluate_dealers(self, day: str) -> dict[str, dict[str, Any]]:
        """The day's report of every dealer; each alert not raised yet is raised."""
        found = report(self.store.dealers_day(day))
        return self._raised(found, day, "dealer", self.store.raise_dealer_drift)

    @staticmethod
    def _raised(
        found: dict[str, dict[str, Any]],
        day: str,
        who: str,
        raise_once: Callable[[str, str, str], bool],
    ) -> dict[str, dict[str, Any]]:
        """``found``, each entry past the alert bound raised (once) by ``raise_once``; ``who``
        names the entries in the alert (``table`` or ``dealer``)."""
        for name, entry in found.items():
            if entry["alert"]:
                raise_once(day, name, dumps_text(alert_data(entry, day=day, **{who: name})))
        return found

    def fold(self) -> int:
        """Add the rounds waiting for their day's tally to it (unless another process is doing
        it right now); how many were added."""
        holder = holder_name()
        if not self.store.lock(holder, FOLD_LOCK_MS):
            return 0
        try:
            added = 0
            for _ in range(FOLD_BATCHES):
                entries = self.store.take_rounds(FOLD_BATCH)
                for (day, table), (values, sides) in fold(entries).items():
                    self.store.add_tally(day, table, values, sides)
                for (day, dealer), (values, sides) in fold(entries, by_dealer=True).items():
                    self.store.add_tally(day, dealer, values, sides, dealer=True)
                added += len(entries)
                if len(entries) < FOLD_BATCH:
                    break
            return added
        finally:
            self.store.unlock(holder)

    def step(self) -> bool:
        """One pass, if this process holds the lease; whether it did."""
        if not self.store.lease(self.holder, LEASE_MS):
            return False
        self.fold()
        for day in (utc_day(1), utc_day()):
            self.evaluate(day)
            self.evaluate_dealers(day)
        return True

    def _run(self) -> None:
        # A period first: a process starts this with its jobs, before it has noted anything.
        while not self._stop.wait(self.period):
            try:
                self.step()
            except Exception:  # Redis away: the next pass tries again
                log.warning("drift not evaluated; trying again", exc_info=True)


def alert_data(entry: dict[str, Any], *, day: str, **named: str) -> dict[str, Any]:
    """What a drift alert says: who (``table=`` or ``dealer=``), the day, its rounds and tests,
    its p-values and the bounds it was judged by."""
    return {
        **named,
        "day": day,
        "rounds": entry["rounds"],
        "p": entry["p"],
        "adjusted_p": entry["adjusted_p"],
        "bound": ALERT,
        "false_discovery_rate": FALSE_DISCOVERY,
        "tests": entry["tests"],
    }
