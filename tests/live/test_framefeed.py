"""A process's frame feed on its own (api/live/framefeed.py), on the tests' Redis without the app:
its ring finds the frames after a client and forgets the oldest, a feed started late holds the
lobby at the latest frame (not the keyframe's), a client's first answer, and reading it is what
tells the process's builder that frames are wanted."""

from __future__ import annotations

import time

import pytest

from api.codecs.jsontext import dumps
from api.live.framefeed import FrameFeed
from api.storage.framestream import FrameStream


@pytest.fixture
def stream(parts) -> FrameStream:
    return FrameStream(parts.transport, parts.keys.lobby, parts.clients.blocking)


def empty_frames(stream: FrameStream, count: int) -> list[str]:
    frames = [dumps({"cursor": n, "tables": {}}) for n in range(1, count + 1)]
    return [stream.add(frame, frame) for frame in frames]


def held_up_to(feed: FrameFeed, last: str) -> None:
    deadline = time.monotonic() + 5
    while feed.latest() != last and time.monotonic() < deadline:
        time.sleep(0.05)


def test_the_ring_finds_the_frames_after_a_client_and_forgets_the_oldest(stream):
    feed = FrameFeed(stream, ring=3, block_ms=100)
    ids = empty_frames(stream, 5)
    held_up_to(feed, ids[-1])
    try:
        assert [frame.id for frame in feed.after(ids[2])] == ids[3:]
        assert [frame.id for frame in feed.after(ids[1])] == ids[2:]  # the ring starts after it
        assert feed.after(ids[0]) is None  # no longer kept: the whole lobby instead
        assert feed.after(ids[4]) == []
        assert feed.since(ids[3], odds=False) == (ids[4], f"id: {ids[4]}\n\n".encode())
    finally:
        feed.stop()


def test_a_feed_started_late_serves_the_lobby_at_the_latest_frame_not_the_keyframe(stream):
    empty = dumps({"cursor": 1, "full": True, "tables": {}})
    stream.set_keyframe(stream.add(empty, empty), empty, empty)
    later = dumps({"cursor": 2, "tables": {"late": {"tile": {"table": "late"}}}})
    newest = stream.add(later, later)
    feed = FrameFeed(stream, block_ms=100)
    try:
        assert feed.latest() == newest
        frame_id, text = feed.whole(odds=False)
        assert frame_id == newest and b'"late"' in text
    finally:
        feed.stop()


def test_a_clients_first_answer_is_the_whole_lobby_or_the_frames_after_its_own(stream):
    whole = dumps({"cursor": 1, "full": True, "tables": {"a": {"table": "a"}}})
    first = stream.add(whole, whole)
    stream.set_keyframe(first, whole, whole)
    (second,) = empty_frames(stream, 1)
    feed = FrameFeed(stream, block_ms=100)
    held_up_to(feed, second)
    try:
        at, text = feed.first(None, odds=True, whole=True)
        assert at == second and b'"full":true' in text and b'"a"' in text
        assert feed.first(None, odds=True, whole=False) == (second, b"")  # no snapshot
        assert feed.first(first, odds=False, whole=False) == (second, f"id: {second}\n\n".encode())
    finally:
        feed.stop()


def test_reading_the_feed_tells_the_builder_frames_are_wanted(stream):
    told = []
    feed = FrameFeed(stream, block_ms=100, wanted=lambda: told.append(True))
    try:
        assert told == []  # made, not read: nobody wants frames yet
        feed.latest(0)
        assert told == [True]
    finally:
        feed.stop()
