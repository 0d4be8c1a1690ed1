"""Drift alerts: a day's tallies of every table, tested together (Benjamini-Hochberg, in
:func:`roads.integrity.drift.report`), each table past the alert bound raised once per day.

No lease is needed: raising is idempotent (:meth:`IntegrityStore.raise_drift`), so any process
may evaluate a day. The operators' event stream evaluates today's every minute and the table
answers on each read; :meth:`DriftWatch.evaluate` is cheap (one hash read per day).
"""

from __future__ import annotations

import time
from typing import Any

from api.codecs.jsontext import dumps_text
from api.storage.integrity import IntegrityStore
from roads.integrity.drift import ALERT, FALSE_DISCOVERY, report


def today() -> str:
    """The UTC day a write is tallied under, as the storage layer names it."""
    return time.strftime("%Y-%m-%d", time.gmtime())


class DriftWatch:
    def __init__(self, store: IntegrityStore) -> None:
        self.store = store

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
