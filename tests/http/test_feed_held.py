"""What the service answers a GRIP proxy (Pushpin) holding a client, over HTTP on a real Redis
(api/http/feedviews.py, api/live/heldfeeds.py): the missed events, each channel's prev-id, and
the next link the proxy asks when it finds a gap; the frames from the process's ring; a
``Grip-Sig`` that does not verify makes an ordinary viewer."""

from __future__ import annotations

import time

import pytest

from tests.api_helpers import feed, post_round
from tests.conftest import make_app
from tests.grip_tokens import GRIP_KEY, forgeries, signed
from tests.sse_client import sse_events

PROXIED = {"Grip-Sig": signed()}  # as Pushpin signs its requests (an hour ahead)


@pytest.fixture
def proxied(redis_server, redis_client):
    app = make_app(
        redis_server.url, grip_urls=("http://127.0.0.1:9",), grip_key=GRIP_KEY, frame_ms=50
    )
    return app.test_client()  # its jobs stop with the test (tests/conftest.py)


def deal(client, table: str, results: str, first: int) -> None:
    for number, result in enumerate(results, start=first):
        assert post_round(client, number, table, result=result).status_code == 201


def held(client, query: str = "", **headers) -> tuple[dict, list[dict]]:
    answer = client.get(f"/v1/events{query}", headers={**PROXIED, **headers})
    assert answer.status_code == 200
    return answer.headers, sse_events(answer.get_data(as_text=True))


def test_a_new_client_is_held_on_its_tables_channels_after_each_ones_newest_event(proxied):
    feed(proxied, "BPB", table="a")
    headers, events = held(proxied, "?tables=b,a")
    assert events == []
    assert headers["Grip-Hold"] == "stream"
    channels = headers["Grip-Channel"].split(", ")
    # b has no event yet: its prev-id says so ("0-0", its first event's prev-id), so that the
    # proxy checks even the first event it gets against it
    assert channels[0].startswith("t:a; prev-id=") and channels[1] == "t:b; prev-id=0-0"
    assert headers["Grip-Link"] == "</v1/events?tables=a%2Cb>; rel=next; timeout=120"
    assert "format=cstring" in headers["Grip-Keep-Alive"]


def test_a_reconnecting_client_gets_what_it_missed_and_is_held_after_it(proxied):
    feed(proxied, "B", table="a")
    first = held(proxied, "?tables=a")[0]["Grip-Channel"].split("prev-id=")[1]
    deal(proxied, "a", "PT", first=2)
    feed(proxied, "BB", table="b")
    headers, events = held(proxied, "?tables=a", **{"Last-Event-ID": first})
    assert [(e["event"], e["data"]["round"]) for e in events] == [("round", 2), ("round", 3)]
    assert all("patch" in e["data"] for e in events)
    assert headers["Grip-Channel"] == f"t:a; prev-id={events[-1]['id']}"


def test_the_proxys_own_request_gets_each_channel_after_its_last_delivered_id(proxied):
    feed(proxied, "B", table="a")
    feed(proxied, "P", table="b")
    channels = held(proxied, "?tables=a,b")[0]["Grip-Channel"].split(", ")
    last = {c.split(";")[0]: c.split("prev-id=")[1] for c in channels}
    deal(proxied, "a", "BP", first=2)
    deal(proxied, "b", "T", first=2)
    grip_last = f"t:a; last-id={last['t:a']}, t:b; last-id={last['t:b']}"
    answer = proxied.get("/v1/events?tables=a,b", headers={**PROXIED, "Grip-Last": grip_last})
    text = answer.get_data(as_text=True)
    events = sse_events(text)
    assert not text.startswith("retry:")  # the proxy's request, not a browser's
    assert [(e["data"]["table"], e["data"]["round"]) for e in events] == [
        ("a", 2),
        ("a", 3),
        ("b", 2),
    ]


def test_a_catch_up_over_a_page_comes_in_pages_each_asked_for_by_the_one_before(proxied):
    """Pushpin takes at most a megabyte an answer: what a proxied client missed comes a page at a
    time, each page's next link from its last event (the proxy still names where it was), the
    last page holding the client."""
    feed(proxied, "B", table="a")
    channel = held(proxied, "?tables=a")[0]["Grip-Channel"]
    start = channel.split("prev-id=")[1]
    deal(proxied, "a", "BP" * 65, first=2)  # each event carries its patch and the tile
    grip_last = {**PROXIED, "Grip-Last": f"t:a; last-id={start}"}
    path, rounds, pages = "/v1/events?tables=a", [], 0
    while True:
        answer = proxied.get(path, headers=grip_last)
        text = answer.get_data(as_text=True)
        assert len(text.encode()) < 1_000_000
        rounds += [e["data"]["round"] for e in sse_events(text) if e["event"] == "round"]
        pages += 1
        if "Grip-Hold" in answer.headers:
            break
        link = answer.headers["Grip-Link"]
        assert link.endswith("; rel=next") and "last_event_id=" in link
        path = link[1 : link.index(">")]
    assert rounds == list(range(2, 132)) and pages > 1


def test_the_per_round_lobby_channel_is_held_after_the_streams_newest_event(proxied):
    feed(proxied, "BP", table="a")
    headers, events = held(proxied, "?frames=0")
    assert events == []
    assert headers["Grip-Channel"].startswith("lobby; prev-id=")
    assert headers["Grip-Link"] == "</v1/events?frames=0>; rel=next; timeout=120"


def frames_held(client, **headers) -> tuple[dict, str, list[dict]]:
    """A lobby client held on the frames channel: its headers, its answer, its frames."""
    answer = client.get("/v1/events", headers={**PROXIED, **headers})
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    return answer.headers, text, sse_events(text)


def until_frame_after(
    client, head: str, seconds: float = 5.0, holds=lambda frames: True
) -> tuple[dict, list[dict]]:
    """The frames after ``head`` once there are some (and they ``holds``: rounds reported
    together may reach the lobby in two frames)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        headers, _, frames = frames_held(client, **{"Grip-Last": f"frames; last-id={head}"})
        if frames and holds(frames):
            return headers, frames
        time.sleep(0.05)
    raise AssertionError("no frame came after " + head)


def test_a_lobby_client_gets_the_whole_lobby_from_memory_and_is_held_on_the_frames(proxied):
    feed(proxied, "BPB", table="fa")
    deadline = time.monotonic() + 5

    def fa_recent(frames):
        return frames[0]["data"]["tables"].get("fa", {}).get("recent") if frames else None

    # Until the lobby in memory holds all three rounds: the framer may take the first round in
    # one frame and the other two in the next, and a client between them gets fa's first round.
    # Not in a busy loop: it would starve the app's frame builder of the interpreter (a frame
    # took 4 s to build beside one).
    while True:
        headers, text, frames = frames_held(proxied)
        if fa_recent(frames) == list("BPB") or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert text.startswith("retry: ")
    (whole,) = frames
    assert whole["event"] == "frame" and whole["data"]["full"] is True
    assert whole["data"]["tables"]["fa"]["recent"] == list("BPB")
    assert headers["Grip-Channel"] == f"frames; prev-id={whole['id']}"
    assert headers["Grip-Link"] == "</v1/events>; rel=next; timeout=120"
    # The proxy asks for what its clients missed after the frame it delivered last.
    deal(proxied, "fa", "PP", first=4)

    def results(frames):
        return [r for f in frames for r in f["data"]["tables"].get("fa", {}).get("results", [])]

    again, later = until_frame_after(proxied, whole["id"], holds=lambda f: len(results(f)) >= 2)
    assert all(not frame["data"].get("full") for frame in later)
    assert results(later) == ["P", "P"]
    assert again["Grip-Channel"] == f"frames; prev-id={later[-1]['id']}"


def test_without_the_snapshot_a_proxied_lobby_client_is_held_at_the_latest_frame(proxied):
    feed(proxied, "B", table="fc")
    until_frame_after(proxied, "1-0", holds=lambda f: "fc" in f[0]["data"]["tables"])
    answer = proxied.get("/v1/events?snapshot=0", headers=PROXIED)
    text = answer.get_data(as_text=True)
    assert text.startswith("retry: ") and "event: frame" not in text  # a few bytes, no lobby
    assert answer.headers["Grip-Channel"].startswith("frames; prev-id=")


def test_a_lobby_client_behind_the_frames_kept_gets_the_whole_lobby_again(proxied):
    feed(proxied, "B", table="fb")
    # (The builder runs from the app's first request: a frame before fb's round may come first.)
    _, frames = until_frame_after(proxied, "1-0", holds=lambda f: "fb" in f[0]["data"]["tables"])
    assert frames[0]["data"]["full"] is True and "fb" in frames[0]["data"]["tables"]


def test_without_a_proxy_configured_the_grip_sig_header_changes_nothing(app):
    answer = app.test_client().get("/v1/events", headers=PROXIED, buffered=False)
    assert "Grip-Hold" not in answer.headers
    answer.close()


@pytest.mark.parametrize("forgery", sorted(forgeries()))
def test_a_grip_sig_that_does_not_verify_makes_an_ordinary_viewer(proxied, forgery):
    """Whatever Grip-* headers come with it, a request whose Grip-Sig does not verify is a
    viewer of the feed's own (a stream, not a hold)."""
    feed(proxied, "B", table="a")
    headers = {"Grip-Sig": forgeries()[forgery], "Grip-Last": "t:a; last-id=0-0"}
    answer = proxied.get("/v1/events?tables=a", headers=headers, buffered=False)
    assert answer.status_code == 200 and "Grip-Hold" not in answer.headers
    answer.close()


def keyed_grip_app(redis_server):
    """An app behind a GRIP proxy (one that never answers) with the odds behind a read key."""
    return make_app(
        redis_server.url,
        grip_urls=("http://127.0.0.1:9",),
        grip_key=GRIP_KEY,
        public_odds=False,
        read_keys=("read-key",),
    )


def test_with_the_odds_behind_keys_a_keyed_client_is_held_on_the_odds_channels(
    redis_server, redis_client
):
    """No link carries the key (the proxy logs the links it asks): the proxy's own request names
    the odds: channels the client was held on, and that is what lets it read the odds."""
    app = keyed_grip_app(redis_server)
    client = app.test_client()
    feed(client, "BP", table="a")
    headers, _ = held(client, "?tables=a", **{"X-API-Key": "read-key"})
    assert headers["Grip-Channel"].startswith("odds:t:a; prev-id=")
    assert "key=" not in headers["Grip-Link"]
    plain, _ = held(client, "?tables=a")
    assert plain["Grip-Channel"].startswith("t:a; prev-id=")
    assert "key=" not in plain["Grip-Link"]
    keyed, _, _ = frames_held(client, **{"X-API-Key": "read-key"})
    assert keyed["Grip-Channel"].startswith("odds:frames")
    assert keyed["Grip-Link"] == "</v1/events>; rel=next; timeout=120"
    # The proxy's next link, naming the odds channel it holds the client on: still odds.
    start = headers["Grip-Channel"].split("prev-id=")[1]
    deal(client, "a", "P", first=3)
    again, events = held(client, "?tables=a", **{"Grip-Last": f"odds:t:a; last-id={start}"})
    assert again["Grip-Channel"].startswith("odds:t:a; prev-id=")
    assert [e["data"]["round"] for e in events if e["event"] == "round"] == [3]
    # A client naming the odds channel itself, with a signature that does not verify:
    # an ordinary viewer, without the odds.
    forged = {"Grip-Sig": forgeries()["wrong-key"], "Grip-Last": f"odds:t:a; last-id={start}"}
    answer = client.get("/v1/events?tables=a", headers=forged, buffered=False)
    assert "Grip-Hold" not in answer.headers
    answer.close()


def test_a_keyed_clients_catch_up_over_a_page_is_held_at_the_page_end_on_the_odds(
    redis_server, redis_client
):
    """A page's next link would name no channel (and carries no key): a client who reads the
    odds is held where the page ends instead, and the proxy's request for the rest names the
    odds channels."""
    app = keyed_grip_app(redis_server)
    client = app.test_client()
    feed(client, "B", table="a")
    channel = held(client, "?tables=a", **{"X-API-Key": "read-key"})[0]["Grip-Channel"]
    start = channel.split("prev-id=")[1]
    deal(client, "a", "BP" * 65, first=2)
    headers, events = held(client, "?tables=a", **{"X-API-Key": "read-key", "Last-Event-ID": start})
    rounds = [e["data"]["round"] for e in events if e["event"] == "round"]
    assert headers["Grip-Hold"] == "stream" and "key=" not in headers["Grip-Link"]
    end = events[-1]["id"]
    assert headers["Grip-Channel"] == f"odds:t:a; prev-id={end}" and rounds[-1] < 131
    while rounds[-1] < 131:
        grip_last = {"Grip-Last": f"odds:t:a; last-id={end}"}
        headers, events = held(client, "?tables=a", **grip_last)
        assert headers["Grip-Channel"].startswith("odds:t:a; prev-id=")
        rounds += [e["data"]["round"] for e in events if e["event"] == "round"]
        end = events[-1]["id"]
    assert rounds == list(range(2, 132))
