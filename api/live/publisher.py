"""The one process that publishes the event stream to the GRIP proxies (Pushpin).

Every process of every instance runs a :class:`Publisher`, and one of them at a time publishes:
the one holding the lease (``{lobby}:publisher``, a Redis key set only if absent, with a TTL the
holder renews). It reads the stream after the cursor (``{lobby}:published``), publishes the
events in order to every proxy, then moves the cursor, both only while it still holds the lease.
So which instance committed a write does not matter, and when the holder dies another one takes
the lease after the TTL and goes on from the cursor. An event published but not yet recorded in
the cursor when its publisher died is published again by the next one: the proxy drops an id it
has already seen on a channel (Pushpin keeps ids for ``id_cache_ttl``, 60 s by default), so
clients still get it once.
"""

from __future__ import annotations

import logging
import urllib.request
from collections.abc import Callable, Sequence

from api.live.grip import publish_body, publish_items
from api.live.reconnecting import keep_serving
from api.metrics import FEED_EVENTS, FEED_LAG, lag_of
from api.storage.leases import TAKEN, Candidate
from api.storage.publishing import PublishingSession

log = logging.getLogger("roads.publisher")

SENT, LAG = FEED_EVENTS.labels("grip"), FEED_LAG.labels("grip")
LEASE_MS = 5_000
BATCH = 200  # events a publish request carries at most


class Publisher(Candidate):
    """This process's candidate publisher (started with :meth:`start`, after any fork)."""

    def __init__(
        self,
        connect: Callable[[], PublishingSession],
        proxies: Sequence[str],
        *,
        prefix: str = "",
        public_odds: bool = True,
        lease_ms: int = LEASE_MS,
        retry_seconds: float = 0.5,
    ) -> None:
        self._connect = connect
        self._proxies = publish_urls(proxies)
        self._prefix = prefix
        self._public_odds = public_odds
        self._lease_ms = lease_ms
        self._retry = retry_seconds
        self.published = 0  # events this process published
        super().__init__("grip-publisher")

    def _run(self) -> None:
        keep_serving(
            self._connect, self._serve, stop=self._stop, retry_seconds=self._retry, name="publisher"
        )

    def _serve(self, session: PublishingSession) -> None:
        block_ms = max(100, self._lease_ms // 5)
        cursor = None  # where this holder goes on, known while it holds the lease
        while not self._stop.is_set():
            held = session.lease(self.holder, self._lease_ms)
            if not held:
                cursor = None
                self._stop.wait(self._lease_ms / 5000)
                continue
            if held == TAKEN or cursor is None:  # another holder may have moved it meanwhile
                cursor = session.cursor()
            events = session.after(cursor, block_ms=block_ms, count=BATCH)
            if not events:
                continue
            items, prev = [], cursor
            for event in events:
                items += publish_items(self._prefix, event, prev, public_odds=self._public_odds)
                prev = event.id
            publish(self._proxies, publish_body(items))
            for event in events:
                LAG.observe(lag_of(event.id))
            SENT.inc(len(events) * len(self._proxies))
            if session.advance(self.holder, prev):
                self.published += len(events)
                cursor = prev
            else:
                cursor = None


def publish_urls(proxies: Sequence[str]) -> list[str]:
    return [url.rstrip("/") + "/publish/" for url in proxies]


def publish(urls: Sequence[str], body: bytes) -> None:
    """Publish to every proxy (its ``/publish/`` URL); an error leaves the caller's cursor where
    it was (all again later)."""
    for url in urls:
        request = urllib.request.Request(
            url, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            answer.read()
