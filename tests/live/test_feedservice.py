"""The feed service on its own (api/live/feedservice.py), on the tests' Redis without the app: which
way a viewer's feed is delivered (the lobby in frames, events of the lobby or of some tables, or
an answer for the GRIP proxy to hold), what each delivery starts with, the viewers counted
against their bound and new lobby viewers paced (the proxy's own requests aside)."""

from __future__ import annotations

import time

import pytest

from api.codecs.feedevents import RESET
from api.live.feedservice import STREAMED, FeedAsk, FeedFull
from roads import Round
from tests.grip_tokens import GRIP_KEY, forgeries, signed
from tests.live.live_parts import Live, build_live, text_of
from tests.sse_client import sse_events

LOBBY = FeedAsk(None)


def proxied(parts, **options) -> Live:
    return build_live(parts, proxy_key=GRIP_KEY, **options)


def first_frame(live: Live, seconds: float = 5.0) -> None:
    """Until the process's feed holds a frame (the builder started, as a worker's jobs start it)."""
    live.framer.start()
    deadline = time.monotonic() + seconds
    while live.frames.latest(0.1) is None:
        assert time.monotonic() < deadline, "no frame was built"


def test_a_lobby_viewer_gets_the_whole_lobby_in_a_frame_first_and_is_counted(parts, live):
    parts.writer.append("a", "s1", 1, Round("B"))
    first_frame(live)
    delivery = live.feeds.deliver(LOBBY)
    assert delivery.headers == STREAMED and live.frames.clients == 1
    text = text_of(delivery.body, 2)
    assert text.startswith("retry: ")
    (frame,) = sse_events(text)
    assert frame["event"] == "frame" and frame["data"]["full"] is True
    assert set(frame["data"]["tables"]) == {"a"}
    delivery.on_close()
    delivery.on_close()  # once only: the answer's close and the stream's end both call it
    assert live.frames.clients == 0


def test_without_the_snapshot_a_lobby_viewer_starts_at_the_latest_frame(parts, live):
    parts.writer.append("a", "s1", 1, Round("B"))
    first_frame(live)
    body = live.feeds.deliver(FeedAsk(None, whole=False)).body
    assert text_of(body, 1).startswith("retry: ")
    parts.writer.append("a", "s1", 2, Round("P"))
    (frame,) = sse_events(text_of(body, 1))
    assert "full" not in frame["data"] and frame["data"]["tables"]["a"]["results"] == ["P"]


def test_the_lobby_frame_is_the_whole_lobby_from_memory(parts, live):
    parts.writer.append("a", "s1", 1, Round("B"))
    first_frame(live)
    frame = live.feeds.lobby_frame(odds=True)
    assert b'"full":true' in frame and b'"a"' in frame


@pytest.mark.parametrize(
    ("ask", "tables"),
    [(FeedAsk(None, frames=False), {"a", "b"}), (FeedAsk(frozenset({"b"})), {"b"})],
)
def test_an_events_viewer_gets_its_channels_events(parts, live, ask, tables):
    delivery = live.feeds.deliver(ask)
    assert delivery.headers == STREAMED and delivery.on_close is None
    assert text_of(delivery.body, 1).startswith("retry: ")
    assert live.events.clients == 1  # subscribed before the answer starts: nothing is missed
    parts.writer.append("a", "s1", 1, Round("B"))
    parts.writer.append("b", "s1", 1, Round("P"))
    events: list[dict] = []
    deadline = time.monotonic() + 5
    while len(events) < 2 * len(tables) and time.monotonic() < deadline:
        events += sse_events(text_of(delivery.body, 1))  # or a heartbeat
    assert {event["data"]["table"] for event in events} == tables
    assert {event["event"] for event in events} == {"shoe", "round"}


def test_an_events_viewer_resumes_after_its_last_event_or_is_told_to_reset(parts, live):
    for number, result in enumerate("BPB", start=1):
        parts.writer.append("a", "s1", number, Round(result))
    first = live.events.backlog("0")[1].id  # round 1's
    resumed = text_of(live.feeds.deliver(FeedAsk(frozenset({"a"}), last=first)).body, 3)
    assert [e["data"]["round"] for e in sse_events(resumed)] == [2, 3]
    parts.transport.command("XTRIM", parts.keys.lobby.events, "MAXLEN", 1)
    reset = text_of(live.feeds.deliver(FeedAsk(frozenset({"a"}), last=first)).body, 2)
    assert reset.endswith(RESET)


def test_an_idle_events_stream_sends_heartbeats(live):
    body = live.feeds.deliver(FeedAsk(frozenset({"quiet"}))).body
    assert text_of(body, 1).startswith("retry: ")
    assert text_of(body, 2) == ": heartbeat\n\n: heartbeat\n\n"


def test_past_the_bound_a_viewer_of_any_feed_is_refused(parts):
    live = build_live(parts, most_clients=1)
    try:
        held = live.feeds.deliver(LOBBY)
        for ask in (LOBBY, FeedAsk(None, frames=False), FeedAsk(frozenset({"a"}))):
            with pytest.raises(FeedFull, match="holds 1 live-feed clients"):
                live.feeds.deliver(ask)
        held.on_close()
        live.feeds.deliver(FeedAsk(frozenset({"a"})))  # a seat again
    finally:
        live.stop()


def test_past_the_pace_a_new_lobby_viewer_is_told_when_to_come_back(parts):
    live = proxied(parts, accepts=1)
    try:
        first_frame(live)  # a viewer then waits for nothing: no token comes back meanwhile
        live.feeds.deliver(LOBBY)
        paced = live.feeds.deliver(LOBBY)
        assert paced.headers == {"Cache-Control": "no-store"} and paced.on_close is None
        assert paced.body.startswith("retry: ") and paced.body.count("\n\n") == 1
        assert 2000 <= int(paced.body.split()[1]) < 5000
        assert live.feeds.deliver(FeedAsk(frozenset({"a"}))).headers == STREAMED  # not paced
        # The proxy asking for what its clients missed is no new viewer: never paced.
        gap = FeedAsk(None, grip_sig=signed(), grip_last="frames; last-id=1-0")
        assert live.feeds.deliver(gap).headers["Grip-Hold"] == "stream"
    finally:
        live.stop()


def test_a_request_of_the_proxys_own_is_answered_to_be_held(parts):
    live = proxied(parts)
    try:
        parts.writer.append("a", "s1", 1, Round("B"))
        first_frame(live)
        frames = live.feeds.deliver(FeedAsk(None, grip_sig=signed()))
        assert frames.headers["Grip-Channel"].startswith("frames; prev-id=")
        assert frames.body.startswith(b"retry: ") and b"event: frame" in frames.body
        tables = live.feeds.deliver(FeedAsk(frozenset({"a"}), grip_sig=signed()))
        head = live.events.heads(frozenset({"a"}))["a"]
        assert tables.headers["Grip-Channel"] == f"t:a; prev-id={head}"
        assert tables.body.startswith("retry: ") and live.events.clients == 0  # nobody streamed
    finally:
        live.stop()


@pytest.mark.parametrize("forgery", sorted(forgeries()))
def test_any_other_grip_sig_is_an_ordinary_viewer(parts, forgery):
    live = proxied(parts)
    try:
        ask = FeedAsk(frozenset({"a"}), grip_sig=forgeries()[forgery], grip_last="t:a; last-id=0")
        assert live.feeds.deliver(ask).headers == STREAMED
    finally:
        live.stop()


def test_without_a_proxy_a_signed_request_is_an_ordinary_viewer(live):
    assert not live.feeds.from_the_proxy(signed())
    assert live.feeds.deliver(FeedAsk(frozenset({"a"}), grip_sig=signed())).headers == STREAMED
