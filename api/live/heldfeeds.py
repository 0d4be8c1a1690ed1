"""What the service answers a client the GRIP proxy holds (Pushpin: see :mod:`api.live.grip`):
what the client missed, then the instructions to hold it, subscribed to its channels.

A request of the proxy's own (``delivered``: the last id it delivered on each channel, its
verified ``Grip-Last``: it found a gap) gets what came after those ids. Both answers come from
this process: the events from the stream's backlog (:mod:`api.live.eventhub`), the frames from
the process's ring (:mod:`api.live.framefeed`), never a read of Redis for the frames.
"""

from __future__ import annotations

from api.codecs.feedevents import RESET, Channel, stream_key
from api.live.eventhub import EventHub
from api.live.framefeed import FrameFeed
from api.live.grip import (
    channel_names,
    event_channel,
    frame_hold_headers,
    frames_channel,
    hold_headers,
    page_headers,
)

# A GRIP proxy's catch-up answer is paged past this size (Pushpin takes at most a megabyte).
PAGE_BYTES = 256 * 1024


class HeldFeeds:
    """The answers to the held clients of one process: each is (body, headers)."""

    def __init__(self, events: EventHub, frames: FrameFeed, *, prefix: str, heartbeat: float):
        self._events = events
        self._frames = frames
        self._prefix = prefix
        self._heartbeat = heartbeat

    def events(
        self,
        channel: Channel,
        last: str | None,
        odds: bool,
        delivered: dict[str, str],
        twin: bool,
        opening: str,
    ) -> tuple[str, dict[str, str]]:
        """The events of ``channel`` the client missed after ``last`` (after what the proxy
        ``delivered`` on each channel, for the proxy's own request), ``opening`` first, then the
        hold. A client who reads the odds is held on the ``odds:`` channels (``twin``); past a
        page, such a client is held at the page's end (every channel complete up to it), and
        the proxy asks for the rest, naming those channels, at the next event; any other client
        past a page gets the page's next link, which the proxy asks at once."""
        prefix = self._prefix
        names = channel_names(prefix, channel, twin)
        tables = sorted(channel) if channel is not None else [None]
        # The proxy names what it delivered last; a page's next link, where the page ended (the
        # proxy still names where it was before the page): the later of the two.
        after = {name: _later(delivered.get(name), last) for name in names}
        found = self._events.heads(channel)
        heads = {name: found[table] for name, table in zip(names, tables, strict=True)}
        body = [opening]
        starts = [point for point in after.values() if point]
        size, paged, previous = 0, None, ""
        if starts:
            backlog = self._events.backlog(min(starts, key=stream_key), channel)
            if backlog is None:
                body.append(RESET)
                backlog = []
            for event in backlog:
                name = event_channel(prefix, channel, event, twin)
                if after[name] is None or event.key > stream_key(after[name]):
                    if size >= PAGE_BYTES:  # the rest on the next page, asked for at once
                        paged = previous
                        break
                    text = event.sse(channel, odds)
                    body.append(text)
                    size += len(text)
                    heads[name] = max(heads[name] or event.id, event.id, key=stream_key)
                    previous = event.id
        headers = {"Cache-Control": "no-cache"}
        if paged is not None and not twin:
            return "".join(body), {**headers, **page_headers(channel, paged)}
        if paged is not None:  # the page's link would name no channel: held where it ends
            heads = dict.fromkeys(names, paged)
        hold = hold_headers(prefix, channel, heads, heartbeat=self._heartbeat, odds=twin)
        return "".join(body), {**headers, **hold}

    def frames(
        self,
        last: str | None,
        odds: bool,
        delivered: dict[str, str],
        whole: bool,
        twin: bool,
        opening: bytes,
    ) -> tuple[bytes, dict[str, str]]:
        """The frames after ``last`` (after the frame the proxy ``delivered`` last, for its own
        request), or the whole lobby, ``opening`` first, then the hold on the frames channel."""
        since = delivered.get(frames_channel(self._prefix, twin), last)
        self._frames.latest()
        head, text = self._frames.first(since, odds, whole or bool(delivered))
        hold = frame_hold_headers(self._prefix, head, heartbeat=self._heartbeat, odds=twin)
        return opening + text, {"Cache-Control": "no-cache", **hold}


def _later(one: str | None, other: str | None) -> str | None:
    """The later of two event ids (either may be missing)."""
    known = [point for point in (one, other) if point]
    return max(known, key=stream_key) if known else None
