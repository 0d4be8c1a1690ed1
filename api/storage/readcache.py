"""The read cache: every answer built from a shoe's scorecard (roads JSON, stats, probe, odds,
PNG pictures) is found or built here, by one path, :meth:`ReadCache.get_or_build`:

1. the shoe's version known in this process (:mod:`api.live.versions`), and the client already
   holding that answer (a 304), or this process's memory of it (:mod:`.memo`);
2. else one round trip to Redis: the shoe's version and the answer cached at that version, or
   the claim to build it, with the shoe's cached state to build it from;
3. claimed: built here from that state (or the shoe's scorecard, :mod:`.states`) and cached for
   everyone; not claimed: another request is building it, so wait briefly for its bytes
   (single-flight), and build here only if they do not come.

Every cached answer carries the version it was built at and is used only at that version, so a
reader never sees a mix of old rounds and a new scorecard; anything evicted or flushed is built
again on the next read.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

from api.codecs.stamps import stamped
from api.metrics import read_cache
from api.storage.failures import NotFound, Retired
from api.storage.keys import Keyspace
from api.storage.known import KnownVersions
from api.storage.memo import Memo
from api.storage.scripts import Lookup, ReadCached, ReadOrClaim
from api.storage.states import ShoeStates, stamped_scorecard
from api.storage.transport import Transport
from roads import Scorecard

Build = Callable[[int, Scorecard], bytes]  # the answer's bytes at a version, from its scorecard


class Answer(NamedTuple):
    """An answer at the shoe's ``version``: its ``body``, or ``None`` when the client holds it
    already (answer 304)."""

    version: int
    body: bytes | None


def never(version: int) -> bool:
    return False


class ReadCache:
    """Answers of every shoe, found or built once (one per process, wired in the app factory).
    ``claim_ms``: how long a claim to build lasts (it outlives any build); ``wait_seconds``:
    how long the others wait for the builder's bytes before building themselves."""

    def __init__(
        self,
        transport: Transport,
        keys: Keyspace,
        versions: KnownVersions,
        states: ShoeStates,
        *,
        memo: Memo,
        cache_ttl: int,
        claim_ms: int = 2000,
        wait_seconds: float = 1.0,
        poll_seconds: float = 0.02,
    ) -> None:
        self.transport = transport
        self.keys = keys
        self.versions = versions
        self.states = states
        self.cache_ttl = cache_ttl
        self.claim_ms = claim_ms
        self.wait_seconds = wait_seconds
        self.poll_seconds = poll_seconds
        # Answers this process served lately, keyed by (table, shoe, name, version).
        self.memo = memo

    def get_or_build(
        self,
        table: str,
        shoe: str,
        name: str,
        build: Build,
        *,
        held: Callable[[int], bool] = never,
        shared: bool = True,
    ) -> Answer:
        """The answer ``name`` of the shoe at its current version (see the module doc);
        ``held(version)`` says whether the client already holds it at that version. Raises
        :class:`NotFound` for an unknown shoe, :class:`Retired` for a retired table's. Counted
        in ``roads_read_cache_total`` by the kind of answer (``name`` up to its first ``:``)
        and where it came from.

        An answer not ``shared`` (one of the variants anyone may ask for, outside the set every
        lobby uses) is kept in this process's memo only, never in Redis: no reader can grow the
        Redis that holds the rounds."""
        kind = name.partition(":")[0]
        known = self.versions.get(table, shoe)
        if known is not None:
            if held(known):
                read_cache(kind, "held").inc()
                return Answer(known, None)
            body = self.memo.get((table, shoe, name, known))
            if body is not None:
                read_cache(kind, "memory").inc()
                return Answer(known, body)
        if not shared:
            return self._built_here(table, shoe, name, build, held, kind)
        found = self._look_up(table, shoe, name)
        version = found.version
        assert version is not None
        if held(version):
            if found.claimed:
                self.transport.command("DEL", self.keys.shoe(table, shoe).claim(name))
            read_cache(kind, "held").inc()
            return Answer(version, None)
        body = found.body
        outcome = "redis"
        if body is None:
            version, body = self._build_once(table, shoe, name, found, build)
            outcome = "built"
        self.memo.put((table, shoe, name, version), body)
        read_cache(kind, outcome).inc()
        return Answer(version, body)

    def _built_here(
        self, table: str, shoe: str, name: str, build: Build, held: Callable[[int], bool], kind: str
    ) -> Answer:
        version, scorecard = self.states.current(table, shoe)
        if held(version):
            read_cache(kind, "held").inc()
            return Answer(version, None)
        body = self.memo.get((table, shoe, name, version))
        if body is None:
            body = build(version, scorecard)
            self.memo.put((table, shoe, name, version), body)
        read_cache(kind, "local").inc()
        return Answer(version, body)

    def _look_up(self, table: str, shoe: str, name: str) -> Lookup:
        return self._read(
            table, shoe, ReadOrClaim(self.keys.shoe(table, shoe), name, self.claim_ms)
        )

    def _cached(self, table: str, shoe: str, name: str) -> Lookup:
        return self._read(table, shoe, ReadCached(self.keys.shoe(table, shoe), name))

    def _read(self, table: str, shoe: str, read: ReadOrClaim | ReadCached) -> Lookup:
        token = self.versions.token()  # before the read: its version may then be recorded
        found = read.parse(self.transport.send_one(read.keys.info, read.queue, read.run))
        if found.version is None and not found.retired and self.states.warm(table, shoe):
            found = read.parse(self.transport.send_one(read.keys.info, read.queue, read.run))
        if found.retired:
            raise Retired(table)
        if found.version is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        self.versions.saw(table, shoe, found.version, token)
        return found

    def _build_once(
        self, table: str, shoe: str, name: str, found: Lookup, build: Build
    ) -> tuple[int, bytes]:
        """An answer missing from the cache at ``found.version``: the request that claimed it
        builds it while the others wait briefly for its bytes, and it is cached for everyone.
        Returns (version built at, body)."""
        if not found.claimed:
            deadline = time.monotonic() + self.wait_seconds
            while time.monotonic() < deadline:
                time.sleep(self.poll_seconds)
                now = self._cached(table, shoe, name)
                if now.body is not None:
                    return now.version, now.body  # type: ignore[return-value]
                if now.version != found.version:
                    break  # the shoe moved on: build the newer one here
        cached = stamped_scorecard(found.state, found.version) if found.claimed else None
        if cached is not None:
            version, scorecard = found.version, cached
        else:
            version, scorecard = self.states.current(table, shoe)
        body = build(version, scorecard)
        key = self.keys.shoe(table, shoe).cache(name)
        value = stamped(version, body)
        # A cache: lost with its node at worst, and rebuilt; no wait for replicas.
        self.transport.send_one(
            key,
            lambda commands: commands.execute_command("SET", key, value, "EX", self.cache_ttl),
            lambda client: client.set(key, value, ex=self.cache_ttl),
        )
        return version, body  # type: ignore[return-value]
