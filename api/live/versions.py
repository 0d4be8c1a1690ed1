"""Shoe versions known in this process, kept current by Redis pub/sub, so a hot read (a cached
picture) needs no round trip to Redis to know it is serving the current version.

- Every write script publishes ``table \\x1f shoe \\x1f version \\x1f current \\x1f seq``
  on the deployment's version channel (:attr:`api.storage.keys.Keyspace.versions_channel`; the
  format is :mod:`api.codecs.versionmessage`) when it commits (``current`` when the shoe is the
  table's current one, else empty; ``seq`` the table's write sequence number); a process that
  commits a write also records it at once (it reads its own writes) when it follows the versions
  already: a write does not start the watch (:meth:`VersionWatch.token_if_following`), so a
  process that takes no reads, an ingest door's worker, reads no message. The table's current shoe
  is the one of its latest write flagged ``current``: ordering by ``seq`` keeps a late message
  or a process's own record from putting an older shoe back.
- A subscriber thread per process (started on a read's first use, after any fork) raises the known
  versions as messages arrive. Versions only go up. It waits for each message in a blocking
  read: every worker that follows reads every write's message, and a read that waits costs
  about half the CPU of polling it with a timeout (measured in the load bench's ingest, 0.04 ms
  a round of the 0.07 ms the subscription costs). :meth:`VersionWatch.stop` ends the wait by
  closing the connection.
- Until the subscription is confirmed, and whenever it breaks, the known versions are dropped
  and readers ask Redis (``HGET``), as without this module. An answer read from Redis is
  remembered only if the subscription was already confirmed before the read began (the caller
  takes a :meth:`VersionWatch.token` first): a read made earlier may predate a write whose
  message this process never got.

A version another process committed is seen here once its message arrives (loopback pub/sub:
well under a millisecond), the same bound Redis's own client-side caching gives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from api.codecs.versionmessage import VersionMessage
from api.live.reconnecting import keep_serving
from api.storage.processthread import ProcessThread
from api.storage.versionfeed import SUBSCRIBED, VersionSubscription


class VersionWatch:
    """The versions of shoes this process has seen, while its subscription is healthy."""

    def __init__(
        self,
        subscribe: Callable[[], VersionSubscription],
        *,
        retry_seconds: float = 0.5,
        on_reset: Callable[[], None] | None = None,
    ) -> None:
        self._subscribe = subscribe
        # Called whenever what this process knew may be out of date (subscription lost or made
        # again, for example across a Redis restart): caches keyed by version are dropped too.
        self._on_reset = on_reset
        self._retry = retry_seconds
        self._versions: dict[tuple[str, str], int] = {}
        self._current: dict[str, tuple[int, str]] = {}  # table -> (write seq, shoe)
        self._lock = threading.Lock()
        self._healthy = False
        self._generation = 0  # raised whenever the subscription is made or lost
        self._listener = ProcessThread(self._listen, "version-watch")
        self._stop = threading.Event()
        self._subscription: VersionSubscription | None = None  # the one being read

    def get(self, table: str, shoe: str) -> int | None:
        """The shoe's version if this process knows it for sure, else ``None`` (ask Redis)."""
        self._ensure_running()
        if not self._healthy:
            return None
        return self._versions.get((table, shoe))

    def current(self, table: str) -> str | None:
        """The table's current shoe if this process knows it for sure, else ``None``."""
        self._ensure_running()
        if not self._healthy:
            return None
        known = self._current.get(table)
        return known[1] if known is not None else None

    def token(self) -> int | None:
        """Take before reading from Redis what :meth:`saw` or :meth:`saw_current` will record:
        ``None`` while not subscribed (nothing will be recorded)."""
        self._ensure_running()
        return self.token_if_following()

    def token_if_following(self) -> int | None:
        """:meth:`token` without starting the subscriber: a writer's. What a process committed
        is worth recording only for its own readers, and the first of those starts the watch;
        so a process that only writes (an ingest door's worker) never follows every write's
        message (redis-py's pub/sub reads cost such a worker a tenth of its CPU)."""
        return self._generation if self._healthy else None

    def saw_current(self, table: str, shoe: str, seq: int, token: int | None) -> None:
        """Record the table's current shoe as of its write ``seq``, read from Redis (or
        written) since ``token``."""
        with self._lock:
            if token is not None and token == self._generation and self._healthy:
                self._set_current(table, shoe, seq)

    def _set_current(self, table: str, shoe: str, seq: int) -> None:
        known = self._current.get(table)
        if known is None or seq > known[0]:
            self._current[table] = (seq, shoe)

    def saw(self, table: str, shoe: str, version: int, token: int | None) -> None:
        """Record a version read from Redis (or committed by this process) since ``token``."""
        key = (table, shoe)
        with self._lock:
            if token is None or token != self._generation or not self._healthy:
                return
            if version > self._versions.get(key, -1):
                self._versions[key] = version

    def stop(self) -> None:
        """Stop following: the subscriber thread ends (its read interrupted)."""
        self._stop.set()
        subscription = self._subscription
        if subscription is not None:
            subscription.interrupt()

    def following(self) -> bool:
        """Whether this process's subscriber thread runs (until :meth:`stop`)."""
        return self._listener.running()

    def _ensure_running(self) -> None:
        self._listener.ensure_running(self._start_afresh)

    def _start_afresh(self) -> None:
        with self._lock:
            self._healthy = False
            self._versions = {}

    def _listen(self) -> None:
        # Any failure: forget, fall back to Redis, and subscribe again.
        keep_serving(
            self._subscribed,
            self._follow,
            stop=self._stop,
            retry_seconds=self._retry,
            name="version watch",
            on_lost=lambda: self._set_healthy(False),
        )

    def _subscribed(self) -> VersionSubscription:
        self._subscription = self._subscribe()
        return self._subscription

    def _follow(self, subscription: VersionSubscription) -> None:
        while not self._stop.is_set():
            message = subscription.next()
            if message == SUBSCRIBED:
                self._set_healthy(True)
            elif isinstance(message, VersionMessage):
                self._apply(message)

    def _set_healthy(self, healthy: bool) -> None:
        with self._lock:
            # Whatever was known may have missed messages while unsubscribed: start afresh.
            self._versions = {}
            self._current = {}
            self._healthy = healthy
            self._generation += 1
        if self._on_reset is not None:
            self._on_reset()

    def _apply(self, message: VersionMessage) -> None:
        key = (message.table, message.shoe)
        with self._lock:
            if message.version > self._versions.get(key, -1):
                self._versions[key] = message.version
            if message.current:
                self._set_current(message.table, message.shoe, message.seq)
