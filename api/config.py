"""Service settings, read from the environment (``ROADS_`` prefix; ``REDIS_URL`` too)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

NAMESPACE = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


class ConfigError(ValueError):
    """An environment variable holds a value the service cannot use."""


@dataclass(frozen=True)
class Settings:
    """Everything the service reads from its environment.

    - ``REDIS_URL`` or ``ROADS_REDIS_URL``: the Redis server; when neither is set the service runs
      on an embedded in-process Redis (fakeredis) and says so.
    - ``ROADS_INGEST_KEYS``: comma-separated API keys for the ingest endpoints; none configured
      means ingest is refused.
    - ``ROADS_REDIS_CLUSTER``: ``1`` when the URL names a node of a Redis Cluster; the service
      then uses redis-py's ``RedisCluster`` client (see :mod:`api.storage.keys` for the key layout).
    - ``ROADS_WRITE_REPLICAS``: acknowledge a write only once this many replicas have it
      (``WAIT``; default 0: acknowledged when the master has it). ``ROADS_WRITE_WAIT_MS``: how
      long to wait for them (default 500) before answering 503 (the retry is safe).
    - ``ROADS_REDIS_TIMEOUT``: socket timeout in seconds (short, so a dead Redis answers 503 fast).
    - ``ROADS_MAX_BODY``: largest request body in bytes (413 beyond).
    - ``ROADS_CACHE_TTL`` / ``ROADS_STATE_TTL``: lifetime in seconds of cached responses and of
      cached scorecard states (both are rebuilt from the rounds when gone).
    - ``ROADS_DEMO``: feed demo tables from the shoe simulator (default: on when embedded).
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
    """

    redis_url: str | None = None
    cluster: bool = False
    write_replicas: int = 0
    write_wait_ms: int = 500
    ingest_keys: tuple[str, ...] = ()
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
    read_keys: tuple[str, ...] = ()
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
    operator_keys: tuple[str, ...] = ()
    side_bets_close_after: str = ""
    cut_card_behind: int = 14
    integrity_index: int = 1_000_000
    rarity_hands: int = 80

    @property
    def recording(self) -> bool:
        """Whether the record is on (a database is configured)."""
        return self.database_url is not None

    @property
    def embedded(self) -> bool:
        return self.redis_url is None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        redis_url = env.get("ROADS_REDIS_URL") or env.get("REDIS_URL") or None
        keys = _keys(env, "ROADS_INGEST_KEYS")
        return cls(
            redis_url=redis_url,
            cluster=_flag(env, "ROADS_REDIS_CLUSTER", default=False),
            write_replicas=_count(env, "ROADS_WRITE_REPLICAS"),
            write_wait_ms=_number(env, "ROADS_WRITE_WAIT_MS", 500, int),
            ingest_keys=keys,
            redis_timeout=_number(env, "ROADS_REDIS_TIMEOUT", 0.5, float),
            max_body=_number(env, "ROADS_MAX_BODY", 128 * 1024, int),
            cache_ttl=_number(env, "ROADS_CACHE_TTL", 3600, int),
            state_ttl=_number(env, "ROADS_STATE_TTL", 2 * 86400, int),
            demo=_flag(env, "ROADS_DEMO", default=redis_url is None),
            sse_heartbeat=_number(env, "ROADS_SSE_HEARTBEAT", 15.0, float),
            namespace=_namespace(env),
            transport=_choice(env, "ROADS_TRANSPORT", ("links", "pipeline")),
            grip_urls=_urls(env, "ROADS_GRIP_URL"),
            nchan_urls=_urls(env, "ROADS_NCHAN_URL"),
            cors_origins=_origins(env, "ROADS_CORS_ORIGINS"),
            cors_ingest=_flag(env, "ROADS_CORS_INGEST", default=False),
            access_log=_access_log(env),
            request_metrics=_flag(env, "ROADS_REQUEST_METRICS", default=True),
            read_keys=_keys(env, "ROADS_READ_KEYS"),
            public_odds=_flag(env, "ROADS_PUBLIC_ODDS", default=False),
            renderers=_count(env, "ROADS_RENDERERS"),
            render_queue=_count(env, "ROADS_RENDER_QUEUE", default=8),
            render_rate=_number(env, "ROADS_RENDER_RATE", 50.0, float),
            custom_queries=_number(env, "ROADS_CUSTOM_QUERIES", 2, int),
            feed_clients=_number(env, "ROADS_FEED_CLIENTS", 3000, int),
            feed_accepts=_number(env, "ROADS_FEED_ACCEPTS", 500.0, float),
            database_url=_database(env),
            hot_seconds=_number(env, "ROADS_HOT_SECONDS", 86400, int),
            frame_ms=_number(env, "ROADS_FRAME_MS", 500, int),
            integrity=_flag(env, "ROADS_INTEGRITY", default=True),
            operator_keys=_keys(env, "ROADS_OPERATOR_KEYS"),
            side_bets_close_after=_close_after(env),
            cut_card_behind=_number(env, "ROADS_CUT_CARD_BEHIND", 14, int),
            integrity_index=_number(env, "ROADS_INTEGRITY_INDEX", 1_000_000, int),
            rarity_hands=_hands(env),
        )


def _hands(env: Mapping[str, str]) -> int:
    """The hands of the shoe a run's or a Good Road's chance is stated for (1 to 104: the most
    a shoe of 8 decks deals)."""
    hands = _number(env, "ROADS_RARITY_HANDS", 80, int)
    if not 1 <= hands <= 104:
        raise ConfigError(f"ROADS_RARITY_HANDS is 1 to 104 hands (8 decks), not {hands}")
    return hands


def _close_after(env: Mapping[str, str]) -> str:
    text = env.get("ROADS_SIDE_BETS_CLOSE_AFTER", "").replace(" ", "")
    if text and not re.fullmatch(r"\d+|[a-z_0-9]+=\d+(,[a-z_0-9]+=\d+)*", text):
        raise ConfigError(
            "ROADS_SIDE_BETS_CLOSE_AFTER must be ROUNDS or bet=ROUNDS,..., "
            f"not {env['ROADS_SIDE_BETS_CLOSE_AFTER']!r}"
        )
    return text


def _keys(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    return tuple(key.strip() for key in env.get(name, "").split(",") if key.strip())


def _access_log(env: Mapping[str, str]) -> bool:
    # ``-`` (standard error, in gunicorn's spelling) is where the log goes anyway: on.
    return env.get("ROADS_ACCESS_LOG", "").strip() == "-" or _flag(
        env, "ROADS_ACCESS_LOG", default=True
    )


def _database(env: Mapping[str, str]) -> str | None:
    url = env.get("ROADS_DATABASE_URL", "").strip()
    if url and not re.match(r"^postgres(ql)?://", url):
        raise ConfigError(f"ROADS_DATABASE_URL must be a postgresql:// URL, not {url!r}")
    return url or None


def _namespace(env: Mapping[str, str]) -> str | None:
    text = env.get("ROADS_NAMESPACE", "").strip()
    if not text:
        return None
    if not NAMESPACE.match(text):
        raise ConfigError(f"ROADS_NAMESPACE must be 1-32 letters, digits, _ . or -, not {text!r}")
    return text


def _urls(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    urls = tuple(url.strip() for url in env.get(name, "").split(",") if url.strip())
    for url in urls:
        if not re.match(r"^https?://[^\s/]+(/\S*)?$", url):
            raise ConfigError(f"{name} must be http(s) URLs, comma-separated, not {url!r}")
    return urls


def _origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    origins = tuple(o.strip().rstrip("/") for o in env.get(name, "").split(",") if o.strip())
    for origin in origins:
        if not re.match(r"^https?://[^\s/]+$", origin):
            raise ConfigError(
                f"{name} must be origins such as https://lobby.example.com, not {origin!r}"
            )
    return origins


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    text = env.get(name, "").strip() or choices[0]
    if text not in choices:
        raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
    return text


def _number(env: Mapping[str, str], name: str, default, kind):
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = kind(text)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {text!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be positive, not {text!r}")
    return value


def _count(env: Mapping[str, str], name: str, default: int = 0) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise ConfigError(f"{name} must be a whole number, 0 or more, not {text!r}")
    return int(text)


def _flag(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    text = env.get(name, "").strip().lower()
    if not text:
        return default
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be 1/0, true/false, yes/no or on/off, not {text!r}")
