"""What the studio reports between rounds (issue 45, part 3), through the app on real Redis and
PostgreSQL: a shuffle, a pause and its end move the table's status; a cancel of a reported
round voids it; every report is a ``studio`` event on the table's channel and a write in the
record's chain (the table's own, checked as a restore checks it); a report a kind cannot make is
a 422 and changes nothing."""

from __future__ import annotations

import orjson
import psycopg
import pytest

from api.codecs.roundfacts import BurnedBefore
from api.plan.planner import plan_append
from api.record.readback import Row, table_chain
from api.writes.batch import base_from
from roads import Scorecard
from roads.odds import shoe_odds
from roads.simulator import deal_shoe
from tests.conftest import AUTH, make_app
from tests.record.conftest import record_all

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

ROUNDS = deal_shoe(21)


def studio(client, table: str, body: dict):
    return client.post(f"/v1/tables/{table}/studio", json=body, headers=AUTH)


def round_body(dealt, **more) -> dict:
    return {
        "player": [str(card) for card in dealt.player_cards],
        "banker": [str(card) for card in dealt.banker_cards],
        **more,
    }


def deal(client, table: str, shoe: str, count: int) -> None:
    for number in range(1, count + 1):
        body = round_body(ROUNDS[number - 1], round=number)
        answer = client.post(f"/v1/tables/{table}/shoes/{shoe}/rounds", json=body, headers=AUTH)
        assert answer.status_code == 201, answer.json


def tile(client, table: str) -> dict:
    (found,) = [t for t in client.get("/v1/tables").json["tables"] if t["table"] == table]
    return found


def events(redis_client, app) -> list[dict]:
    keys = app.extensions["roads"].keys.lobby
    entries = redis_client.xrange(keys.events)
    return [
        {"type": fields[b"type"].decode(), **orjson.loads(fields[b"data"])}
        for _, fields in entries
        if fields[b"type"] == b"studio"
    ]


def test_each_report_moves_the_status_it_names_and_is_an_event_and_recorded(
    record_apps, redis_client, database_url
):
    app = record_apps()
    client = app.test_client()
    deal(client, "st", "s1", 3)
    paused = studio(client, "st", {"kind": "pause", "reason": "Card reader check"})
    assert paused.status_code == 200, paused.json
    assert paused.json["kind"] == "pause" and paused.json["at"].endswith("Z")
    assert tile(client, "st")["status"] == "paused"
    assert tile(client, "st")["status_reason"] == "Card reader check"
    assert studio(client, "st", {"kind": "resume"}).status_code == 200
    assert tile(client, "st")["status"] == "open"
    assert studio(client, "st", {"kind": "cut_card", "shoe": "s1"}).status_code == 200
    assert studio(client, "st", {"kind": "burn", "shoe": "s1", "count": 2}).status_code == 200
    assert studio(client, "st", {"kind": "shuffle", "shoe": "s2"}).status_code == 200
    assert tile(client, "st")["status"] == "shuffling"
    assert studio(client, "st", {"kind": "new_decks", "shoe": "s2", "count": 8}).status_code == 200
    kinds = ["pause", "resume", "cut_card", "burn", "shuffle", "new_decks"]
    sent = events(redis_client, app)
    assert [e["kind"] for e in sent] == kinds and sent[3]["count"] == 2
    record_all(app.extensions["roads"].record.recorder)
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT number, canonical, prev_hash, hash FROM record_writes"
            " WHERE table_id = 'st' AND shoe = '' ORDER BY number"
        ).fetchall()
    chained = [orjson.loads(row[1]) for row in rows]
    assert [orjson.loads(e["event"])["kind"] for e in chained if e["kind"] == "studio"] == kinds
    table_chain("st", [Row(*row) for row in rows])  # the table's chain holds, with them in it


def test_a_cancel_of_a_reported_round_voids_it(backend, redis_client):
    client = make_app(backend.url, cluster=backend.cluster).test_client()
    deal(client, "cx", "s1", 4)
    answer = studio(client, "cx", {"kind": "cancel", "shoe": "s1", "round": 4, "reason": "Misdeal"})
    assert answer.status_code == 200, answer.json
    rounds = client.get("/v1/tables/cx/shoes/s1/rounds").json["rounds"]
    assert rounds[3]["void"] is True and not rounds[2]["void"]
    missing = studio(client, "cx", {"kind": "cancel", "shoe": "s1", "round": 9})
    assert missing.status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"kind": "burn", "shoe": "s1"}, 422, "cards or count"),
        ({"kind": "burn", "shoe": "s1", "cards": ["AS"], "count": 1}, 422, "cards or count"),
        ({"kind": "burn", "count": 1}, 422, "shoe"),
        ({"kind": "pause", "shoe": "s1"}, 422, "shoe"),
        ({"kind": "resume", "count": 3}, 422, "count"),
        ({"kind": "new_decks", "shoe": "s1", "round": 2}, 422, "round"),
        ({"kind": "deal"}, 400, "kind"),
        ({"kind": "burn", "shoe": "s1", "cards": ["ZZ"]}, 400, "cards"),
        ({"kind": "pause", "reason": "\u202eevil"}, 400, "reason"),
    ],
)
def test_a_report_its_kind_cannot_make_is_refused_and_changes_nothing(
    backend, redis_client, body, status, says
):
    client = make_app(backend.url, cluster=backend.cluster).test_client()
    deal(client, "rf", "s1", 2)
    answer = studio(client, "rf", body)
    assert answer.status_code == status and says in str(answer.json)
    assert tile(client, "rf")["status"] == "open"


def test_an_unknown_table_and_a_missing_key(backend, redis_client):
    client = make_app(backend.url, cluster=backend.cluster).test_client()
    assert studio(client, "nobody", {"kind": "pause"}).status_code == 404
    answer = client.post("/v1/tables/t1/studio", json={"kind": "pause"})
    assert answer.status_code == 401


def test_burned_cards_change_the_exact_odds_as_if_they_had_been_dealt(record_apps):
    app = record_apps(hot_seconds=0, public_odds=True)
    client = app.test_client()
    deal(client, "bu", "s1", 6)
    before = client.get("/v1/tables/bu/shoes/s1/odds").json
    burned = ["9S", "9H", "KD", "4C"]
    answer = studio(client, "bu", {"kind": "burn", "shoe": "s1", "cards": burned})
    assert answer.status_code == 200, answer.json
    after = client.get("/v1/tables/bu/shoes/s1/odds").json
    # As if dealt: the same shoe with those cards out of it, by roads' own odds.
    expected = Scorecard.from_rounds(ROUNDS[:6])
    expected.burn(burned)
    assert after["probabilities"] == shoe_odds(expected)["probabilities"]
    assert after["cards_left"]["total"] == before["cards_left"]["total"] - 4
    left, was = after["cards_left"]["by_rank"], before["cards_left"]["by_rank"]
    assert was["9"] - left["9"] == 2 and was["K"] - left["K"] == 1 and was["4"] - left["4"] == 1
    assert after["probabilities"] != before["probabilities"]
    # The round before the burn keeps the cards in its record; the next round's odds go on
    # from the shoe without them, a correction of an earlier round keeps them out, and so does
    # the shoe once it left Redis for the record and came back.
    (record,) = client.get("/v1/tables/bu/shoes/s1/rounds").json["rounds"][5:]
    assert record["burned"] == burned
    deal_more = ROUNDS[6]
    body = round_body(deal_more, round=7)
    assert client.post("/v1/tables/bu/shoes/s1/rounds", json=body, headers=AUTH).status_code == 201
    expected.add(deal_more)
    assert (
        client.get("/v1/tables/bu/shoes/s1/odds").json["probabilities"]
        == shoe_odds(expected)["probabilities"]
    )
    fixed = client.put("/v1/tables/bu/shoes/s1/rounds/2", json={"result": "T"}, headers=AUTH)
    assert fixed.status_code == 200
    now = client.get("/v1/tables/bu/shoes/s1/odds").json
    assert now["composition_known"] is False  # a round without cards: a fresh shoe's figures
    client.put("/v1/tables/bu/shoes/s1/rounds/2", json=round_body(ROUNDS[1]), headers=AUTH)
    restored = client.get("/v1/tables/bu/shoes/s1/odds").json
    assert restored["cards_left"]["total"] == after["cards_left"]["total"] - len(
        deal_more.player_cards + deal_more.banker_cards
    )
    deal(client, "bu", "s2", 1)  # s1 closes, and leaves Redis once recorded
    record_all(app.extensions["roads"].record.recorder)
    services = app.extensions["roads"]
    assert not services.transport.command("EXISTS", services.keys.shoe("bu", "s1").rounds)
    back = client.get("/v1/tables/bu/shoes/s1/odds").json
    assert back["probabilities"] == restored["probabilities"]


def test_a_burn_the_shoe_cannot_hold_is_refused(backend, redis_client):
    client = make_app(backend.url, cluster=backend.cluster, public_odds=True).test_client()
    deal(client, "bx", "s1", 1)
    too_many = studio(client, "bx", {"kind": "burn", "shoe": "s1", "cards": ["AS"] * 9})
    assert too_many.status_code == 409 and "AS" in too_many.json["message"]
    rounds = client.get("/v1/tables/bx/shoes/s1/rounds").json["rounds"]
    assert "burned" not in rounds[0]  # nothing changed
    again = studio(client, "bx", {"kind": "burn", "shoe": "s2", "cards": ["AS"] * 9})
    assert again.status_code == 409 and "AS" in again.json["message"]


def test_cards_burned_before_a_shoes_first_round_leave_it_with_that_round(backend, redis_client):
    """The burn after a shuffle: reported (twice here) before the shoe has a round, the cards
    wait in the table's meta; the shoe's first round takes them into its record, and its odds
    are those of the shoe without them."""
    app = make_app(backend.url, cluster=backend.cluster, public_odds=True)
    client = app.test_client()
    deal(client, "bb", "s1", 2)
    first = studio(client, "bb", {"kind": "burn", "shoe": "s2", "cards": ["9S", "KD"]})
    assert first.status_code == 200, first.json
    assert studio(client, "bb", {"kind": "burn", "shoe": "s2", "cards": ["4c"]}).status_code == 200
    too_many = studio(client, "bb", {"kind": "burn", "shoe": "s2", "cards": ["KD"] * 8})
    assert too_many.status_code == 409  # with the KD kept, nine: nothing more is kept
    item = {"table": "bb", "shoe": "s2", **round_body(ROUNDS[0], round=1)}
    answer = client.post("/v1/rounds", json={"rounds": [item]}, headers=AUTH)
    assert answer.json["results"][0]["status"] == 201, answer.json
    (record,) = client.get("/v1/tables/bb/shoes/s2/rounds").json["rounds"]
    assert record["burned"] == ["9S", "KD", "4C"]
    expected = Scorecard.from_rounds(ROUNDS[:1])
    expected.burn(["9S", "KD", "4C"])
    odds = client.get("/v1/tables/bb/shoes/s2/odds").json
    assert odds["probabilities"] == shoe_odds(expected)["probabilities"]
    services = app.extensions["roads"]
    assert services.rounds.kept_burned_before("bb") is None  # taken, once
    body = round_body(ROUNDS[1], round=2)
    assert client.post("/v1/tables/bb/shoes/s2/rounds", json=body, headers=AUTH).status_code == 201
    assert "burned" not in client.get("/v1/tables/bb/shoes/s2/rounds").json["rounds"][1]


def test_a_first_round_planned_before_a_burn_is_planned_again_with_it(backend, redis_client):
    """A burn kept between an append's read and its commit: the commit finds the meta changed
    and the round is planned again from a fresh read, taking the cards."""
    app = make_app(backend.url, cluster=backend.cluster)
    services = app.extensions["roads"]
    store, writer = services.rounds, services.writer
    deal(app.test_client(), "br", "s0", 1)  # the table's meta, where the cards wait
    (read,) = store.read_bases([("br", "s1")])
    store.keep_burned_before("br", "s1", None, BurnedBefore(("2H",)))
    stale = plan_append(
        "br", "s1", 1, ROUNDS[0], base_from(read, "s1", Scorecard(), services.tables.paytables.own)
    )
    (reply,) = store.commit([stale])
    assert not reply.committed  # the meta kept a burn the plan did not take
    written = writer.append("br", "s1", 1, ROUNDS[0])
    assert written.record["burned"] == ["2H"]


def test_a_burn_sent_again_under_its_report_id_changes_nothing(backend, redis_client):
    """The retry key of a burn, kept with its cards: after a round (in that round's record),
    before the shoe's first round (in the table's meta, then in the round's record), and found
    again after the first round took them."""
    app = make_app(backend.url, cluster=backend.cluster, public_odds=True)
    client = app.test_client()
    deal(client, "ri", "s1", 3)
    body = {"kind": "burn", "shoe": "s1", "cards": ["7S", "7D"], "report_id": "bn-1"}
    first, again = studio(client, "ri", body), studio(client, "ri", body)
    assert first.status_code == again.status_code == 200
    assert "repeated" not in first.json and again.json["repeated"] is True
    assert again.json["report_id"] == "bn-1"
    record = client.get("/v1/tables/ri/shoes/s1/rounds").json["rounds"][2]
    assert record["burned"] == ["7S", "7D"] and record["burn_ids"] == ["bn-1"]
    expected = Scorecard.from_rounds(ROUNDS[:3])
    expected.burn(["7S", "7D"])
    odds = client.get("/v1/tables/ri/shoes/s1/odds").json
    assert odds["probabilities"] == shoe_odds(expected)["probabilities"]
    assert [e["kind"] for e in events(redis_client, app)] == ["burn"]  # one event, not two
    # Before the next shoe's first round, then after it took them.
    early = {"kind": "burn", "shoe": "s2", "cards": ["QH"], "report_id": "bn-2"}
    assert "repeated" not in studio(client, "ri", early).json
    assert studio(client, "ri", early).json["repeated"] is True
    deal(client, "ri", "s2", 1)
    (taken,) = client.get("/v1/tables/ri/shoes/s2/rounds").json["rounds"]
    assert taken["burned"] == ["QH"] and taken["burn_ids"] == ["bn-2"]
    assert studio(client, "ri", early).json["repeated"] is True
    assert client.get("/v1/tables/ri/shoes/s2/rounds").json["rounds"][0]["burned"] == ["QH"]


def test_a_report_id_is_a_burns_and_has_the_game_ids_form(backend, redis_client):
    client = make_app(backend.url, cluster=backend.cluster).test_client()
    deal(client, "rj", "s1", 1)
    paused = studio(client, "rj", {"kind": "pause", "report_id": "p-1"})
    assert paused.status_code == 422 and "report_id" in paused.json["message"]
    spaced = studio(
        client, "rj", {"kind": "burn", "shoe": "s1", "cards": ["AS"], "report_id": "a b"}
    )
    assert spaced.status_code == 400 and "report id" in str(spaced.json)
    counted = studio(client, "rj", {"kind": "burn", "shoe": "s1", "count": 1, "report_id": "c-1"})
    assert counted.status_code == 422 and "report_id" in counted.json["message"]


def test_a_first_round_that_cannot_hold_the_burned_cards_stands_without_them(backend, redis_client):
    """Eight aces burned before a shoe whose first round deals an ace: the round stands (the
    dealer's cards are the truth), the burn is dropped and named by the watch, nothing waits."""
    app = make_app(backend.url, cluster=backend.cluster, operator_keys=("operator-key",))
    client = app.test_client()
    deal(client, "ov", "s1", 1)
    aces = {"kind": "burn", "shoe": "s2", "cards": ["AS"] * 8}
    assert studio(client, "ov", aces).status_code == 200
    first = {"player": ["AS", "8D"], "banker": ["KD", "QS"], "round": 1}
    answer = client.post("/v1/tables/ov/shoes/s2/rounds", json=first, headers=AUTH)
    assert answer.status_code == 201, answer.json
    (record,) = client.get("/v1/tables/ov/shoes/s2/rounds").json["rounds"]
    assert "burned" not in record
    assert app.extensions["roads"].rounds.kept_burned_before("ov") is None
    checks = client.get("/v1/integrity/tables/ov", headers={"X-API-Key": "operator-key"}).json
    (refused,) = [f for f in checks["findings"] if f.get("check") == "burn_refused"]
    assert refused["type"] == "impossible_cards" and len(refused["cards"]) == 8


def test_one_shoes_burned_cards_wait_at_a_time(backend, redis_client):
    """A burn before another shoe's first round is a 409 naming the shoe waited for; another
    shoe's first round drops the cards of a shoe that did not start."""
    app = make_app(backend.url, cluster=backend.cluster)
    client = app.test_client()
    deal(client, "ow", "s1", 1)
    assert studio(client, "ow", {"kind": "burn", "shoe": "s2", "cards": ["9S"]}).status_code == 200
    other = studio(client, "ow", {"kind": "burn", "shoe": "s3", "cards": ["9H"]})
    assert other.status_code == 409 and "shoe s2" in other.json["message"]
    deal(client, "ow", "s3", 1)  # s2 never started
    assert "burned" not in client.get("/v1/tables/ow/shoes/s3/rounds").json["rounds"][0]
    assert app.extensions["roads"].rounds.kept_burned_before("ow") is None
    later = studio(client, "ow", {"kind": "burn", "shoe": "s4", "cards": ["9H"]})
    assert later.status_code == 200
