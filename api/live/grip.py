"""The live feed through a GRIP proxy (Pushpin, or Fastly Fanout): what the service answers a
client the proxy holds, and what it publishes to the proxy.

A client's request reaches the service through the proxy (which adds a ``Grip-Sig`` header). The
service answers the events the client missed, if any, and GRIP instructions: hold the connection
as a stream (``Grip-Hold: stream``), subscribed to its channels (``Grip-Channel``: the lobby, or
one channel per watched table), each with the id of the channel's newest event (``prev-id``);
send a heartbeat when idle (``Grip-Keep-Alive``); and where to ask for missed events
(``Grip-Link: ...; rel=next``). The elected publisher (:mod:`api.live.publisher`) then publishes
each event of the stream to its channels with ``id`` and ``prev-id``; when an event's ``prev-id``
is not the last one the proxy delivered on that channel, the proxy asks the ``next`` link (with
``Grip-Last``: each channel's last id) and passes the answer on, so a client gets every event
once and in order.

The event ids are the stream's, so the ``Last-Event-ID`` a client reconnects with works the same
with or without the proxy.

A link never carries a client's key: the proxy logs the links it asks. The proxy's own request
(its ``Grip-Sig`` verified, :mod:`api.live.gripsig`) names in ``Grip-Last`` the channels the
client is held on, and those say whether it reads the odds (:func:`names_odds`): a client is
held on the ``odds:`` channels only if its key read them when it was first held. So every
subscription carries a ``prev-id``, or the proxy's request would name no channel.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from urllib.parse import urlencode

from api.codecs.feedevents import Channel, Event
from api.codecs.jsontext import dumps

LOBBY = "lobby"
NEXT_LINK_TIMEOUT = 120  # seconds idle before the proxy asks the next link anyway
# The prev-id of a channel's first event, and the last id of a channel without events yet: a
# subscription with no prev-id is never checked by the proxy, so a client held before the first
# event would never have a gap found (events dropped while it read slowly were lost for good).
NO_EVENT = "0-0"
GRIP_LAST = re.compile(r"^\s*([^;,\s]+)\s*;\s*last-id=([^,\s]+)\s*$")


# When the odds are not public, each channel has a twin for the clients who read them (a read
# key): ``odds:lobby``, ``odds:t:TABLE``. The plain channels then carry the events without the
# odds (see :meth:`api.codecs.feedevents.Event.sse`).
ODDS = "odds:"


def lobby_channel(prefix: str, odds: bool = False) -> str:
    """The lobby's GRIP channel (``prefix`` keeps deployments apart on one proxy)."""
    return f"{prefix}{ODDS if odds else ''}{LOBBY}"


def table_channel(prefix: str, table: str, odds: bool = False) -> str:
    """A table's GRIP channel."""
    return f"{prefix}{ODDS if odds else ''}t:{table}"


def channel_names(prefix: str, channel: Channel, odds: bool = False) -> list[str]:
    """The GRIP channels of a client's channel: the lobby's, or one for each table."""
    if channel is None:
        return [lobby_channel(prefix, odds)]
    return [table_channel(prefix, table, odds) for table in sorted(channel)]


def event_channel(prefix: str, channel: Channel, event: Event, odds: bool = False) -> str:
    """The GRIP channel on which a client of ``channel`` gets ``event``."""
    if channel is None:
        return lobby_channel(prefix, odds)
    return table_channel(prefix, event.table, odds)


def names_odds(prefix: str, delivered: Iterable[str]) -> bool:
    """Whether the channels a verified proxy request names (``Grip-Last``) are the ``odds:``
    ones: the client was held on them, which only a client whose key read the odds is."""
    return any(name.startswith(prefix + ODDS) for name in delivered)


def hold_headers(
    prefix: str,
    channel: Channel,
    heads: Mapping[str, str | None],
    *,
    heartbeat: float,
    odds: bool = False,
) -> dict[str, str]:
    """The GRIP instructions for a client of ``channel`` whose answer ends at ``heads`` (each
    GRIP channel's newest event id, ``None`` for a channel with none yet); ``odds``: the client
    is on the channels with the odds (its key read them)."""
    subscriptions = [
        _subscription(name, heads.get(name) or NO_EVENT)
        for name in channel_names(prefix, channel, odds)
    ]
    params = {} if channel is None else {"tables": ",".join(sorted(channel))}
    if channel is None:
        params["frames"] = "0"
    return _hold(subscriptions, params, heartbeat)


def page_headers(channel: Channel, last: str) -> dict:
    """The GRIP instruction of an answer that holds only the first page of what a client missed:
    no hold, and a ``next`` link from ``last``, the page's last event, which the proxy asks at
    once and appends to the client's answer (the final page holds). A proxy takes a response of
    at most a megabyte; more would be cut, and the client would miss what was cut. The proxy
    asks this link naming no channel, so it serves the events without the odds; a client who
    reads them is held at the page's end instead (see ``api/http/feedviews.py``)."""
    params = {"tables": ",".join(sorted(channel))} if channel is not None else {"frames": "0"}
    params["last_event_id"] = last
    return {"Grip-Link": f"</v1/events?{urlencode(params)}>; rel=next"}


def frames_channel(prefix: str, odds: bool = False) -> str:
    """The GRIP channel of the lobby's frames (its ``odds:`` twin carries the odds)."""
    return f"{prefix}{ODDS if odds else ''}frames"


def frame_hold_headers(
    prefix: str, head: str | None, *, heartbeat: float, odds: bool = False
) -> dict[str, str]:
    """The GRIP instructions for a frames client whose answer ends at frame ``head`` (``None``:
    no frame yet; the first frame published is then a gap, and the proxy asks the next link)."""
    subscription = _subscription(frames_channel(prefix, odds), head or NO_EVENT)
    return _hold([subscription], {}, heartbeat)


def _subscription(name: str, head: str) -> str:
    return f"{name}; prev-id={head}"


def _hold(subscriptions: list[str], params: dict[str, str], heartbeat: float) -> dict[str, str]:
    query = "?" + urlencode(params) if params else ""
    return {
        "Grip-Hold": "stream",
        "Grip-Channel": ", ".join(subscriptions),
        "Grip-Keep-Alive": f": heartbeat\\n\\n; format=cstring; timeout={max(1, round(heartbeat))}",
        "Grip-Link": f"</v1/events{query}>; rel=next; timeout={NEXT_LINK_TIMEOUT}",
    }


def parse_grip_last(header: str | None) -> dict[str, str]:
    """The last id the proxy delivered on each channel (``Grip-Last: CHANNEL; last-id=ID, ...``)."""
    found = {}
    for part in (header or "").split(","):
        match = GRIP_LAST.match(part)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def publish_items(
    prefix: str, event: Event, lobby_prev: str | None, *, public_odds: bool = True
) -> list[dict]:
    """The proxy's publish items of one event: to the lobby channel (after ``lobby_prev``, the
    stream's event before it) and to its table's channel (after the table's event before it);
    unless the odds are public, to the plain channels without them and to their ``odds:`` twins
    with them."""
    variants = [(False, True)] if public_odds else [(False, False), (True, True)]
    items = []
    for odds_channel, odds in variants:
        lobby = lobby_channel(prefix, odds_channel)
        items.append(_item(lobby, event.id, lobby_prev or NO_EVENT, event.sse(None, odds)))
        if event.table is not None:
            table = table_channel(prefix, event.table, odds_channel)
            prev = event.prev or NO_EVENT
            items.append(_item(table, event.id, prev, event.sse(frozenset(), odds)))
    return items


def frame_items(
    prefix: str, frames: Iterable[tuple[str, str, str]], prev: str | None, *, public_odds: bool
) -> list[dict]:
    """The proxy's publish items of frames (each ``(id, text with the odds, text without)``,
    in order, after frame ``prev``): with public odds one channel; otherwise the plain channel
    without them and its ``odds:`` twin with them."""
    items = []
    for frame_id, full, public in frames:
        if public_odds:
            items.append(_item(frames_channel(prefix), frame_id, prev, full))
        else:
            items.append(_item(frames_channel(prefix), frame_id, prev, public))
            items.append(_item(frames_channel(prefix, True), frame_id, prev, full))
        prev = frame_id
    return items


def _item(channel: str, id: str, prev: str | None, content: str) -> dict:
    item = {"channel": channel, "id": id, "formats": {"http-stream": {"content": content}}}
    if prev:
        item["prev-id"] = prev
    return item


def publish_body(items: Iterable[dict]) -> bytes:
    return dumps({"items": list(items)})
