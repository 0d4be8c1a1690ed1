"""The one process that publishes the lobby's frames to the fan-out tier: the GRIP proxies
(Pushpin) and nchan.

Every process with a tier configured runs a candidate; the holder of the lease
(``{lobby}:frame_publisher``) publishes each frame its own frame feed (:mod:`api.live.framefeed`)
takes. One publish per frame, whatever the number of viewers: the fan-out is the tier's.

- To a GRIP proxy, in the SSE text the built-in feed sends, so a viewer through the proxy
  reads the same bytes with the same ids. Each publish names the frame before it (``prev-id``):
  a proxy whose clients were left at another frame (a holder died between two frames, a
  publish failed) asks the hold's ``next`` link for what they missed, and the service answers
  it from its ring.
- To nchan, each frame's JSON (the one without the odds, unless they are public), as an
  ``event: frame``; frames with nothing for those viewers are not sent. nchan numbers the
  messages itself, so a viewer tells a missed frame by the frame's ``after``
  (:mod:`api.codecs.frames`), and starts from ``GET /v1/lobby/frame`` (the whole lobby at a
  frame, from memory).
"""

from __future__ import annotations

import logging
import urllib.request
from collections.abc import Sequence

from api.live.framefeed import FrameFeed, frame_data
from api.live.grip import frame_items, publish_body
from api.live.publisher import publish, publish_urls
from api.metrics import FEED_EVENTS
from api.storage.framestream import FrameStream
from api.storage.leases import TAKEN, Candidate

log = logging.getLogger("roads.framepublisher")

SENT = FEED_EVENTS.labels("grip-frames")
NCHAN_SENT = FEED_EVENTS.labels("nchan-frames")
LEASE_MS = 5_000


class FramePublisher(Candidate):
    """This process's candidate publisher of frames (:meth:`start`, after any fork)."""

    def __init__(
        self,
        feed: FrameFeed,
        frames: FrameStream,
        proxies: Sequence[str],
        *,
        nchan: Sequence[str] = (),
        prefix: str = "",
        public_odds: bool = True,
        lease_ms: int = LEASE_MS,
    ) -> None:
        self._feed = feed
        self._frames = frames
        self._urls = publish_urls(proxies)
        self._nchan = list(nchan)
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
        if held == TAKEN or cursor is None:
            # The frames before the newest went out from the last holder, or the proxies ask
            # the next link for them.
            return self._feed.latest()
        self._feed.wait(cursor, self._lease_ms / 5000)
        frames = self._feed.after(cursor)
        if frames is None:  # behind the ring: the proxies recover by the next link
            return self._feed.latest(0)
        if not frames:
            return cursor
        if self._urls:
            items = frame_items(
                self._prefix,
                [(frame.id, frame.full.decode(), frame.public.decode()) for frame in frames],
                cursor,
                public_odds=self._public_odds,
            )
            publish(self._urls, publish_body(items))
            SENT.inc(len(frames) * len(self._urls))
        for frame in frames:
            data = frame_data(frame.text(self._public_odds))
            if data is not None:
                self._to_nchan(data)
        self.published += len(frames)
        return frames[-1].id

    def _to_nchan(self, data: bytes) -> None:
        """A frame to every nchan; one that fails is skipped there, not retried: its viewers
        find the gap by the next frame's ``after`` and start again from a snapshot, and the
        other tier is not held back."""
        for url in self._nchan:
            try:
                post_message(url, data)
            except Exception:
                log.warning("a frame not published to %s; skipped", url, exc_info=True)
                continue
            NCHAN_SENT.inc()


def post_message(url: str, data: bytes) -> None:
    """One message to an nchan publisher location, as an SSE ``frame`` event."""
    headers = {"Content-Type": "application/json", "X-EventSource-Event": "frame"}
    request = urllib.request.Request(url, data=data, method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=5) as answer:
        answer.read()
