"""What the studio reports of a shoe and the integrity watch uses (issue 45, part 3), through the
API on real Redis: new decks, which an unshuffled shoe's alert names; the cut card, after whose
last round a round is impossible. A lazily shuffled shoe is named within 16 rounds whether or not
new decks were reported."""

import random

import pytest

from roads.badshoes import riffled
from roads.simulator import deal_rounds, deal_shoe
from tests.api_helpers import post_cards
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

OPERATOR = {"X-API-Key": "operator-key"}


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, operator_keys=("operator-key",))


def name(client, table: str) -> None:
    answer = client.put(f"/v1/tables/{table}", json={"name": table.upper()}, headers=AUTH)
    assert answer.status_code == 200, answer.json


def studio(client, table: str, body: dict):
    return client.post(f"/v1/tables/{table}/studio", json=body, headers=AUTH)


def deal(client, rounds, table: str, shoe: str = "s1", first: int = 1) -> None:
    for number, round in enumerate(rounds, start=first):
        post_cards(client, number, round, table, shoe)


def integrity(client, table: str) -> dict:
    answer = client.get(f"/v1/integrity/tables/{table}", headers=OPERATOR)
    assert answer.status_code == 200, answer.json
    return answer.json


def findings(client, table: str, kind: str) -> list[dict]:
    return [found for found in integrity(client, table)["findings"] if found["type"] == kind]


@pytest.mark.parametrize("riffles", [3, 4])
def test_new_decks_given_few_riffles_are_named_within_16_rounds_and_the_alert_says_new(
    client, riffles
):
    """Two tables deal the same lazily shuffled new decks; one studio reported them new."""
    rounds = list(deal_rounds(riffled(random.Random(riffles), riffles)))[:16]
    name(client, "new")
    assert studio(client, "new", {"kind": "new_decks", "shoe": "s1", "count": 8}).status_code == 200
    deal(client, rounds, "new")
    deal(client, rounds, "unsaid")
    (reported,) = findings(client, "new", "unshuffled")
    (unsaid,) = findings(client, "unsaid", "unshuffled")
    assert reported["new_decks"] is True and unsaid["new_decks"] is False
    assert reported["round"] == unsaid["round"] <= 16 and reported["chance"] < 1e-6
    assert reported["chained"] > reported["cards"] / 2
    checks = integrity(client, "new")["shoes"][0]["checks"]
    assert checks["new_decks"] == 8 and checks["shuffle"]["unshuffled"]
    assert integrity(client, "unsaid")["shoes"][0]["checks"]["new_decks"] is None


def test_the_round_after_the_cut_cards_last_is_impossible_and_named_once(client):
    rounds = deal_shoe(31)
    deal(client, rounds[:5], "t1")
    answer = studio(client, "t1", {"kind": "cut_card", "shoe": "s1"})
    assert answer.status_code == 200, answer.json
    checks = integrity(client, "t1")["shoes"][0]["checks"]
    assert checks["cut_card"]["last_round"] == 6
    deal(client, rounds[5:6], "t1", first=6)
    assert findings(client, "t1", "impossible_cards") == []
    deal(client, rounds[6:9], "t1", first=7)
    (past,) = findings(client, "t1", "impossible_cards")
    assert past["check"] == "past_reported_cut" and past["shoe"] == "s1"
    assert past["round"] == 7 and past["last_round"] == 6
    assert "round 6 the last" in past["why"]


def test_a_cut_card_report_may_name_the_last_round_but_not_one_already_passed(client):
    rounds = deal_shoe(32)
    deal(client, rounds[:5], "t1")
    passed = studio(client, "t1", {"kind": "cut_card", "shoe": "s1", "round": 4})
    assert passed.status_code == 409 and "already has 5 rounds" in passed.json["message"]
    assert integrity(client, "t1")["shoes"][0]["checks"]["cut_card"]["last_round"] is None
    assert studio(client, "t1", {"kind": "cut_card", "shoe": "s1", "round": 7}).status_code == 200
    deal(client, rounds[5:7], "t1", first=6)
    assert findings(client, "t1", "impossible_cards") == []
    deal(client, rounds[7:8], "t1", first=8)
    (past,) = findings(client, "t1", "impossible_cards")
    assert past["round"] == 8 and past["last_round"] == 7


def test_facts_of_one_shoe_say_nothing_of_the_next(client):
    deal(client, deal_shoe(33)[:3], "t1")
    assert studio(client, "t1", {"kind": "cut_card", "shoe": "s1"}).status_code == 200
    assert studio(client, "t1", {"kind": "new_decks", "shoe": "s2"}).status_code == 200
    deal(client, deal_shoe(34)[:8], "t1", shoe="s2")
    assert findings(client, "t1", "impossible_cards") == []
    current, earlier = integrity(client, "t1")["shoes"]
    assert current["shoe"] == "s2" and current["checks"]["new_decks"] == 0
    assert current["checks"]["cut_card"]["last_round"] is None
    assert earlier["checks"]["cut_card"]["last_round"] == 4  # kept beside s2's facts


def test_a_late_or_early_report_of_another_shoe_leaves_the_current_shoes_facts(client):
    deal(client, deal_shoe(36)[:4], "t1")
    assert studio(client, "t1", {"kind": "cut_card", "shoe": "s1"}).status_code == 200
    assert studio(client, "t1", {"kind": "new_decks", "shoe": "s2"}).status_code == 200  # early
    deal(client, deal_shoe(36)[4:6], "t1", first=5)
    (past,) = findings(client, "t1", "impossible_cards")  # s1's last round still known
    assert past["round"] == 6 and past["last_round"] == 5
    deal(client, deal_shoe(37)[:2], "t1", shoe="s2")
    late = studio(client, "t1", {"kind": "cut_card", "shoe": "s1", "round": 5})
    assert late.status_code == 409  # s1 has 6 rounds: its last cannot have been the 5th
    current = integrity(client, "t1")["shoes"][0]["checks"]
    assert current["new_decks"] == 0  # s2's kept


def test_a_cut_card_sent_again_after_the_next_round_keeps_the_first(client, redis_client, app):
    """A retry of a report that named no round: the last round stays the one first stated, the
    retry is no event, and the round past it is still named."""
    rounds = deal_shoe(38)
    deal(client, rounds[:5], "t1")
    body = {"kind": "cut_card", "shoe": "s1"}
    assert "repeated" not in studio(client, "t1", body).json
    deal(client, rounds[5:6], "t1", first=6)
    again = studio(client, "t1", body)
    assert again.status_code == 200 and again.json["repeated"] is True
    keys = app.extensions["roads"].keys.lobby
    kinds = [f[b"data"] for _, f in redis_client.xrange(keys.events) if f[b"type"] == b"studio"]
    assert len(kinds) == 1
    assert integrity(client, "t1")["shoes"][0]["checks"]["cut_card"]["last_round"] == 6
    deal(client, rounds[6:8], "t1", first=7)
    (past,) = findings(client, "t1", "impossible_cards")
    assert past["round"] == 7


def test_past_the_cut_is_named_once_even_when_that_round_is_corrected(client):
    rounds = deal_shoe(39)
    deal(client, rounds[:3], "t1")
    assert studio(client, "t1", {"kind": "cut_card", "shoe": "s1"}).status_code == 200
    deal(client, rounds[3:6], "t1", first=4)
    fixed = client.put("/v1/tables/t1/shoes/s1/rounds/5", json={"result": "T"}, headers=AUTH)
    assert fixed.status_code == 200
    found = findings(client, "t1", "impossible_cards")
    assert [f["check"] for f in found].count("past_reported_cut") == 1


def test_a_retired_table_leaves_its_shoe_facts(client, redis_client, app):
    deal(client, deal_shoe(35)[:3], "t1")
    assert studio(client, "t1", {"kind": "new_decks", "shoe": "s1"}).status_code == 200
    keys = app.extensions["roads"].keys.lobby
    assert redis_client.hget(keys.shoe_facts, "t1") is not None
    assert client.delete("/v1/tables/t1", headers=AUTH).status_code == 200
    assert redis_client.hget(keys.shoe_facts, "t1") is None
