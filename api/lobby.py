"""The lobby-wide view in Redis: every table's summary, Good Roads membership and the events.

A lobby request reads every table at once, so its data lives in a few keys that hold all tables,
read in one round trip whatever the number of tables:

- ``{lobby}:tables``: hash table -> ``{"name", "variant"}`` (the registry of tables);
- ``{lobby}:summaries``: hash table -> the current shoe's summary (:func:`roads.lobby.summary`
  plus ``shoe`` and ``version``);
- ``{lobby}:shapes``: hash table -> the Big Road's columns (:class:`roads.lobby.RoadShape`), for
  matching a client's own pattern;
- ``{lobby}:matched``: hash table -> the patterns it matches (``id=since_round,...``);
- ``{lobby}:edges``: hash table -> the bets with a return above 100% now (``bet=rtp,...``);
- ``{lobby}:good:PATTERN``: hash table -> since_round, one per built-in pattern (the members);
- ``{lobby}:grown:ROAD``: hash table -> the lobby sequence number at which the table's current
  run on ROAD last grew, removed when another run starts (for the "grew since" badge);
- ``{lobby}:seq``: the lobby sequence number, raised by every update (the badge cursor);
- ``{lobby}:epoch``: a random name for this lobby's life: if Redis loses the lobby, sequence
  numbers start again under a new epoch, so no answer cached under the old one is served;
- ``{lobby}:applied``: hash table -> the last table write applied here;
- ``{lobby}:events``: the Redis Stream the live event feed (``/v1/events``) reads.

**No cross-slot command.** All of these share the hash tag ``{lobby}`` (one Redis Cluster slot),
and every table's own keys share ``{t:TABLE}``. A write is committed by a script on the table's
slot, which also keeps the lobby update it implies (``{t:TABLE}:lobby``, numbered by the table's
write sequence); the service then hands that update to a second script, on the lobby's slot
(:data:`api.scripts.LOBBY_PUBLISH`). That script applies each table's updates once and in order
(an older or repeated one changes nothing), so a retry of a write whose answer was lost hands the
stored update over again safely (see :meth:`Lobby.republish`). Between the two steps the lobby
can lag the table by one write; the write is answered only after both.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import redis

from api.localcache import LocalCache
from roads import Round, Scorecard
from roads.lobby import LOBBY_ROADS, RoadShape, run_changes, sort_key, summary
from roads.patterns import PATTERNS, Pattern

TAG = "{lobby}"
APPLIED = f"{TAG}:applied"
TABLES = f"{TAG}:tables"
SUMMARIES = f"{TAG}:summaries"
SHAPES = f"{TAG}:shapes"
MATCHED = f"{TAG}:matched"
EDGES = f"{TAG}:edges"
SEQ = f"{TAG}:seq"
EPOCH = f"{TAG}:epoch"
EVENTS = f"{TAG}:events"
STREAM_LENGTH = 20_000  # events kept for clients that resume (approximate, trimmed by Redis)


def grown_key(road: str) -> str:
    return f"{TAG}:grown:{road}"


def good_key(pattern: str) -> str:
    return f"{TAG}:good:{pattern}"


PUBLISH_KEYS = [
    APPLIED,
    TABLES,
    SUMMARIES,
    SHAPES,
    MATCHED,
    SEQ,
    EVENTS,
    EDGES,
    *(grown_key(road) for road in LOBBY_ROADS),
    *(good_key(pattern.id) for pattern in PATTERNS),
]


def _json(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"))


def registry_entry(name: str, variant: str) -> str:
    return _json({"name": name, "variant": variant})


def update_of(
    table: str,
    shoe: str,
    version: int,
    scorecard: Scorecard,
    *,
    variant: str,
    before: dict[str, Any] | None,
    events: Iterable[tuple[str, dict[str, Any]]],
) -> str:
    """The lobby update a write implies, as JSON: the shoe's summary after the write, its road
    shape, the patterns matched, how each road's current run changed from ``before`` (the
    streaks before the write; ``None`` for a new or rebuilt shoe), the bets with the edge under
    the table's ``variant``, and the write's events."""
    tile = summary(scorecard, variant)
    return _json(
        {
            "shoe": shoe,
            "summary": _json({"shoe": shoe, "version": version, **tile}),
            "shape": _json(RoadShape.of(scorecard).as_dict()),
            "matched": ",".join(f"{g['pattern']}={g['since_round']}" for g in tile["good_roads"]),
            "runs": ",".join(
                f"{road}={'+' if change == 'grew' else '-'}"
                for road, change in run_changes(before, tile["streaks"]).items()
            ),
            "edges": ",".join(f"{bet}={rtp:.6f}" for bet, rtp in tile["edge"].items()),
            "events": [[kind, _json(data)] for kind, data in events],
        }
    )


def round_event(table: str, shoe: str, version: int, number: int, round: Round) -> dict[str, Any]:
    return {
        "table": table,
        "shoe": shoe,
        "version": version,
        "round": number,
        "result": round.result,
        "void": round.void,
    }


class Lobby:
    """Reads and updates of the lobby-wide structures."""

    def __init__(
        self, client: Callable[[], redis.Redis], publish_script: Callable[[], Any]
    ) -> None:
        # Both are the store's, made on first use (after any fork).
        self._client = client
        self._publish = publish_script
        # Parsed JSON per table, reused while the stored bytes are unchanged.
        self._parsed: dict[tuple[str, str], tuple[bytes, Any]] = {}
        # Whole answers, the same for every client until the cursor moves: (epoch, cursor,
        # query) -> body.
        self.answers = LocalCache(max_bytes=8 * 1024 * 1024)

    # -- updates ----------------------------------------------------------------------------

    def register(self, table: str, name: str, variant: str) -> None:
        """Name a table in the lobby (and move the lobby's cursor: its answers changed)."""
        pipe = self._client().pipeline(transaction=True)
        pipe.hset(TABLES, table, registry_entry(name, variant))
        pipe.incr(SEQ)
        pipe.execute()

    def publish(self, table: str, seq: int, current: bool, update: str) -> None:
        """Hand a committed write's lobby update to the lobby (once; see the module doc)."""
        data = json.loads(update)
        args: list[Any] = [
            table,
            seq,
            int(current),
            registry_entry(table, "standard"),
            STREAM_LENGTH,
            data["shoe"],
            data["summary"],
            data["shape"],
            data["matched"],
            data["runs"],
            data["edges"],
        ]
        for kind, event in data["events"]:
            args += [kind, event]
        self._publish()(keys=PUBLISH_KEYS, args=args, client=self._client())

    def republish(self, table: str, stored: bytes | None) -> None:
        """Hand over the table's last stored update again (``SEQ:CURRENT:JSON``), for a retried
        write whose first answer may have been lost before its update reached the lobby."""
        if stored is None:
            return
        seq, current, update = stored.decode().split(":", 2)
        self.publish(table, int(seq), current == "1", update)

    # -- reads ------------------------------------------------------------------------------

    def cursor(self) -> tuple[str, int]:
        """(epoch, lobby sequence number): what every lobby answer is cached under."""
        pipe = self._client().pipeline(transaction=True)
        pipe.get(EPOCH)
        pipe.get(SEQ)
        epoch, seq = pipe.execute()
        return self._epoch(epoch), int(seq or 0)

    def tables(
        self, *, grown_road: str | None = None
    ) -> tuple[tuple[str, int], list[dict[str, Any]], dict]:
        """((epoch, lobby sequence number), every table's tile, the ``grown`` hash of
        ``grown_road``), all read at one instant."""
        pipe = self._client().pipeline(transaction=True)
        pipe.get(EPOCH)
        pipe.get(SEQ)
        pipe.hgetall(TABLES)
        pipe.hgetall(SUMMARIES)
        if grown_road is not None:
            pipe.hgetall(grown_key(grown_road))
        epoch, seq, registry, summaries, *grown = pipe.execute()
        tiles = [
            self._tile(table, entry, summaries.get(table)) for table, entry in registry.items()
        ]
        return (self._epoch(epoch), int(seq or 0)), tiles, (grown[0] if grown else {})

    def _epoch(self, epoch: bytes | None) -> str:
        if epoch is None:  # a new lobby, or one Redis lost: name this life of it
            self._client().set(EPOCH, secrets.token_hex(8), nx=True)
            epoch = self._client().get(EPOCH)
        return epoch.decode()

    def members(self, patterns: Sequence[str]) -> list[tuple[str, str, int]]:
        """(table, pattern, since_round) of every table that matches each built-in pattern."""
        pipe = self._client().pipeline(transaction=False)
        for pattern in patterns:
            pipe.hgetall(good_key(pattern))
        found = []
        for pattern, members in zip(patterns, pipe.execute(), strict=True):
            found += [(table.decode(), pattern, int(since)) for table, since in members.items()]
        return found

    def custom_members(self, patterns: Sequence[Pattern]) -> list[tuple[str, str, int]]:
        """(table, pattern id, since_round) of every table whose Big Road matches a client's
        own pattern now."""
        found = []
        for table, raw in self._client().hgetall(SHAPES).items():
            shape = RoadShape.from_dict(self._parse("shape", table.decode(), raw))
            for good in shape.good_roads(patterns):
                found.append((table.decode(), good["pattern"], good["since_round"]))
        return found

    def tiles_of(self, tables: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The tiles of these tables (one round trip)."""
        if not tables:
            return {}
        pipe = self._client().pipeline(transaction=True)
        pipe.hmget(TABLES, tables)
        pipe.hmget(SUMMARIES, tables)
        entries, summaries = pipe.execute()
        return {
            table: self._tile(table.encode(), entry, tile)
            for table, entry, tile in zip(tables, entries, summaries, strict=True)
            if entry is not None
        }

    def _tile(self, table: bytes, entry: bytes | None, raw: bytes | None) -> dict[str, Any]:
        name = table.decode()
        meta = self._parse("table", name, entry) if entry else {"name": name, "variant": "standard"}
        tile = self._parse("summary", name, raw) if raw else EMPTY
        return {"table": name, **meta, **tile}

    def _parse(self, kind: str, table: str, raw: bytes) -> Any:
        known = self._parsed.get((kind, table))
        if known is not None and known[0] == raw:
            return known[1]
        value = json.loads(raw)
        self._parsed[(kind, table)] = (raw, value)
        return value


EMPTY: dict[str, Any] = {
    "shoe": None,
    "version": 0,
    "rounds_played": 0,
    "recent": [],
    "streaks": {
        road: {
            "current": {"side": None, "length": 0},
            "longest": {"side": None, "length": 0},
        }
        for road in LOBBY_ROADS
    },
    "good_roads": [],
    "edge": {},
}


def sorted_by_streak(tiles: list[dict[str, Any]], road: str) -> list[dict[str, Any]]:
    """Longest current run on ``road`` first, then longest run of the shoe, then by id."""
    by_id = sorted(tiles, key=lambda tile: tile["table"])
    return sorted(by_id, key=lambda tile: sort_key(road, tile), reverse=True)
