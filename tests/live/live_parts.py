"""The live layer's own objects on the tests' Redis, wired as :meth:`api.services.Services.build`
wires them, without the Flask app: the event hub, the frame builder, the frame feed and its
broadcaster, and the feed service that chooses among them; over the storage and write layers'
parts (:mod:`tests.layer_parts`), which write what the feeds carry."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from api.admission import Pace
from api.live.broadcast import Broadcaster
from api.live.eventhub import EventHub
from api.live.feedservice import FeedService
from api.live.framefeed import FrameFeed
from api.live.framer import FrameBuilder
from api.storage.eventstream import EventStream
from api.storage.framestream import FrameStream
from tests.layer_parts import Parts


@dataclass(frozen=True)
class Live:
    parts: Parts
    events: EventHub
    frame_stream: FrameStream
    framer: FrameBuilder
    frames: FrameFeed
    feeds: FeedService

    def stop(self) -> None:
        """Stop every thread the parts started (they would read the next test's Redis)."""
        for part in (self.events, self.framer, self.frames):
            part.stop()


def build_live(
    parts: Parts,
    *,
    heartbeat: float = 0.1,
    frame_ms: int = 50,
    accepts: float = 0.0,
    most_clients: int = 100,
    public_odds: bool = True,
    proxy_key: str | None = None,
) -> Live:
    """The live parts on ``parts``; each argument is the setting of the same meaning."""
    lobby = parts.keys.lobby
    events = EventHub(EventStream(parts.transport, lobby, parts.clients.blocking), block_ms=200)
    frame_stream = FrameStream(parts.transport, lobby, parts.clients.blocking)
    framer = FrameBuilder(parts.lobby, frame_stream, frame_ms=frame_ms)
    frames = FrameFeed(frame_stream, block_ms=200, wanted=framer.want)
    feeds = FeedService(
        events,
        frames,
        Broadcaster(frames, heartbeat),
        admit=Pace(accepts).admit,
        prefix=parts.keys.prefix,
        heartbeat=heartbeat,
        most_clients=most_clients,
        public_odds=public_odds,
        proxy_key=proxy_key,
    )
    return Live(parts, events, frame_stream, framer, frames, feeds)


def text_of(body: Iterator[str | bytes], count: int) -> str:
    """The first ``count`` pieces of a streamed body, as text."""
    pieces = []
    for piece in body:
        pieces.append(piece.decode() if isinstance(piece, bytes) else piece)
        if len(pieces) >= count:
            break
    return "".join(pieces)
