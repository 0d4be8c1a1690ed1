"""GET .../odds, and the lobby's edge (a bet's return above 100%) in tiles and events."""

import pytest

from roads import Round, Scorecard
from roads.odds import odds
from roads.simulator import deal_shoe
from tests.api_helpers import feed, post_cards, post_round
from tests.conftest import AUTH, make_app
from tests.http.test_feed_events import read

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, sse_heartbeat=0.1)


def get_odds(client, path="/v1/tables/t1/odds"):
    answer = client.get(path)
    assert answer.status_code == 200, answer.json
    return answer.json


@pytest.mark.parametrize(("variant", "banker"), [("standard", 0.9894), ("no_commission", 0.9854)])
def test_without_cards_the_odds_are_a_fresh_shoes(client, variant, banker):
    client.put("/v1/tables/t1", json={"name": "One", "variant": variant}, headers=AUTH)
    feed(client, "BPT")
    answer = get_odds(client)
    assert answer["composition_known"] is False
    assert answer["variant"] == variant
    assert answer["cards_left"]["total"] == 416
    assert round(answer["rtp"]["banker"], 4) == banker
    assert answer["favourable"] == []
    assert "burn" in answer["note"].lower()


def test_with_cards_the_odds_are_those_of_the_cards_left(client):
    rounds = deal_shoe(seed=3)[:30]
    for number, round in enumerate(rounds, start=1):
        post_cards(client, number, round)
    answer = get_odds(client, "/v1/tables/t1/shoes/s1/odds")
    scorecard = Scorecard.from_rounds(rounds)
    exact = odds(scorecard.cards_left(), "standard")
    assert answer["composition_known"] is True
    assert answer["cards_left"]["total"] == 416 - sum(
        len(r.player_cards) + len(r.banker_cards) for r in rounds
    )
    assert answer["probabilities"]["banker"] == pytest.approx(exact.probabilities["banker"])
    assert answer["rtp"] == pytest.approx(exact.rtp)
    assert answer["version"] == 30 and answer["shoe"] == "s1"
    assert set(answer["probabilities"]) >= {
        "banker",
        "player",
        "tie",
        "banker_six",
        "player_pair",
        "banker_pair",
    }


def test_one_round_without_cards_makes_the_composition_unknown(client):
    post_cards(client, 1, deal_shoe(seed=4)[0])
    assert get_odds(client)["composition_known"] is True
    post_round(client, 2, result="B")
    assert get_odds(client)["composition_known"] is False


def test_the_answer_follows_the_tables_variant_and_is_cached_per_version(client):
    post_cards(client, 1, deal_shoe(seed=5)[0])
    first = client.get("/v1/tables/t1/odds")
    again = client.get("/v1/tables/t1/odds", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    client.put(
        "/v1/tables/t1", json={"name": "One", "variant": "no_commission", "now": True}, headers=AUTH
    )
    changed = client.get("/v1/tables/t1/odds").json
    assert changed["variant"] == "no_commission"
    assert changed["rtp"]["banker"] != first.json["rtp"]["banker"]


def test_unknown_tables_and_shoes_are_404(client):
    assert client.get("/v1/tables/nobody/odds").status_code == 404
    feed(client, "B")
    assert client.get("/v1/tables/t1/shoes/nope/odds").status_code == 404


def ten_value_rounds(count):
    """Rounds of six 10-value cards each (0 against 0: both draw, a tie), which leave a shoe
    ever richer in pairs of the other ranks."""
    tens = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"] * 8
    for number in range(count):
        cards = tens[6 * number : 6 * number + 6]
        p1, b1, p2, b2, p3, b3 = cards
        yield Round.from_cards([p1, p2, p3], [b1, b2, b3])


def test_an_edge_shows_in_the_tile_and_fires_events_once(client):
    stream = client.get("/v1/events?frames=0", buffered=False)
    for number, round in enumerate(ten_value_rounds(21), start=1):
        post_cards(client, number, round)
    tile = client.get("/v1/tables").json["tables"][0]
    assert set(tile["edge"]) >= {"player_pair", "banker_pair"}
    assert all(rtp > 1 for rtp in tile["edge"].values())
    assert get_odds(client)["favourable"] == list(tile["edge"])
    post_round(client, 1, shoe="s2", result="B")  # a new shoe: every edge is gone
    assert client.get("/v1/tables").json["tables"][0]["edge"] == {}
    events, _ = read(stream, 100, seconds=1.0)
    stream.close()
    edges = [(e["data"]["bet"], e["data"]["state"]) for e in events if e["event"] == "edge"]
    for bet in tile["edge"]:
        assert edges.count((bet, "start")) == 1 and edges.count((bet, "stop")) == 1
    assert len(edges) == 2 * len(tile["edge"])


def test_each_round_of_a_table_brings_the_odds_after_it(client):
    """A table view needs no request a round: its channel's events carry what GET .../odds
    answers at their version."""
    stream = client.get("/v1/events?tables=t1", buffered=False)
    served = []
    for number, round in enumerate(deal_shoe(4)[:6], start=1):
        post_cards(client, number, round)
        served.append(get_odds(client))
    post_round(client, 7, result="P")  # without its cards: a fresh shoe's odds from here
    served.append(get_odds(client))
    events, _ = read(stream, 7, seconds=5.0)
    stream.close()
    rounds = [event["data"] for event in events if event["event"] == "round"]
    assert len(rounds) == 7
    for data, answer in zip(rounds, served, strict=True):
        assert (data["shoe"], data["version"]) == (answer["shoe"], answer["version"])
        apart = ("table", "shoe", "version", "note")
        assert data["odds"] == {key: value for key, value in answer.items() if key not in apart}
    assert rounds[-1]["odds"]["composition_known"] is False
