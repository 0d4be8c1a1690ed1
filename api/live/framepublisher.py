"""The one process that publishes the lobby's frames to the GRIP proxies (Pushpin).

Every process with the proxies configured runs a candidate; the holder of the lease
(``{lobby}:frame_publisher``) publishes each frame its own frame feed (:mod:`api.live.framefeed`)
takes, in the SSE text the built-in feed sends, so a viewer through the proxy reads the same
bytes with the same ids. Each publish names the frame before it (``prev-id``): a proxy whose
clients were left at another frame (a holder died between two frames, a publish failed) asks
the hold's ``next`` link for what they missed, and the service answers it from its ring.
One publish per frame, whatever the number of viewers: the fan-out is the proxy's.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from api.live.candidate import Candidate
from api.live.framefeed import FrameFeed
from api.live.grip import frame_items, publish_body
from api.live.publisher import publish, publish_urls
from api.metrics import FEED_EVENTS
from api.storage.framestream import FrameStream

log = logging.getLogger("roads.framepublisher")

SENT = FEED_EVENTS.labels("grip-frames")
LEASE_MS = 5_000


class FramePublisher(Candidate):
    """This process's candidate publisher of frames (:meth:`start`, after any fork)."""

    def __init__(
        self,
        feed: FrameFeed,
        frames: FrameStream,
        proxies: Sequence[str],
        *,
        prefix: str = "",
        public_odds: bool = True,
        lease_ms: int = LEASE_MS,
    ) -> None:
        self._feed = feed
        self._frames = frames
        self._urls = publish_urls(proxies)
        self._prefix = prefix
        self._public_odds = public_odds
        self._lease_ms = lease_ms
        self.published = 0  # frames this process published
        super().__init__("frame-publisher")

    def _run(self) -> None:
        cursor: str | None = None  # the last frame published, known while holding the lease
        failing = False
        while not self.stopping():
            try:
                cursor = self._step(cursor)
                failing = False
            except Exception:  # Redis or a proxy away: the same frames again shortly
                if not failing:
                    log.warning("frames not published; trying again", exc_info=True)
                failing = True
                self._stop.wait(0.5)

    def _step(self, cursor: str | None) -> str | None:
        held = self._frames.lease(self.holder, self._lease_ms, publishing=True)
        if not held:
            self._stop.wait(self._lease_ms / 5000)
            return None
        if held == 2 or cursor is None:
            # The frames before the newest went out from the last holder, or the proxies ask
            # the next link for them.
            return self._feed.latest()
        self._feed.wait(cursor, self._lease_ms / 5000)
        frames = self._feed.after(cursor)
        if frames is None:  # behind the ring: the proxies recover by the next link
            return self._feed.latest(0)
        if not frames:
            return cursor
        items = frame_items(
            self._prefix,
            [(frame.id, frame.full.decode(), frame.public.decode()) for frame in frames],
            cursor,
            public_odds=self._public_odds,
        )
        publish(self._urls, publish_body(items))
        SENT.inc(len(frames) * len(self._urls))
        self.published += len(frames)
        return frames[-1].id
