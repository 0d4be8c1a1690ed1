"""Demo tables fed from the shoe simulator, so a fresh service has something to show."""

from __future__ import annotations

import logging
import random
import threading

from api.services import Services
from roads.simulator import deal_shoe

log = logging.getLogger("roads.demo")

DEMO_TABLES = (
    ("demo-1", "Baccarat 1", "standard"),
    ("demo-2", "Speed Baccarat A", "speed"),
    ("demo-3", "No Commission Baccarat", "no_commission"),
    ("demo-4", "Baccarat Squeeze", "standard"),
)
BY = "demo-feeder"  # the name its writes are logged under (a key's name, were they sent)


class DemoFeeder:
    """Deals simulated shoes to the demo tables: a head start at once, then a round every few
    seconds per table, and a new shoe when one ends."""

    def __init__(
        self, services: Services, *, interval: float = 3.0, seed: int | None = None
    ) -> None:
        self.services = services
        self.interval = interval
        self.rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="demo-feeder", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        try:
            shoes = {}
            for table, name, variant in DEMO_TABLES:
                self.services.tables.put(table, name, variant, BY)
                shoes[table] = self._new_shoe(table, head_start=self.rng.randint(20, 60))
            while not self._stop.wait(self.interval / len(DEMO_TABLES)):
                table = self.rng.choice(list(shoes))
                shoe_id, rounds, dealt = shoes[table]
                if dealt == len(rounds):
                    shoes[table] = self._new_shoe(table, head_start=0)
                    continue
                self.services.writer.append(table, shoe_id, dealt + 1, rounds[dealt], BY)
                shoes[table] = (shoe_id, rounds, dealt + 1)
        except Exception:  # a demo must never take the service down
            log.exception("demo feeder stopped")

    def _new_shoe(self, table: str, *, head_start: int) -> tuple[str, list, int]:
        """A freshly simulated shoe for ``table`` with its first ``head_start`` rounds dealt."""
        seed = self.rng.getrandbits(32)
        rounds = deal_shoe(seed)
        shoe_id = f"shoe-{seed:08x}"
        for number in range(1, head_start + 1):
            self.services.writer.append(table, shoe_id, number, rounds[number - 1], BY)
        return shoe_id, rounds, head_start
