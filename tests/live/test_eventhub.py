"""The event hub on its own (api/live/eventhub.py), on the tests' Redis without the app: one reader
of the lobby's stream fanned out to each subscription of a channel, the backlog a client resumes
from (or ``None`` once it was trimmed), each channel's head, a slow client cut off, and every
stream ended when the process drains."""

from __future__ import annotations

import time

import pytest

from api.codecs.feedevents import Event
from api.live.eventhub import EventHub, Subscription
from api.storage.eventstream import EventStream
from roads import Round
from tests.layer_parts import Parts

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def hub(parts):
    made = make_hub(parts)
    yield made
    made.stop()


def make_hub(parts: Parts, **options) -> EventHub:
    stream = EventStream(parts.transport, parts.keys.lobby, parts.clients.blocking)
    return EventHub(stream, block_ms=200, **options)


def deal(parts: Parts, table: str, results: str, first: int = 1) -> None:
    for number, result in enumerate(results, start=first):
        assert parts.writer.append(table, "s1", number, Round(result)).changed


def taken(subscription: Subscription, count: int, seconds: float = 5.0) -> list[Event]:
    """The subscription's next ``count`` events (fewer if they do not come in time)."""
    events: list[Event] = []
    deadline = time.monotonic() + seconds
    while len(events) < count and time.monotonic() < deadline:
        events += subscription.next(0.1)
    return events


def kinds(events: list[Event]) -> list[tuple[str | None, str]]:
    return [(event.table, event.type) for event in events]


def test_each_subscription_gets_its_channels_events_once_in_order(parts, hub):
    lobby, table = hub.subscribe(None), hub.subscribe(frozenset({"a"}))
    assert hub.clients == 2
    deal(parts, "a", "B")
    deal(parts, "b", "P")
    deal(parts, "a", "P", first=2)
    every = taken(lobby, 5)
    assert kinds(every) == [
        ("a", "shoe"),
        ("a", "round"),
        ("b", "shoe"),
        ("b", "round"),
        ("a", "round"),
    ]
    assert [event.key for event in every] == sorted(event.key for event in every)
    assert kinds(taken(table, 3)) == [("a", "shoe"), ("a", "round"), ("a", "round")]
    assert taken(table, 1, seconds=0.3) == []  # b's never come, and nothing twice
    hub.unsubscribe(table)
    assert hub.clients == 1


def test_the_backlog_resumes_after_an_id_and_from_the_start(parts, hub):
    deal(parts, "a", "BPB")
    deal(parts, "b", "T")
    every = hub.backlog("0")
    assert kinds(every) == [("a", "shoe"), *[("a", "round")] * 3, ("b", "shoe"), ("b", "round")]
    assert hub.backlog("0-0") == every
    assert hub.backlog(every[1].id) == every[2:]
    assert hub.backlog(every[1].id, frozenset({"b"})) == every[4:]
    assert hub.backlog(every[-1].id) == []
    assert hub.backlog(every[1].id, limit=3) is None  # more than a client may be sent at once


def test_a_backlog_the_stream_no_longer_reaches_is_none(parts, hub, redis_client):
    deal(parts, "a", "BBBB")
    first = hub.backlog("0")[0].id
    redis_client.xtrim(parts.keys.lobby.events, maxlen=2, approximate=False)
    assert hub.backlog(first) is None  # the client must start afresh (reset)
    assert hub.backlog("0") is None  # "every event" is no longer every event


def test_the_heads_are_the_newest_event_of_the_stream_and_of_each_table(parts, hub):
    assert hub.heads(None) == {None: None}
    deal(parts, "a", "B")
    deal(parts, "b", "P")
    every = hub.backlog("0")
    assert hub.heads(None) == {None: every[-1].id}
    assert hub.heads(frozenset({"a", "c"})) == {"a": every[1].id, "c": None}


def test_a_client_too_slow_is_cut_off_and_draining_ends_every_stream(parts):
    hub = make_hub(parts, queue_size=2)
    try:
        slow, ending = hub.subscribe(None), hub.subscribe(frozenset({"z"}))
        deal(parts, "a", "BPBP")
        deadline = time.monotonic() + 5
        while not slow.overflowed and time.monotonic() < deadline:
            time.sleep(0.02)
        assert slow.overflowed and not ending.overflowed
        hub.drain()
        assert ending.ended and ending.next(1.0) == []  # woken at once, nothing more
        late = hub.subscribe(None)
        assert late.ended  # a process that drains opens no new stream
    finally:
        hub.stop()
