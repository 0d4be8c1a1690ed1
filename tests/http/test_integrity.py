"""The integrity watch through the API: made shoes raise their alerts (maker's order, one
riffle, a replay on another table, rounds past the cut card, cards withdrawn, an exposed side
bet, a drifting day), the answers need an operator key, and fair shoes raise nothing."""

import json
import random

import pytest

from api.storage.integrity.watchstore import utc_day
from roads import Round
from roads.badshoes import maker_order, riffled_once
from roads.integrity import drift
from roads.simulator import deal_rounds, deal_shoe, shuffled_shoe
from tests.api_helpers import feed, post_cards, post_round
from tests.conftest import AUTH, make_app
from tests.http.test_feed_events import read
from tests.http.test_odds import ten_value_rounds

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

OPERATOR = {"X-API-Key": "operator-key"}


@pytest.fixture
def app(backend, redis_client):
    return make_app(
        backend.url,
        cluster=backend.cluster,
        operator_keys=("operator-key",),
        side_bets_close_after="player_bonus=44,banker_bonus=44,super_6=44",
        sse_heartbeat=0.5,
    )


def deal(client, rounds, table="t1", shoe="s1", first=1):
    for number, round in enumerate(rounds, start=first):
        post_cards(client, number, round, table, shoe)


def integrity(client, table="t1"):
    answer = client.get(f"/v1/integrity/tables/{table}", headers=OPERATOR)
    assert answer.status_code == 200, answer.json
    return answer.json


def findings(client, kind, table="t1"):
    return [found for found in integrity(client, table)["findings"] if found["type"] == kind]


@pytest.mark.parametrize("shoe", [maker_order(), riffled_once()], ids=["maker", "riffled"])
def test_an_unshuffled_shoe_is_named_within_its_first_8_rounds(client, shoe):
    deal(client, list(deal_rounds(shoe))[:8])
    (found,) = findings(client, "unshuffled")
    assert found["table"] == "t1" and found["shoe"] == "s1"
    assert found["round"] <= 8
    assert found["chance"] < 1e-6 and found["unshuffled"] is True
    checks = integrity(client)["shoes"][0]["checks"]
    assert checks["shuffle"]["unshuffled"] and checks["cards_known"]


def test_fair_shoes_raise_nothing(client):
    rng = random.Random(5)
    for number in range(1, 3):
        deal(client, deal_shoe(rng.getrandbits(64)), shoe=f"s{number}")
    answer = integrity(client)
    # Late in a fair shoe a side bet may well have the edge: that alert is the true one.
    assert [f for f in answer["findings"] if f["type"] != "side_bet_exposed"] == []
    assert [shoe["shoe"] for shoe in answer["shoes"]] == ["s2", "s1"]
    for shoe in answer["shoes"]:
        assert shoe["checks"]["shuffle"]["chance"] > 1e-3
        assert shoe["checks"]["cards_used"] <= shoe["checks"]["cut_card"]["last_start"] + 6


def test_a_shoe_replayed_on_another_table_names_the_first_within_4_rounds(client):
    rounds = list(deal_rounds(shuffled_shoe(random.Random(9))))
    deal(client, rounds[:30], table="t1", shoe="monday")
    deal(client, rounds[:4], table="t2", shoe="tuesday")
    (found,) = findings(client, "repeated_shoe", table="t2")
    assert found["table"] == "t2" and found["shoe"] == "tuesday" and found["round"] <= 4
    assert found["earlier"]["table"] == "t1" and found["earlier"]["shoe"] == "monday"
    assert found["earlier"]["round"] == found["from_round"]
    assert findings(client, "repeated_shoe", table="t1") == []


def test_a_replay_from_the_middle_of_a_shoe_is_named_too(client):
    rounds = list(deal_rounds(shuffled_shoe(random.Random(10))))
    deal(client, rounds[:40], table="t1", shoe="s1")
    deal(client, rounds[20:26], table="t2", shoe="s9")
    (found,) = findings(client, "repeated_shoe", table="t2")
    assert found["earlier"]["round"] - 20 == found["from_round"]
    deal(client, rounds[26:40], table="t2", shoe="s9", first=7)  # named once per shoe
    assert len(findings(client, "repeated_shoe", table="t2")) == 1


def test_rounds_past_the_cut_card_are_impossible(backend, redis_client):
    # With the cut card at least 400 cards from the back, the last hand starts by card 16.
    app = make_app(
        backend.url, cluster=backend.cluster, operator_keys=("operator-key",), cut_card_behind=400
    )
    client = app.test_client()
    feed(client, "BPBP")  # 16 cards at least: round 5 could still be the last hand
    assert findings(client, "impossible_cards") == []
    feed_from(client, 5, "BPB")
    (found,) = findings(client, "impossible_cards")
    assert found["check"] == "past_cut_card" and found["round"] == 6
    assert found["cards_used"] == 20 and found["limit"] == 16


def feed_from(client, first, results, table="t1", shoe="s1"):
    for number, result in enumerate(results, start=first):
        assert post_round(client, number, table, shoe, result=result).status_code == 201


def test_a_round_whose_cards_are_withdrawn_by_a_correction_is_found(client):
    deal(client, deal_shoe(3)[:3])
    answer = client.put(
        "/v1/tables/t1/shoes/s1/rounds/2", json={"round": 2, "result": "T"}, headers=AUTH
    )
    assert answer.status_code == 200, answer.json
    (found,) = findings(client, "impossible_cards")
    assert found["check"] == "cards_withdrawn" and found["round"] == 2


def test_a_side_bet_with_the_edge_says_close_it_once(client):
    deal(client, ten_value_rounds(21))
    exposed = findings(client, "side_bet_exposed")
    bets = {found["bet"] for found in exposed}
    assert {"player_pair", "banker_pair"} <= bets
    assert len(exposed) == len(bets)  # once per bet and shoe
    for found in exposed:
        assert found["rtp"] > 1 and found["action"] == "close it"
        assert found["cards_left"]["total"] < 416
    policy = integrity(client)["shoes"][0]["checks"]["side_bets"]
    assert policy["player_bonus"] == {"closes_after": 44, "open": True}
    assert policy["player_pair"] == {"closes_after": None, "open": True}


def test_a_days_tally_adds_each_round_against_its_chances(client, redis_client):
    rounds = deal_shoe(4)[:40]
    deal(client, rounds)
    day = client.get("/v1/integrity/drift", headers=OPERATOR).json
    entry = day["tables"]["t1"]
    assert entry["rounds"] == 40
    tests = entry["tests"]
    assert tests["banker"]["observed"] == sum(r.result == "B" for r in rounds)
    assert tests["natural"]["observed"] == sum(r.natural for r in rounds)
    # the expected count: round 1 from a fresh shoe, each later one from the cards left
    from roads import Scorecard
    from roads.odds import shoe_odds

    expected, card = 0.0, Scorecard()
    for round in rounds:
        expected += shoe_odds(card)["probabilities"]["banker"]
        card.add(round)
    assert tests["banker"]["expected"] == pytest.approx(expected, abs=1e-3)
    assert entry["p"] > 1e-3 and not entry["alert"]


def test_a_drifting_table_is_alerted_once_and_a_fair_one_is_not(client):
    feed(client, "B" * 60, table="bent")
    feed(client, "".join(round.result for round in deal_shoe(12)[:60]), table="fair")
    day = client.get("/v1/integrity/drift", headers=OPERATOR).json
    assert day["tables"]["bent"]["alert"] and not day["tables"]["fair"]["alert"]
    assert day["alert_below"] == drift.ALERT
    client.get("/v1/integrity/drift", headers=OPERATOR)  # evaluated again: raised once
    (found,) = findings(client, "drift", table="bent")
    assert found["adjusted_p"] < drift.ALERT and found["tests"]["banker"]["z"] > 5
    assert findings(client, "drift", table="fair") == []


def test_the_alert_stream_follows_and_resumes(client):
    stream = client.get("/v1/integrity/events", headers=OPERATOR, buffered=False)
    assert stream.status_code == 200 and stream.mimetype == "text/event-stream"
    deal(client, list(deal_rounds(maker_order()))[:3])
    events, _ = read(stream, 1)
    stream.close()
    (event,) = events
    assert event["event"] == "unshuffled" and event["data"]["shoe"] == "s1"
    deal(client, list(deal_rounds(maker_order()))[:3], table="t2")
    resumed = client.get(
        "/v1/integrity/events", headers={**OPERATOR, "Last-Event-ID": event["id"]}, buffered=False
    )
    later, _ = read(resumed, 1)
    resumed.close()
    assert [e["data"]["table"] for e in later] == ["t2"]


@pytest.mark.parametrize(
    "path", ["/v1/integrity/tables/t1", "/v1/integrity/drift", "/v1/integrity/events"]
)
@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"}, AUTH])
def test_every_answer_needs_an_operator_key(client, path, headers):
    answer = client.get(path, headers=headers)
    assert answer.status_code == 401
    assert "operator key" in answer.json["message"]


def test_bad_requests_name_the_problem(client):
    assert client.get("/v1/integrity/tables/nope", headers=OPERATOR).status_code == 404
    answer = client.get("/v1/integrity/drift?day=yesterday", headers=OPERATOR)
    assert answer.status_code == 422 and "YYYY-MM-DD" in json.dumps(answer.json)
    answer = client.get("/v1/integrity/events", headers={**OPERATOR, "Last-Event-ID": "x"})
    assert answer.status_code == 400 and "Last-Event-ID" in answer.json["message"]


def test_with_the_watch_off_nothing_is_kept_and_its_answers_say_so(backend, redis_client):
    app = make_app(
        backend.url, cluster=backend.cluster, operator_keys=("operator-key",), integrity=False
    )
    client = app.test_client()
    deal(client, list(deal_rounds(maker_order()))[:4])
    answer = client.get("/v1/integrity/tables/t1", headers=OPERATOR)
    assert answer.status_code == 404 and "ROADS_INTEGRITY" in answer.json["message"]
    assert not [key for key in _keys(redis_client) if b"integrity" in key]


def test_alerts_are_counted_in_the_metrics(client):
    deal(client, list(deal_rounds(maker_order()))[:3])
    text = client.get("/metrics").text
    line = [x for x in text.splitlines() if x.startswith("roads_integrity_alerts_total")]
    assert any('kind="unshuffled"' in x and float(x.split()[-1]) >= 1 for x in line)


def _keys(redis_client):
    from tests.api_helpers import keys

    return keys(redis_client, "*")


def test_a_new_shoes_first_round_is_tallied_against_a_fresh_shoe(client):
    """The chances an append leaves for the next round are its shoe's: the next shoe's first
    round takes a fresh shoe's, whatever the last shoe left."""
    deal(client, ten_value_rounds(21), shoe="a")  # a shoe rich in pairs by its end
    post_cards(client, 1, Round.from_cards(["2S", "3S"], ["4D", "5D"]), shoe="b")
    tests = client.get("/v1/integrity/drift", headers=OPERATOR).json["tables"]["t1"]["tests"]
    from roads import Scorecard
    from roads.odds import fresh_odds, shoe_odds

    expected, card = 0.0, Scorecard()
    for round in ten_value_rounds(21):
        expected += shoe_odds(card)["probabilities"]["player_pair"]
        card.add(round)
    expected += fresh_odds()["probabilities"]["player_pair"]
    assert tests["player_pair"]["expected"] == pytest.approx(expected, abs=1e-3)


def test_the_drift_evaluator_raises_alerts_with_nobody_reading(app, client, backend):
    feed(client, "B" * 60, table="bent")
    evaluator = app.extensions["roads"].drift
    assert evaluator.running()  # one of the jobs the first request started
    evaluator.stop()
    other = make_app(backend.url, cluster=backend.cluster).extensions["roads"].drift
    assert evaluator.step() or other.step()  # whichever holds the lease evaluates
    assert not (evaluator.step() and other.step())  # never both
    (found,) = findings(client, "drift", table="bent")
    assert found["day"] == utc_day() and found["rounds"] == 60


def metric(client, name, label):
    lines = [x for x in client.get("/metrics").text.splitlines() if x.startswith(name)]
    return sum(float(x.split()[-1]) for x in lines if label in x)


def test_impossible_card_reports_are_refused_counted_and_change_nothing(client, redis_client):
    deal(client, [Round.from_cards(["AS", "AS"], ["9S", "10S"]) for _ in range(4)])  # 8 AS
    kept = {key: redis_client.dump(key) for key in _keys(redis_client)}
    rules = metric(client, "roads_integrity_refused_total", 'check="rules_broken"')
    copies = metric(client, "roads_integrity_refused_total", 'check="too_many_copies"')
    # The Player stands on 6 and the Banker on 7: nobody may draw, yet the Player did.
    broken = post_round(client, 5, player=["3S", "3H", "2D"], banker=["4C", "3D"])
    assert broken.status_code == 422
    ninth = post_round(client, 5, player=["AS", "8H"], banker=["10D", "10C"])
    assert ninth.status_code == 409 and "9th" in ninth.json["message"]
    assert {key: redis_client.dump(key) for key in _keys(redis_client)} == kept
    assert metric(client, "roads_integrity_refused_total", 'check="rules_broken"') == rules + 1
    assert metric(client, "roads_integrity_refused_total", 'check="too_many_copies"') == copies + 1


def test_the_runs_go_on_across_the_batches_the_tally_is_added_up_in(client):
    feed(client, "BPTPB")
    first = client.get("/v1/integrity/drift", headers=OPERATOR).json["tables"]["t1"]
    assert first["tests"]["runs"]["observed"] == 3  # B, P(T)P, B
    feed_from(client, 6, "BBP")
    later = client.get("/v1/integrity/drift", headers=OPERATOR).json["tables"]["t1"]
    assert later["rounds"] == 8
    assert later["tests"]["runs"]["observed"] == 4  # B, P(T)P, BBB, P


def test_the_alert_stream_resumes_from_any_id_redis_takes(app, client):
    store = app.extensions["roads"].integrity
    deal(client, list(deal_rounds(maker_order()))[:3])
    (alert,) = store.after("0")
    assert store.after("0-0") == store.after("-") == [alert]
    assert store.after(alert.id) == []
    assert store.after(f"{2**64 - 1}-{2**64 - 1}") == store.after(f"{2**64 - 1}") == []


def test_a_shoe_dealt_closer_to_its_end_than_a_cut_card_allows_is_an_impossible_close(client):
    # Dealt on with only 6 cards behind the cut card (14 at least by default): it closes having
    # used more cards than any shoe with a cut card can.
    rounds = list(deal_rounds(shuffled_shoe(random.Random(6)), cut_card=6, burn=False))
    deal(client, rounds, shoe="deep")
    post_round(client, 1, shoe="next", result="B")  # the next shoe closes it
    answer = integrity(client)
    (closed,) = [shoe for shoe in answer["shoes"] if shoe["shoe"] == "deep"]
    checks = closed["checks"]
    assert checks["cards_used"] > checks["cut_card"]["last_start"] + 6
    (found,) = [f for f in closed["findings"] if f["type"] == "impossible_cards"]
    assert found["check"] == "past_cut_card" and found["cards_used"] > found["limit"] == 402
    assert found["round"] == next(
        n for n in range(2, len(rounds) + 1) if sum(len(r.cards()) for r in rounds[: n - 1]) > 402
    )
