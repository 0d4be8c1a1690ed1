"""The service's parts, made and wired once per app (:func:`api.create_app` keeps them in
``app.extensions["roads"]``): the transport to Redis, the repositories and the read cache on it,
and the live services that follow Redis in the background.

Each part that holds connections or threads makes them on first use, and again in a process
forked after it (:func:`api.storage.clients.after_fork`): a gunicorn master that preloads the
app never shares a connection pool with its workers. Making the parts starts no thread: the
jobs among them are started by :func:`api.jobs.start_jobs`, the readers by their first reader.
"""

from __future__ import annotations

from dataclasses import dataclass

from api.admission import Gate, Pace
from api.config import Settings
from api.images.pool import RenderPool
from api.live.broadcast import Broadcaster
from api.live.drift import DriftWatch
from api.live.eventhub import BLOCK_SECONDS, EventHub
from api.live.feedservice import FeedService
from api.live.framefeed import FrameFeed
from api.live.framepublisher import FramePublisher
from api.live.framer import FrameBuilder
from api.live.publisher import Publisher
from api.live.versions import VersionWatch
from api.record.service import Record
from api.storage.clients import RedisClients, database_of
from api.storage.eventstream import EventStream
from api.storage.framestream import FrameStream
from api.storage.games import Games
from api.storage.integrity.watchapply import IntegrityApply
from api.storage.integrity.watchstore import IntegrityStore
from api.storage.keys import Keyspace
from api.storage.lobbystore import Lobby
from api.storage.memo import Memo
from api.storage.paytablestore import PayTableStore
from api.storage.publishing import PublishingSession
from api.storage.readcache import ReadCache
from api.storage.rounds import RoundStore
from api.storage.states import ShoeStates
from api.storage.tables import Tables
from api.storage.tilerebuild import TileRebuild
from api.storage.transport import Transport
from api.storage.versionfeed import VersionFeed
from api.storage.writelog import clock
from api.writes.studio import Studio
from api.writes.writer import Writer
from roads.integrity.shoewatch import WatchSettings
from roads.integrity.sidebets import ClosePolicy

INTEGRITY_STREAMS = 8  # operators' alert streams per process (each polls once a second)


@dataclass(frozen=True)
class Services:
    settings: Settings
    keys: Keyspace
    transport: Transport
    versions: VersionWatch
    tables: Tables
    rounds: RoundStore
    writer: Writer
    reads: ReadCache
    lobby: Lobby
    # Whole lobby answers, the same for every client until the cursor moves:
    # (epoch, cursor, query) -> body.
    lobby_answers: Memo
    # Pictures this process served lately by their exact URL (before the query is parsed).
    picture_urls: Memo
    events: EventHub
    publisher: Publisher | None  # to the GRIP proxies, when there are any
    painters: RenderPool  # pictures, painted off the event loop
    custom_queries: Gate  # Good Roads queries with custom patterns, at once
    record: Record | None  # the record in PostgreSQL, when ROADS_DATABASE_URL is set
    framer: FrameBuilder  # the lobby's frames, built by the lease holder
    frames: FrameFeed  # and served from this process's ring
    broadcaster: Broadcaster  # which writes them to this process's viewers (gevent)
    frame_publisher: FramePublisher | None  # to the GRIP proxies and nchan, when there are any
    # Which way each viewer's feed is delivered (frames, events, held by the GRIP proxy), new
    # lobby viewers paced.
    feeds: FeedService
    integrity: IntegrityStore  # the integrity watch's findings, tallies and alert stream
    drift: DriftWatch  # the day's drift, tested across tables and alerted
    integrity_streams: Gate  # operators following the alert stream, at once
    record_reads: Gate  # reads of the record (a table's past, the archive), at once
    games: Games  # rounds by game id and a table's last rounds, from Redis
    studio: Studio  # what the studio reports between rounds, carried out

    @classmethod
    def build(cls, settings: Settings) -> Services:
        # Blocking reads (the event stream) and WAIT for replicas need a longer socket timeout.
        patience = max(BLOCK_SECONDS, settings.write_wait_ms / 1000)
        clients = RedisClients.of(settings, patience=patience)
        keys = Keyspace.of(settings.namespace, database_of(settings))
        transport = Transport(settings, clients)
        # Answers kept by the version they were built at (the read cache's, and pictures by
        # their URL): whatever was known may have missed messages while the version watch was
        # unsubscribed, so they are dropped whenever it starts afresh.
        answers, picture_urls = Memo(64 * 1024 * 1024), Memo()
        versions = VersionWatch(
            VersionFeed(clients.plain, keys.versions_channel).subscribe,
            on_reset=lambda: (answers.clear(), picture_urls.clear()),
        )
        record = Record.build(settings, transport, keys) if settings.recording else None
        cold = record.cold if record is not None else None
        states = ShoeStates(transport, keys, settings.state_ttl, cold)
        paytables = PayTableStore(transport, keys.lobby)
        rebuild = TileRebuild(transport, keys.lobby, states, settings.rarity_hands, paytables)
        lobby = Lobby(transport, keys.lobby, rebuild)
        at = clock(settings.recording)
        integrity = (
            IntegrityApply(keys.integrity, settings.integrity_index, settings.recording)
            if settings.integrity
            else None
        )
        rounds = RoundStore(
            transport,
            keys,
            versions,
            states,
            state_ttl=settings.state_ttl,
            clock=at,
            integrity=integrity,
            hands=settings.rarity_hands,
        )
        rounds.publish.chances  # noqa: B018 - summed now (half a second), not at the first write
        tables = Tables(transport, keys, versions, lobby, at, paytables, cold)
        integrity_store = IntegrityStore(transport, keys.integrity)
        frame_stream = FrameStream(transport, keys.lobby, clients.blocking)
        framer = FrameBuilder(lobby, frame_stream, frame_ms=settings.frame_ms)
        frames = FrameFeed(frame_stream, wanted=framer.want)  # a process that serves frames
        events = EventHub(EventStream(transport, keys.lobby, clients.blocking))
        publisher = (
            Publisher(
                lambda: PublishingSession(clients.blocking(), keys.lobby),
                settings.grip_urls,
                prefix=keys.prefix,
                public_odds=settings.public_odds,
            )
            if settings.grip_urls
            else None
        )
        broadcaster = Broadcaster(frames, settings.sse_heartbeat)
        reads = ReadCache(
            transport, keys, versions, states, memo=answers, cache_ttl=settings.cache_ttl
        )
        writer = Writer(rounds, tables, watch=watch_settings(settings), hands=settings.rarity_hands)
        return cls(
            settings=settings,
            keys=keys,
            transport=transport,
            versions=versions,
            tables=tables,
            rounds=rounds,
            writer=writer,
            reads=reads,
            lobby=lobby,
            lobby_answers=Memo(8 * 1024 * 1024),
            picture_urls=picture_urls,
            events=events,
            publisher=publisher,
            painters=RenderPool(settings.renderers, settings.render_queue, settings.render_rate),
            custom_queries=Gate(settings.custom_queries, "Good Roads queries with custom patterns"),
            record=record,
            framer=framer,
            frames=frames,
            broadcaster=broadcaster,
            frame_publisher=FramePublisher(
                frames,
                frame_stream,
                settings.grip_urls,
                nchan=settings.nchan_urls,
                prefix=keys.prefix,
                public_odds=settings.public_odds,
            )
            if settings.grip_urls or settings.nchan_urls
            else None,
            feeds=FeedService(
                events,
                frames,
                broadcaster,
                admit=Pace(settings.feed_accepts).admit,
                prefix=keys.prefix,
                heartbeat=settings.sse_heartbeat,
                most_clients=settings.feed_clients,
                public_odds=settings.public_odds,
                proxy_key=settings.grip_key if publisher is not None else None,
            ),
            integrity=integrity_store,
            drift=DriftWatch(integrity_store),
            integrity_streams=Gate(INTEGRITY_STREAMS, "integrity alert streams"),
            record_reads=Gate(settings.record_reads, "reads of the record"),
            games=Games(transport, keys),
            studio=Studio(writer, rounds, lobby, tables),
        )

    def ping(self) -> bool:
        return self.transport.ping()


def watch_settings(settings: Settings) -> WatchSettings | None:
    """The integrity watch's settings from the service's (``None`` when it is off)."""
    if not settings.integrity:
        return None
    close = ClosePolicy.parse(settings.side_bets_close_after)
    return WatchSettings(behind=settings.cut_card_behind, close=close)
