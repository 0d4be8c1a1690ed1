"""A table's own pay table (issue 46) through the API on real Redis: a whole pay table set with the
table is kept under its name and prices the table's odds, tile edge and records; a name is one pay
table for ever; what cannot be priced is refused naming it, changing nothing; a new pay table
mid-shoe waits for the next shoe's first round (unless ``now``), and every round's record names
the pay table it was priced under."""

from __future__ import annotations

import json

import pytest

from api.plan.planner import plan_append
from api.writes.batch import base_from
from roads import Scorecard
from roads.odds import odds
from roads.paytables import pay_table
from roads.presets import PRESETS
from roads.simulator import deal_shoe
from tests.api_helpers import feed, post_cards
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

# A house's own table: Banker 0.95, a Tie by its total, a Big on five or six cards, a Lucky 6
# at one pay whatever its cards.
HOUSE = {
    "name": "house_macau",
    "source": "the house's own rules",
    "bets": {
        "player": [
            {"when": {"winner": "player"}, "pays": 1},
            {"when": {"winner": "tie"}, "pays": "push"},
        ],
        "banker": [
            {"when": {"winner": "banker"}, "pays": 0.95},
            {"when": {"winner": "tie"}, "pays": "push"},
        ],
        "tie": [{"when": {"winner": "tie"}, "pays": 8}],
        "tie_zero": [{"when": {"winner": "tie", "total": 0}, "pays": 150}],
        "big": [{"when": {"cards": [5, 6]}, "pays": 0.54}],
        "lucky_six": [{"when": {"winner": "banker", "banker_total": 6}, "pays": 15}],
        "either_pair": [{"when": {"pair": "either"}, "pays": 5}],
    },
}


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, public_odds=True)


def put(client, table, **body):
    # As a game server sends it: the bets in the pay table's order (Flask's test client's json=
    # sorts an object's keys).
    text = json.dumps({"name": table.upper(), **body})
    headers = {**AUTH, "Content-Type": "application/json"}
    return client.put(f"/v1/tables/{table}", data=text, headers=headers)


def records(client, table, shoe):
    return client.get(f"/v1/tables/{table}/shoes/{shoe}/rounds").json["rounds"]


def test_a_tables_own_pay_table_prices_its_odds_and_is_listed(client):
    answer = put(client, "h1", paytable=HOUSE)
    assert answer.status_code == 200, answer.json
    own = pay_table(HOUSE)
    assert answer.json["variant"] == "house_macau" and answer.json["next_variant"] is None
    assert answer.json["paytable"] == own.as_dict()
    rounds = deal_shoe(46)[:10]
    for number, round in enumerate(rounds, start=1):
        post_cards(client, number, round, "h1", "s1")
    found = client.get("/v1/tables/h1/odds").json
    expected = odds(Scorecard.from_rounds(rounds).cards_left(), own)
    assert found["variant"] == "house_macau" and list(found["rtp"]) == list(HOUSE["bets"])
    assert found["rtp"] == expected.rtp and found["favourable"] == expected.favourable
    assert {record["paytable"] for record in records(client, "h1", "s1")} == {"house_macau"}
    tile = next(t for t in client.get("/v1/tables").json["tables"] if t["table"] == "h1")
    assert tile["variant"] == "house_macau"
    listed = client.get("/v1/paytables").json["paytables"]
    assert [table["name"] for table in listed] == [*PRESETS, "house_macau"]
    assert client.get("/v1/paytables/house_macau").json == own.as_dict()
    assert client.get("/v1/paytables/nothing_here").status_code == 404
    # Another table names it by its name alone.
    assert put(client, "h2", paytable="house_macau").json["paytable"] == own.as_dict()


def test_a_name_is_one_pay_table_for_ever(client, redis_client):
    assert put(client, "h1", paytable=HOUSE).status_code == 200
    assert put(client, "h2", paytable=HOUSE).status_code == 200  # the same one again: fine
    other = {**HOUSE, "bets": {**HOUSE["bets"], "tie": [{"when": {"winner": "tie"}, "pays": 9}]}}
    taken = put(client, "h3", paytable=other)
    assert (
        taken.status_code == 409 and "house_macau names another pay table" in taken.json["message"]
    )
    preset = {**HOUSE, "name": "standard"}
    assert put(client, "h4", paytable=preset).status_code == 409
    for table in ("h3", "h4"):  # refused before anything was written
        assert client.get(f"/v1/tables/{table}").status_code == 404
    assert put(client, "h5", paytable=PRESETS["speed"].as_dict()).json["variant"] == "speed"


BROKEN = [
    # What the document states: a 400 naming the field.
    ({"bets": {"tie": [{"when": {"winner": "tie"}, "pays": -1}]}}, 400, "pays"),
    ({"bets": {"tie": [{"when": {"colour": "red"}, "pays": 1}]}}, 400, "colour"),
    ({"bets": {"tie": [{"when": {"total": 10}, "pays": 1}]}}, 400, "total"),
    ({"bets": {}}, 400, "bets"),
    # What only the engine can judge: a 422 naming where.
    (
        {
            "bets": {
                "mixed": [
                    {"when": {"winner": "tie"}, "pays": 8},
                    {"when": {"pair": "banker"}, "pays": 11},
                ]
            }
        },
        422,
        "bets.mixed",
    ),
    (
        {"bets": {"odd": [{"when": {"pair": "player", "winner": "tie"}, "pays": 1}]}},
        422,
        "pair stands alone",
    ),
    ({"bets": {"fine": [{"when": {"winner": "tie"}, "pays": 8.00001}]}}, 422, "four decimals"),
    ({"bets": {"empty": [{"when": {}, "pays": 1}]}}, 422, "bets.empty.rules[0].when"),
    ({"bets": {"Tie": [{"when": {"winner": "tie"}, "pays": 1}]}}, 422, "bets.Tie"),
]


@pytest.mark.parametrize(("change", "status", "named"), BROKEN)
def test_a_pay_table_that_cannot_be_is_refused_naming_it(client, change, status, named):
    answer = put(client, "bad", paytable={**HOUSE, **change})
    assert answer.status_code == status and named in str(answer.json), answer.json
    assert client.get("/v1/tables/bad").status_code == 404
    assert [table["name"] for table in client.get("/v1/paytables").json["paytables"]] == [*PRESETS]


def test_a_name_no_pay_table_has_and_two_names_are_refused(client):
    unknown = put(client, "x", paytable="tiger_bay")
    assert (
        unknown.status_code == 422 and "no pay table is named tiger_bay" in unknown.json["message"]
    )
    both = put(client, "x", paytable="speed", variant="standard")
    assert both.status_code == 422 and "send paytable alone" in both.json["message"]
    assert put(client, "x", paytable="speed", variant="speed").status_code == 200


def test_a_new_pay_table_mid_shoe_waits_for_the_next_shoe(client):
    assert put(client, "w1", paytable="standard").status_code == 200
    feed(client, "BPB", "w1", "s1")
    answer = put(client, "w1", paytable="lucky_6")
    assert (answer.json["variant"], answer.json["next_variant"]) == ("standard", "lucky_6")
    assert answer.json["paytable"]["name"] == "standard"
    tile = next(t for t in client.get("/v1/tables").json["tables"] if t["table"] == "w1")
    assert (tile["variant"], tile["next_variant"]) == ("standard", "lucky_6")
    post_cards(client, 4, deal_shoe(3)[0], "w1", "s1")
    assert client.get("/v1/tables/w1/odds").json["variant"] == "standard"
    post_cards(client, 1, deal_shoe(4)[0], "w1", "s2")  # the next shoe: in force from here
    after = client.get("/v1/tables/w1").json
    assert (after["variant"], after["next_variant"]) == ("lucky_6", None)
    assert [r["paytable"] for r in records(client, "w1", "s1")] == ["standard"] * 4
    assert [r["paytable"] for r in records(client, "w1", "s2")] == ["lucky_6"]
    odds_now = client.get("/v1/tables/w1/odds").json
    assert odds_now["variant"] == "lucky_6" and "lucky_6" in odds_now["rtp"]
    tile = next(t for t in client.get("/v1/tables").json["tables"] if t["table"] == "w1")
    assert (tile["variant"], tile["next_variant"]) == ("lucky_6", None)


def test_now_puts_a_pay_table_in_force_mid_shoe_and_back_clears_the_waiting_one(client):
    put(client, "n1", paytable="standard")
    feed(client, "BP", "n1", "s1")
    assert put(client, "n1", paytable="speed").json["next_variant"] == "speed"
    cleared = put(client, "n1", paytable="standard")  # the one in force again: nothing waits
    assert (cleared.json["variant"], cleared.json["next_variant"]) == ("standard", None)
    now = put(client, "n1", paytable="ez_baccarat", now=True)
    assert (now.json["variant"], now.json["next_variant"]) == ("ez_baccarat", None)
    post_cards(client, 3, deal_shoe(5)[0], "n1", "s1")
    assert [r["paytable"] for r in records(client, "n1", "s1")] == ["standard"] * 2 + [
        "ez_baccarat"
    ]
    assert put(client, "n1", paytable="speed", now="yes").status_code == 400


def test_a_first_round_read_before_a_pay_table_waits_is_planned_again_under_it(
    backend, redis_client
):
    """A shoe's first round planned from a read made before a PUT set a pay table waiting for
    the next shoe: the commit finds the pay table it was priced under changed, and the round is
    planned again under the waiting one, which it puts in force. A PUT's registry entry that
    reaches the lobby after that is made good by the shoe's next write."""
    app = make_app(backend.url, cluster=backend.cluster)
    services, client = app.extensions["roads"], app.test_client()
    put(client, "r1", paytable="standard")
    feed(client, "BP", "r1", "s1")
    (read,) = services.rounds.read_bases([("r1", "s2")])
    put(client, "r1", paytable="lucky_6")
    first = deal_shoe(8)[0]
    base = base_from(read, "s2", Scorecard(), services.tables.paytables.own)
    (reply,) = services.rounds.commit([plan_append("r1", "s2", 1, first, base)])
    assert not reply.committed  # priced under standard, while lucky_6 waited for this shoe
    assert services.writer.append("r1", "s2", 1, first).record["paytable"] == "lucky_6"
    services.lobby.register("r1", "R1", "standard", next_variant="lucky_6")  # a late PUT's
    post_cards(client, 2, deal_shoe(8)[1], "r1", "s2")
    tile = next(t for t in client.get("/v1/tables").json["tables"] if t["table"] == "r1")
    assert (tile["name"], tile["variant"], tile["next_variant"]) == ("R1", "lucky_6", None)
    # A correction of the shoe before is priced under that shoe's own pay table.
    records = client.get("/v1/tables/r1/shoes/s1/rounds").json["rounds"]
    assert services.writer.priced("r1", "s1", records) == PRESETS["standard"]
    assert services.writer.priced("r1", "s2", records) == PRESETS["lucky_6"]


def test_a_pay_table_redis_lost_is_a_503_saying_so_not_a_500(backend, redis_client):
    """The deployment's list of pay tables lost while a table naming one stays (one slot of a
    cluster): its reads and writes answer 503 naming what to do, and a PUT mends it."""
    app = make_app(backend.url, cluster=backend.cluster)
    client = app.test_client()
    put(client, "lost1", paytable=HOUSE)
    feed(client, "BP", "lost1", "s1")
    redis_client.delete(app.extensions["roads"].keys.lobby.paytables)
    fresh = make_app(backend.url, cluster=backend.cluster).test_client()  # never read it
    for answer in (
        fresh.get("/v1/tables/lost1"),
        fresh.post(
            "/v1/tables/lost1/shoes/s1/rounds", json={"round": 3, "result": "B"}, headers=AUTH
        ),
    ):
        assert answer.status_code == 503 and "PUT its table again" in answer.json["message"]
    assert put(fresh, "lost1", paytable=HOUSE).status_code == 200
    assert fresh.get("/v1/tables/lost1").json["variant"] == "house_macau"
