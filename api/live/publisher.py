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
import os
import threading
import urllib.request
import uuid
from collections.abc import Callable, Sequence

import redis

from api.live.events import entry_event
from api.live.grip import publish_body, publish_items
from api.live.reconnecting import ProcessThread, keep_serving
from api.metrics import FEED_EVENTS, FEED_LAG, lag_of
from api.storage.keys import LobbyKeys

log = logging.getLogger("roads.publisher")

SENT, LAG = FEED_EVENTS.labels("grip"), FEED_LAG.labels("grip")
LEASE_MS = 5_000
BATCH = 200  # events a publish request carries at most

# Move the cursor only while holding the lease.  KEYS: lease, cursor.  ARGV: holder, id.
_ADVANCE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""
# Take or renew the lease: 0 held by another, 1 renewed, 2 taken.  KEYS: lease.  ARGV: holder,
# ttl ms.
_LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if holder then return 1 end
return 2
"""


class Publisher:
    """This process's candidate publisher (started with :meth:`start`, after any fork)."""

    def __init__(
        self,
        factory: Callable[[], redis.Redis],
        keys: LobbyKeys,
        proxies: Sequence[str],
        *,
        prefix: str = "",
        public_odds: bool = True,
        lease_ms: int = LEASE_MS,
        retry_seconds: float = 0.5,
    ) -> None:
        self._factory = factory
        self._keys = keys
        self._proxies = [url.rstrip("/") + "/publish/" for url in proxies]
        self._prefix = prefix
        self._public_odds = public_odds
        self._lease_ms = lease_ms
        self._retry = retry_seconds
        self._stop = threading.Event()
        self._thread = ProcessThread(self._run, "grip-publisher")
        self.holder = ""
        self.published = 0  # events this process published

    def start(self) -> None:
        self._thread.ensure_running(self._afresh)

    def stop(self) -> None:
        self._stop.set()

    def _afresh(self) -> None:
        self.holder = f"{os.uname().nodename}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._stop = threading.Event()

    def _run(self) -> None:
        keep_serving(
            self._factory, self._serve, stop=self._stop, retry_seconds=self._retry, name="publisher"
        )

    def _serve(self, client: redis.Redis) -> None:
        lease, advance = client.register_script(_LEASE), client.register_script(_ADVANCE)
        keys = self._keys
        block_ms = max(100, self._lease_ms // 5)
        cursor = None  # where this holder goes on, known while it holds the lease
        while not self._stop.is_set():
            held = lease(keys=[keys.publisher], args=[self.holder, self._lease_ms])
            if not held:
                cursor = None
                self._stop.wait(self._lease_ms / 5000)
                continue
            if held == 2 or cursor is None:  # another holder may have moved it meanwhile
                cursor = self._cursor(client)
            answer = client.xread({keys.events: cursor}, block=block_ms, count=BATCH)
            entries = [entry for _, found in answer or [] for entry in found]
            if not entries:
                continue
            events = [entry_event(entry_id, fields) for entry_id, fields in entries]
            items, prev = [], cursor
            for event in events:
                items += publish_items(
                    self._prefix,
                    event,
                    prev if prev != "0-0" else None,
                    public_odds=self._public_odds,
                )
                prev = event.id
            self._send(publish_body(items))
            for event in events:
                LAG.observe(lag_of(event.id))
            SENT.inc(len(events) * len(self._proxies))
            if advance(keys=[keys.publisher, keys.published], args=[self.holder, prev]):
                self.published += len(events)
                cursor = prev
            else:
                cursor = None

    def _cursor(self, client: redis.Redis) -> str:
        """Where publishing goes on: the cursor, or the stream's end for the first publisher."""
        cursor = client.get(self._keys.published)
        if cursor is not None:
            return cursor.decode()
        newest = client.xrevrange(self._keys.events, count=1)
        start = newest[0][0].decode() if newest else "0-0"
        client.set(self._keys.published, start, nx=True)
        return client.get(self._keys.published).decode()

    def _send(self, body: bytes) -> None:
        """Publish to every proxy; an error leaves the cursor where it was (all again later)."""
        for url in self._proxies:
            request = urllib.request.Request(
                url, data=body, method="POST", headers={"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=5) as answer:
                answer.read()
