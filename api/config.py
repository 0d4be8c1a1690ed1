"""Service settings, read from the environment (``ROADS_`` prefix; ``REDIS_URL`` too)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from api import envvalues as values
from api.envvalues import ConfigError
from api.redaction import redact_url, shown

__all__ = ["DOORS", "ConfigError", "Settings", "redact_url"]

# What ROADS_DOOR takes, the default first: one door taking everything (api.doors).
DOORS = ("both", "ingest", "public")


@dataclass(frozen=True)
class Settings:
    """Everything the service reads from its environment.

    - ``REDIS_URL`` or ``ROADS_REDIS_URL``: the Redis server. Without either the service refuses
      to start unless ``ROADS_DEMO=1`` (what ``scripts/serve`` sets): the demo then runs on an
      embedded in-process Redis (fakeredis), keeps nothing, and says so.
    - ``ROADS_INGEST_KEYS``: comma-separated API keys for the ingest endpoints, each
      ``name:secret`` (a bare secret is named ``ingest-1``, ``ingest-2``, ...; the key file,
      ``ROADS_KEY_FILE``, holds keys scoped to tables: :mod:`api.http.keyring`); none configured
      means ingest is refused. ``demo-key`` is refused outside the embedded demo.
    - ``ROADS_REDIS_CLUSTER``: ``1`` when the URL names a node of a Redis Cluster; the service
      then uses redis-py's ``RedisCluster`` client (see :mod:`api.storage.keys` for the key layout).
    - ``ROADS_WRITE_REPLICAS``: acknowledge a write only once this many replicas have it
      (``WAIT``; default 0: acknowledged when the master has it). ``ROADS_WRITE_WAIT_MS``: how
      long to wait for them (default 500) before answering 503 (the retry is safe).
    - ``ROADS_REDIS_TIMEOUT``: socket timeout in seconds (short, so a dead Redis answers 503 fast).
    - ``ROADS_MAX_BODY``: largest request body in bytes (413 beyond).
    - ``ROADS_CACHE_TTL`` / ``ROADS_STATE_TTL``: lifetime in seconds of cached responses and of
      cached scorecard states (both are rebuilt from the rounds when gone).
    - ``ROADS_DEMO``: feed demo tables from the shoe simulator (off by default); ``1`` without a
      Redis URL is the embedded demo.
    - ``ROADS_SSE_HEARTBEAT``: seconds between heartbeat comments on ``/v1/events`` (15).
    - ``ROADS_NAMESPACE``: a prefix for every key and channel name, for deployments that share a
      Redis database or a cluster (1-32 letters, digits, ``_ . -``; none by default). Deployments
      on different databases of one server are kept apart without it.
    - ``ROADS_TRANSPORT``: ``links`` (default) sends each node's pipelines on a connection held
      for it; ``pipeline`` uses redis-py's stock pipelines (see :mod:`api.storage.transport`).
    - ``ROADS_GRIP_URL``: the publish endpoints of the GRIP proxies in front of the service
      (Pushpin's HTTP control port, e.g. ``http://127.0.0.1:5561``; comma-separated for several):
      ``/v1/events`` requests that come through a proxy are then held by it, and one elected
      process publishes the events to every proxy (see :mod:`api.live.grip`). None by default.
    - ``ROADS_NCHAN_URL``: nchan publisher locations (nginx, ``http://127.0.0.1:8080/pub``;
      comma-separated for several) to which one elected process publishes each lobby frame, as
      the frames' other fan-out tier (:mod:`api.live.framepublisher`). None by default.
    - ``ROADS_CORS_ORIGINS``: the origins (``https://lobby.example.com``, comma-separated) whose
      pages may read the API from a browser: JSON, pictures, the event stream. None by default.
      ``ROADS_CORS_INGEST=1`` lets the same origins send rounds too (the write methods and the
      ``X-API-Key`` header pass the preflight); off by default.
    - ``ROADS_READ_KEYS``: comma-separated keys that read the odds and the edge flags (the
      bets returning over 100% now: worth money to a player betting against the house), sent as
      ``X-API-Key`` or, on the event stream, ``?key=``; an ingest key reads them too.
      ``ROADS_PUBLIC_ODDS=1`` shows them to everyone (the demo command sets it). Neither: no one.
    - ``ROADS_RENDERERS``: picture painter processes per service process (0, the default, paints
      in the process); ``ROADS_RENDER_QUEUE``: pictures that may wait in a process (8), and
      ``ROADS_RENDER_RATE``: pictures a process paints in itself a second, in bursts of as many
      (50); past either a picture is a 503 (:mod:`api.images.pool`).
    - ``ROADS_CUSTOM_QUERIES``: Good Roads queries with custom patterns computed at once in a
      process (2); ``ROADS_FEED_CLIENTS``: live-feed clients a process holds (3000, under the
      worker's 4000 connections so that ingest always connects); past either, a 503.
      ``ROADS_FEED_ACCEPTS``: new lobby viewers a process takes a second (500; 0 for no pace);
      past it a viewer is told to come back in 2-5 s.
    - ``ROADS_DATABASE_URL``: the record's PostgreSQL (``postgresql://user@host/db``): every
      acknowledged write is copied there by one leased recorder, and a closed shoe leaves Redis
      ``ROADS_HOT_SECONDS`` after it closed (86400) once the record holds it, read from the
      record when asked for (:mod:`api.record`). None by default: the record is off and Redis
      keeps every round.
    - ``ROADS_FRAME_MS``: the lobby feed in frames (``/v1/events``) sends at most one
      frame this often, in milliseconds (500).
    - ``ROADS_INTEGRITY``: the integrity watch (on by default; ``0`` turns it off);
      ``ROADS_OPERATOR_KEYS``: the keys that read its answers (``/v1/integrity/...``; none: 401
      for everyone); ``ROADS_SIDE_BETS_CLOSE_AFTER``: the rounds after which side bets close
      (``44``, or ``player_bonus=44,player_pair=60,...``); ``ROADS_CUT_CARD_BEHIND``: the
      fewest cards behind the cut card (14; seed 002's house rule is 52);
      ``ROADS_INTEGRITY_INDEX``: k-grams in each of the repeat index's two generations
      (1,000,000). See ``docs/operations.md``.
    - ``ROADS_RARITY_HANDS``: the hands of the shoe that the chance beside a run or a Good Road
      is stated for (80: what a shoe of 8 decks with the cut card 14 cards from the back deals
      on average; 1 to 104).
    - ``ROADS_ACCESS_LOG``: the access log, one JSON line a request on standard error (on by
      default; ``0`` turns it off), queued and written in batches off the request path
      (:mod:`api.accesslog`); ``ROADS_REQUEST_METRICS``: the requests counted by route and
      status, with their latency (on by default; ``0`` turns them off). See
      ``docs/operations.md``.
    - Security (see ``docs/security.md``): ``ROADS_GRIP_KEY``, the key the GRIP proxy signs
      ``Grip-Sig`` with (Pushpin's ``sig_key``; HS256): a ``Grip-*`` header counts only on a
      request whose signature verifies. ``ROADS_KEY_FILE``: the named, scoped keys, one a line
      (re-read on SIGHUP). ``ROADS_PUBLIC_RECORD=1``: the record's reads need no key;
      ``ROADS_RECORD_READS``: record reads at once in a process (4); ``ROADS_RECORD_TIMEOUT_MS``:
      a record statement's timeout (5000); ``ROADS_RECORD_LEASE_MS``: the recorder's lease, how
      long after a dead recorder's last pass another takes over at most (5000; the suite
      shortens it). ``ROADS_CHECKPOINT_SECONDS`` (60), ``ROADS_CHECKPOINT_KEY`` (the Ed25519
      private key file) and ``ROADS_CHECKPOINT_DIR`` (where signed checkpoints are appended):
      the record's signed checkpoints.
      ``ROADS_RECORD_ROLE``: the service's PostgreSQL role, which ``python -m
      api.record.migrate`` (run as the owner) grants what the service needs, and no more.
      ``ROADS_FRAME_ANCESTORS``: the pages that may embed the lobby (CSP ``frame-ancestors``;
      ``'none'`` by default). ``ROADS_HEAD_TIMEOUT`` (10) and ``ROADS_BODY_TIMEOUT`` (30):
      seconds a client has to send a request's head, and its body, before it is cut off.
    - The doors (:mod:`api.doors`, ``docs/operations.md`` "Two doors"): ``ROADS_DOOR``, which
      door this process is: ``both`` (the default: one door taking everything), ``ingest``
      (the game servers' writes, and reads) or ``public`` (reads and the live feed; a write
      is a 421 naming the ingest door, :mod:`api.http.misdirected`). Read by gunicorn's
      configuration (:mod:`api.gunicornconf`) and the supervisor, not the app:
      ``ROADS_BIND`` (127.0.0.1:8000) and ``ROADS_WORKERS`` (one a core): the public door's,
      or the single door's; ``ROADS_INGEST_BIND`` (127.0.0.1:8001) and
      ``ROADS_INGEST_WORKERS`` (1): the ingest door's; ``ROADS_NICE``: the public door's
      workers' lower CPU priority (10 with two doors; 0 for a single door);
      ``ROADS_RECORDER=0``: no recorder process in this gunicorn master (what ``--door`` sets).
    """

    redis_url: str | None = None
    cluster: bool = False
    write_replicas: int = 0
    write_wait_ms: int = 500
    # Each name:secret; in the app's copy, the key's name alone (api.http.keyring.Keys).
    ingest_keys: tuple[str, ...] = field(default=(), repr=False)
    redis_timeout: float = 0.5
    # The largest valid batch (200 rounds, the longest ids) is 57 KB as compact JSON, 70 KB
    # indented: any body its schema admits fits.
    max_body: int = 128 * 1024
    cache_ttl: int = 3600
    state_ttl: int = 2 * 86400
    demo: bool = False
    sse_heartbeat: float = 15.0
    namespace: str | None = None
    transport: str = "links"
    grip_urls: tuple[str, ...] = ()
    nchan_urls: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()
    cors_ingest: bool = False
    access_log: bool = True
    request_metrics: bool = True
    read_keys: tuple[str, ...] = field(default=(), repr=False)
    public_odds: bool = False
    renderers: int = 0
    render_queue: int = 8
    render_rate: float = 50.0
    custom_queries: int = 2
    feed_clients: int = 3000
    feed_accepts: float = 500.0
    database_url: str | None = None
    hot_seconds: int = 86400
    frame_ms: int = 500
    integrity: bool = True
    operator_keys: tuple[str, ...] = field(default=(), repr=False)
    side_bets_close_after: str = ""
    cut_card_behind: int = 14
    integrity_index: int = 1_000_000
    rarity_hands: int = 80
    # Security (docs/security.md). Each is read in from_env below.
    grip_key: str | None = field(default=None, repr=False)
    key_file: str | None = None
    public_record: bool = False
    record_reads: int = 4
    record_timeout_ms: int = 5000
    record_lease_ms: int = 5000  # api.record.recorder.LEASE_MS
    checkpoint_seconds: int = 60
    checkpoint_key: str | None = None
    checkpoint_dir: str | None = None
    record_role: str | None = None
    frame_ancestors: str = "'none'"
    head_timeout: float = 10.0
    body_timeout: float = 30.0
    door: str = "both"  # which door this process is (api.doors)

    @property
    def recording(self) -> bool:
        """Whether the record is on (a database is configured)."""
        return self.database_url is not None

    @property
    def embedded(self) -> bool:
        return self.redis_url is None

    def __repr__(self) -> str:
        """Every setting but the secrets: each key (ingest, read, operator, the GRIP key, any
        field named for a key, secret, password or token, file paths aside) is shown as
        ``***``, and a URL's password as ``***`` (what ``str()`` and a log line show too)."""
        each = (f"{f.name}={shown(f.name, getattr(self, f.name))}" for f in fields(self))
        return f"Settings({', '.join(each)})"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        redis_url = env.get("ROADS_REDIS_URL") or env.get("REDIS_URL") or None
        keys = values.keys(env, "ROADS_INGEST_KEYS")
        return cls(
            redis_url=redis_url,
            cluster=values.flag(env, "ROADS_REDIS_CLUSTER", default=False),
            write_replicas=values.count(env, "ROADS_WRITE_REPLICAS"),
            write_wait_ms=values.number(env, "ROADS_WRITE_WAIT_MS", 500, int),
            ingest_keys=keys,
            redis_timeout=values.number(env, "ROADS_REDIS_TIMEOUT", 0.5, float),
            max_body=values.number(env, "ROADS_MAX_BODY", 128 * 1024, int),
            cache_ttl=values.number(env, "ROADS_CACHE_TTL", 3600, int),
            state_ttl=values.number(env, "ROADS_STATE_TTL", 2 * 86400, int),
            demo=values.demo(env, redis_url),
            sse_heartbeat=values.number(env, "ROADS_SSE_HEARTBEAT", 15.0, float),
            namespace=values.namespace(env),
            transport=values.choice(env, "ROADS_TRANSPORT", ("links", "pipeline")),
            grip_urls=values.urls(env, "ROADS_GRIP_URL"),
            nchan_urls=values.urls(env, "ROADS_NCHAN_URL"),
            cors_origins=values.origins(env, "ROADS_CORS_ORIGINS"),
            cors_ingest=values.flag(env, "ROADS_CORS_INGEST", default=False),
            access_log=values.access_log(env),
            request_metrics=values.flag(env, "ROADS_REQUEST_METRICS", default=True),
            read_keys=values.keys(env, "ROADS_READ_KEYS"),
            public_odds=values.flag(env, "ROADS_PUBLIC_ODDS", default=False),
            renderers=values.count(env, "ROADS_RENDERERS"),
            render_queue=values.count(env, "ROADS_RENDER_QUEUE", default=8),
            render_rate=values.number(env, "ROADS_RENDER_RATE", 50.0, float),
            custom_queries=values.number(env, "ROADS_CUSTOM_QUERIES", 2, int),
            feed_clients=values.number(env, "ROADS_FEED_CLIENTS", 3000, int),
            feed_accepts=values.number(env, "ROADS_FEED_ACCEPTS", 500.0, float),
            database_url=values.database(env),
            hot_seconds=values.number(env, "ROADS_HOT_SECONDS", 86400, int),
            frame_ms=values.number(env, "ROADS_FRAME_MS", 500, int),
            integrity=values.flag(env, "ROADS_INTEGRITY", default=True),
            operator_keys=values.keys(env, "ROADS_OPERATOR_KEYS"),
            side_bets_close_after=values.close_after(env),
            cut_card_behind=values.number(env, "ROADS_CUT_CARD_BEHIND", 14, int),
            integrity_index=values.number(env, "ROADS_INTEGRITY_INDEX", 1_000_000, int),
            rarity_hands=values.hands(env),
            grip_key=values.grip_key(env),
            key_file=env.get("ROADS_KEY_FILE", "").strip() or None,
            public_record=values.flag(env, "ROADS_PUBLIC_RECORD", default=False),
            record_reads=values.number(env, "ROADS_RECORD_READS", 4, int),
            record_timeout_ms=values.number(env, "ROADS_RECORD_TIMEOUT_MS", 5000, int),
            record_lease_ms=values.number(env, "ROADS_RECORD_LEASE_MS", 5000, int),
            checkpoint_seconds=values.number(env, "ROADS_CHECKPOINT_SECONDS", 60, int),
            checkpoint_key=env.get("ROADS_CHECKPOINT_KEY", "").strip() or None,
            checkpoint_dir=env.get("ROADS_CHECKPOINT_DIR", "").strip() or None,
            record_role=env.get("ROADS_RECORD_ROLE", "").strip() or None,
            frame_ancestors=values.frame_ancestors(env),
            head_timeout=values.number(env, "ROADS_HEAD_TIMEOUT", 10.0, float),
            body_timeout=values.number(env, "ROADS_BODY_TIMEOUT", 30.0, float),
            door=values.choice(env, "ROADS_DOOR", DOORS),
        )
