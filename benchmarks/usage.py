"""CPU seconds and resident memory of a benchmark's processes, read from /proc."""

from __future__ import annotations

import os
from pathlib import Path

from tests.pushpin_server import Pushpin

TICKS = os.sysconf("SC_CLK_TCK")


class Usage:
    """CPU seconds and resident memory of a set of processes, read from /proc."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = [pid for pid in pids if Path(f"/proc/{pid}").exists()]
        self.start = self.cpu_seconds()

    def cpu_seconds(self) -> float:
        """Of the processes still there (a worker gunicorn restarted is not counted)."""
        total = 0
        for pid in self.pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / TICKS

    def used(self) -> float:
        return self.cpu_seconds() - self.start

    def rss_mb(self) -> float:
        total = 0
        for pid in self.pids:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        return total / 1024


def pushpin_pids(pushpin: Pushpin) -> list[int]:
    names = ("condure", "pushpin-proxy", "pushpin-handler", "zurl")
    return [int((pushpin.run_dir / f"{name}.pid").read_text()) for name in names]
