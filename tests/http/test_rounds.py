"""Ingest, corrections, voids, table metadata and keys, against a real Redis."""

import pytest

from roads import Round, Scorecard
from roads.simulator import deal_shoe
from tests.api_helpers import feed, keys, post_round, roads
from tests.conftest import AUTH

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


def cards_body(round: Round) -> dict:
    return {
        "player": [str(card) for card in round.player_cards],
        "banker": [str(card) for card in round.banker_cards],
    }


def test_a_shoe_of_cards_gives_the_libraries_scorecard(client):
    shoe = deal_shoe(21)
    for number, round in enumerate(shoe, start=1):
        answer = post_round(client, number, **cards_body(round))
        assert answer.status_code == 201, answer.json
        assert answer.json["version"] == number
        assert answer.json["round"]["round"] == number
    served = roads(client)
    expected = Scorecard.from_rounds(shoe).as_dict()
    assert {k: v for k, v in served.items() if k not in ("table", "shoe", "version")} == expected
    assert (served["table"], served["shoe"], served["version"]) == ("t1", "s1", len(shoe))


def test_the_stored_round_is_derived_from_the_cards(client):
    answer = post_round(client, 1, player=["4s", "4S"], banker=["KH", "7C"])
    assert answer.status_code == 201
    stored = answer.json["round"]
    assert stored["result"] == "P" and stored["natural"] and stored["player_perfect_pair"]
    assert stored["player_cards"] == ["4S", "4S"] and stored["version"] == 1


def test_the_identical_round_again_is_a_safe_retry(client):
    first = post_round(client, 1, player=["2S", "3D", "9C"], banker=["KH", "7C"])
    feed_next = post_round(client, 2, result="B")
    again = post_round(client, 1, player=["2s", "3d", "9c"], banker=["kh", "7c"])
    assert again.status_code == 200
    assert again.json["version"] == first.json["version"] == 1
    assert again.json["round"] == first.json["round"]
    assert feed_next.status_code == 201
    assert client.get("/v1/tables/t1").json["version"] == 2


def test_a_different_round_or_a_gap_is_409_with_the_expected_round(client, redis_client):
    feed(client, "BP")
    different = post_round(client, 2, result="B")
    assert different.status_code == 409
    assert different.json["expected_round"] == 3
    assert "already stored" in different.json["message"]
    gap = post_round(client, 5, result="B")
    assert gap.status_code == 409 and gap.json["expected_round"] == 3
    assert client.get("/v1/tables/t1").json["version"] == 2


def test_a_new_shoe_becomes_current_and_closes_the_previous(client):
    feed(client, "BBP", shoe="s1")
    assert post_round(client, 1, shoe="s2", result="T").status_code == 201
    table = client.get("/v1/tables/t1").json
    assert table["current_shoe"] == "s2" and table["shoes"] == ["s1", "s2"]
    assert table["rounds"] == 1 and table["version"] == 1
    current = client.get("/v1/tables/t1/roads").json
    assert current["shoe"] == "s2" and current["big_road"]["columns"] == []
    assert current["big_road"]["leading_ties"] == 1
    closed = post_round(client, 4, shoe="s1", result="B")
    assert closed.status_code == 409 and "closed" in closed.json["message"]
    # The old shoe stays readable.
    assert len(roads(client, shoe="s1")["bead_plate"]) == 3


def test_a_new_shoe_must_start_at_round_1(client):
    answer = post_round(client, 2, shoe="s9", result="B")
    assert answer.status_code == 409 and answer.json["expected_round"] == 1
    assert client.get("/v1/tables/t1").status_code == 404


def test_correction_rebuilds_the_roads(client):
    feed(client, "BBPPB")
    answer = client.put("/v1/tables/t1/shoes/s1/rounds/3", json={"result": "B"}, headers=AUTH)
    assert answer.status_code == 200, answer.json
    assert answer.json["version"] == 6 and answer.json["round"]["result"] == "B"
    expected = Scorecard.from_rounds("BBBPB").as_dict()
    served = roads(client)
    assert served["version"] == 6
    assert served["big_road"] == expected["big_road"]
    assert served["big_eye_boy"] == expected["big_eye_boy"]
    # The same correction again changes nothing.
    again = client.put("/v1/tables/t1/shoes/s1/rounds/3", json={"result": "B"}, headers=AUTH)
    assert again.status_code == 200 and again.json["version"] == 6


def test_void_leaves_every_road_and_stays_in_the_history(client):
    feed(client, "BPPB")
    answer = client.post("/v1/tables/t1/shoes/s1/rounds/2/void", headers=AUTH)
    assert answer.status_code == 200 and answer.json["round"]["void"]
    assert answer.json["version"] == 5
    history = client.get("/v1/tables/t1/shoes/s1/rounds").json["rounds"]
    assert [r["void"] for r in history] == [False, True, False, False]
    served = roads(client)
    assert [b["round"] for b in served["bead_plate"]] == [1, 3, 4]
    assert served["stats"]["void_rounds"] == 1
    table = client.get("/v1/tables/t1").json
    assert (table["rounds"], table["rounds_played"], table["void_rounds"]) == (4, 3, 1)
    again = client.post("/v1/tables/t1/shoes/s1/rounds/2/void", headers=AUTH)
    assert again.status_code == 200 and again.json["version"] == 5
    fix = client.put("/v1/tables/t1/shoes/s1/rounds/2", json={"result": "B"}, headers=AUTH)
    assert fix.status_code == 409


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("put", "/v1/tables/t1/shoes/s1/rounds/9"),
        ("post", "/v1/tables/t1/shoes/s1/rounds/9/void"),
        ("post", "/v1/tables/t1/shoes/nope/rounds/1/void"),
        ("post", "/v1/tables/t1/shoes/s1/rounds/0/void"),
    ],
)
def test_corrections_of_unknown_rounds_are_404(client, method, path):
    feed(client, "BP")
    answer = getattr(client, method)(path, json={"result": "B"}, headers=AUTH)
    assert answer.status_code == 404 and answer.json["message"]


def test_a_correction_must_keep_the_shoe_valid(client):
    aces = {"player": ["AS", "AS", "AS"], "banker": ["KH", "KH", "KH"]}
    assert post_round(client, 1, **aces).status_code == 201
    assert post_round(client, 2, **aces).status_code == 201
    assert post_round(client, 3, result="B").status_code == 201
    answer = client.put("/v1/tables/t1/shoes/s1/rounds/3", json=aces, headers=AUTH)
    assert answer.status_code == 409 and "9th" in answer.json["message"]
    assert client.get("/v1/tables/t1").json["version"] == 3


def test_table_metadata(client):
    answer = client.put(
        "/v1/tables/t1", json={"name": "Salon Privé 1", "variant": "speed"}, headers=AUTH
    )
    assert answer.status_code == 200
    assert answer.json["name"] == "Salon Privé 1" and answer.json["variant"] == "speed"
    assert answer.json["current_shoe"] is None
    feed(client, "B")
    table = client.get("/v1/tables/t1").json
    assert table["variant"] == "speed" and table["current_shoe"] == "s1"
    assert (
        client.put("/v1/tables/t1", json={"name": "x", "variant": "mini"}, headers=AUTH).status_code
        == 400
    )
    assert client.get("/v1/tables/t2").status_code == 404


@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"}, {"X-API-Key": ""}])
def test_ingest_needs_a_key(client, headers):
    for answer in (
        post_round(client, 1, headers=headers, result="B"),
        client.put("/v1/tables/t1", json={"name": "x"}, headers=headers),
        client.put("/v1/tables/t1/shoes/s1/rounds/1", json={"result": "B"}, headers=headers),
        client.post("/v1/tables/t1/shoes/s1/rounds/1/void", headers=headers),
    ):
        assert answer.status_code == 401
        assert answer.headers["WWW-Authenticate"].startswith("ApiKey")
        assert "X-API-Key" in answer.json["message"]
    assert client.get("/v1/tables/t1").status_code == 404


def test_no_configured_keys_means_no_ingest(backend, redis_client):
    from tests.conftest import make_app

    app = make_app(backend.url, cluster=backend.cluster)
    app.extensions["roads.settings"] = app.extensions["roads.settings"].__class__(
        redis_url=backend.url, cluster=backend.cluster
    )
    answer = post_round(app.test_client(), 1, result="B")
    assert answer.status_code == 403 and "ROADS_INGEST_KEYS" in answer.json["message"]
    assert keys(redis_client, "*") == []
