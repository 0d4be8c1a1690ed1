"""What the service answers a GRIP proxy (Pushpin) holding a client, on a real Redis: the missed
events, each channel's prev-id, and the next link the proxy asks when it finds a gap."""

from __future__ import annotations

import pytest

from api.codecs.events import entry_event
from api.config import ConfigError, Settings
from api.live.grip import publish_items
from tests.api_helpers import feed, post_round
from tests.conftest import make_app
from tests.sse_client import sse_events

PROXIED = {"Grip-Sig": "signed-by-the-proxy"}


@pytest.fixture
def proxied(redis_server, redis_client):
    app = make_app(redis_server.url, grip_urls=("http://127.0.0.1:9",))
    yield app.test_client()
    app.extensions["roads"].publisher.stop()


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
    assert channels[0].startswith("t:a; prev-id=") and channels[1] == "t:b"
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


def test_the_lobby_channel_is_held_after_the_streams_newest_event(proxied):
    feed(proxied, "BP", table="a")
    headers, events = held(proxied)
    assert events == []
    assert headers["Grip-Channel"].startswith("lobby; prev-id=")
    assert headers["Grip-Link"] == "</v1/events>; rel=next; timeout=120"


def test_without_a_proxy_configured_the_grip_sig_header_changes_nothing(app):
    answer = app.test_client().get("/v1/events", headers=PROXIED, buffered=False)
    assert "Grip-Hold" not in answer.headers
    answer.close()


@pytest.mark.parametrize("value", ["pushpin:5561", "http://", "ftp://x"])
def test_grip_urls_must_be_http_urls(value):
    with pytest.raises(ConfigError, match="ROADS_GRIP_URL"):
        Settings.from_env({"ROADS_GRIP_URL": value})


def test_with_the_odds_behind_keys_a_keyed_client_is_held_on_the_odds_channels(redis_server):
    app = make_app(
        redis_server.url, grip_urls=("http://127.0.0.1:9",), public_odds=False, read_keys=("rk",)
    )
    client = app.test_client()
    try:
        feed(client, "BP", table="a")
        headers, _ = held(client, "?tables=a", **{"X-API-Key": "rk"})
        assert headers["Grip-Channel"].startswith("odds:t:a; prev-id=")
        assert "key=rk" in headers["Grip-Link"]  # the proxy's own request carries it too
        plain, _ = held(client, "?tables=a")
        assert plain["Grip-Channel"].startswith("t:a; prev-id=")
        assert "key=" not in plain["Grip-Link"]
    finally:
        app.extensions["roads"].publisher.stop()


def test_the_publisher_sends_each_event_with_the_odds_and_without(redis_client):
    redis_client.xadd(
        "s",
        {
            "type": "edge",
            "data": '{"table":"a","bet":"player_pair","state":"start","rtp":1.02}',
            "table": "a",
        },
    )
    (entry_id, fields), *_ = redis_client.xrange("s")
    event = entry_event(entry_id, fields)
    items = publish_items("", event, None, public_odds=False)
    by_channel = {item["channel"]: item["formats"]["http-stream"]["content"] for item in items}
    assert set(by_channel) == {"lobby", "t:a", "odds:lobby", "odds:t:a"}
    assert "player_pair" in by_channel["odds:lobby"] and "player_pair" in by_channel["odds:t:a"]
    assert "player_pair" not in by_channel["lobby"] + by_channel["t:a"]
    assert {item["channel"] for item in publish_items("", event, None)} == {"lobby", "t:a"}
