"""The odds and the edge flags are for readers with a key (``ROADS_READ_KEYS``) unless the
operator makes them public (``ROADS_PUBLIC_ODDS=1``): the default here, on a real Redis."""

import pytest

from tests.conftest import AUTH, KEY, make_app

READ_KEY = "reader-key"
TENS = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"] * 8


@pytest.fixture
def gated(backend, redis_client):
    app = make_app(backend.url, public_odds=False, read_keys=(READ_KEY,), sse_heartbeat=0.3)
    return app.test_client()


def deal_pairs(client, table="edgy", rounds=21):
    """Six 10-value cards a round: the shoe grows rich in pairs, and Player Pair returns over
    100% (an edge)."""
    for number in range(1, rounds + 1):
        p1, b1, p2, b2, p3, b3 = TENS[6 * (number - 1) : 6 * number]
        body = {"round": number, "player": [p1, p2, p3], "banker": [b1, b2, b3]}
        answer = client.post(f"/v1/tables/{table}/shoes/s1/rounds", json=body, headers=AUTH)
        assert answer.status_code == 201, answer.json


def edge_of(client, **headers):
    tiles = client.get("/v1/tables", headers=headers).json["tables"]
    return {tile["table"]: tile["edge"] for tile in tiles}["edgy"]


def test_the_odds_need_a_read_key(gated):
    deal_pairs(gated, rounds=2)
    refused = gated.get("/v1/tables/edgy/odds")
    assert refused.status_code == 401 and "read key" in refused.json["message"]
    assert gated.get("/v1/tables/edgy/odds", headers={"X-API-Key": "wrong"}).status_code == 401
    assert gated.get("/v1/tables/edgy/odds", headers={"X-API-Key": READ_KEY}).status_code == 200
    assert gated.get("/v1/tables/edgy/odds", headers={"X-API-Key": KEY}).status_code == 200


def test_tiles_show_the_edge_flags_only_with_a_read_key(gated):
    deal_pairs(gated)
    assert edge_of(gated) == {}
    assert "player_pair" in edge_of(gated, **{"X-API-Key": READ_KEY})
    assert edge_of(gated) == {}  # the keyed answer is not served to the next keyless reader


def test_the_lobby_feed_hides_edge_events_and_flags_without_a_key(gated):
    deal_pairs(gated)
    plain = read_all(gated, "/v1/events?frames=0&last_event_id=0")
    keyed = read_all(gated, f"/v1/events?frames=0&last_event_id=0&key={READ_KEY}")
    assert "event: edge" in keyed and '"player_pair"' in keyed
    assert "event: edge" not in plain and '"player_pair"' not in plain
    # The same events, by id: a client without the key misses none of the others.
    assert ids(plain) == ids(keyed)


def test_a_tables_events_carry_the_odds_only_with_a_key(gated):
    deal_pairs(gated, rounds=3)
    plain = read_all(gated, "/v1/events?tables=edgy&last_event_id=0")
    keyed = read_all(gated, f"/v1/events?tables=edgy&last_event_id=0&key={READ_KEY}")
    assert keyed.count('"odds":') == 3 and '"rtp":' in keyed
    assert '"odds":' not in plain and '"rtp":' not in plain
    assert ids(plain) == ids(keyed)


def test_public_odds_show_to_everyone(backend, redis_client):
    client = make_app(backend.url, public_odds=True).test_client()
    deal_pairs(client)
    assert client.get("/v1/tables/edgy/odds").status_code == 200
    assert "player_pair" in edge_of(client)


def read_all(client, url: str) -> str:
    """The backlog a new client gets (the stream read until its first heartbeat)."""
    stream = client.get(url, buffered=False)
    text = ""
    for chunk in stream.response:
        text += chunk.decode()
        if ": heartbeat" in text or text.count("\n\n") > 200:
            break
    stream.close()
    return text


def ids(text: str) -> list[str]:
    return [line[4:] for line in text.splitlines() if line.startswith("id: ")]
