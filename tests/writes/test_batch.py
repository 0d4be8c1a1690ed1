"""POST /v1/rounds: rounds of many tables in one request, each stored exactly as its single
report would be, against a real Redis (and a local Redis Cluster)."""

import random
import time

import pytest

from roads import Round, Scorecard
from roads.simulator import deal_shoe
from tests.api_helpers import feed, keys, post_round, roads
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


def send(client, *rounds, headers=AUTH):
    return client.post("/v1/rounds", json={"rounds": list(rounds)}, headers=headers)


def item(table: str, number: int, round: Round | None = None, shoe: str = "s1", **body) -> dict:
    if round is not None and round.player_cards:
        body = {
            "player": [str(card) for card in round.player_cards],
            "banker": [str(card) for card in round.banker_cards],
        }
    elif round is not None:
        body = {"result": round.result}
    return {"table": table, "shoe": shoe, "round": number, **body}


def statuses(answer) -> list[int]:
    assert answer.status_code == 200, answer.json
    return [outcome["status"] for outcome in answer.json["results"]]


def scorecard_served(client, table: str, shoe: str = "s1") -> dict:
    served = roads(client, table, shoe)
    return {k: v for k, v in served.items() if k not in ("table", "shoe", "version")}


def test_interleaved_shoes_in_batches_give_each_tables_scorecard(client):
    shoes = {f"g{n}": deal_shoe(40 + n)[:30] for n in range(5)}
    pending = [(table, number) for number in range(1, 31) for table in shoes]
    rng = random.Random(7)
    while pending:
        size = rng.randint(1, 12)
        batch, pending = pending[:size], pending[size:]
        answer = send(client, *(item(t, n, shoes[t][n - 1]) for t, n in batch))
        assert statuses(answer) == [201] * len(batch)
        for (table, number), outcome in zip(batch, answer.json["results"], strict=True):
            assert (outcome["table"], outcome["shoe"]) == (table, "s1")
            assert outcome["version"] == number and outcome["round"]["round"] == number
    for table, rounds in shoes.items():
        assert scorecard_served(client, table) == Scorecard.from_rounds(rounds).as_dict()
    tiles = {tile["table"]: tile for tile in client.get("/v1/tables").json["tables"]}
    assert {table: tiles[table]["rounds_played"] for table in shoes} == {
        table: len(Scorecard.from_rounds(rounds)) for table, rounds in shoes.items()
    }


def test_each_round_gets_the_answer_its_single_report_would(client):
    feed(client, "BP", table="a")
    feed(client, "B", table="b")
    answer = send(
        client,
        item("a", 3, result="B"),  # stored
        item("a", 2, result="P"),  # the identical round again
        item("b", 3, result="P"),  # a gap
        item("b", 1, result="P"),  # differs from the stored round 1
        item("c", 1, result="T"),  # a new table
        item("a", 4, result="P"),  # the same table again, after its round 3
    )
    assert statuses(answer) == [201, 200, 409, 409, 201, 201]
    results = answer.json["results"]
    assert results[1]["version"] == 2 and results[1]["round"]["round"] == 2
    assert results[2]["expected_round"] == 2 and "not the next round" in results[2]["message"]
    assert results[3]["expected_round"] == 2 and "already stored" in results[3]["message"]
    assert [r["result"] for r in roads(client, "a")["bead_plate"]] == list("BPBP")
    assert roads(client, "b")["rounds"] == 1


def test_a_tables_rounds_out_of_order_in_one_batch(client):
    answer = send(client, item("t1", 2, result="B"), item("t1", 1, result="P"))
    assert statuses(answer) == [409, 201]
    assert answer.json["results"][0]["expected_round"] == 1


def test_a_round_after_a_new_shoe_elsewhere_is_told_the_shoe_is_closed(client):
    feed(client, "BB")
    answer = send(client, item("t1", 1, shoe="s2", result="P"), item("t1", 3, result="B"))
    assert statuses(answer) == [201, 409]
    assert "s2" in answer.json["results"][1]["message"]


@pytest.mark.parametrize(
    ("body", "named", "status"),
    [
        ({"rounds": []}, "rounds", 400),
        ({"rounds": [item("t1", 1, result="B")] * 201}, "rounds", 400),
        ({"rounds": [item("t1", 1, result="B"), {"table": "t2", "round": 1}]}, "rounds.1", 400),
        ({"rounds": [item("t 1", 1, result="B")]}, "rounds.0.table", 400),
        ({"rounds": [item("t1", 1, result="X")]}, "rounds.0.result", 400),
        (
            {
                "rounds": [
                    item("t1", 1, result="B"),
                    item("t2", 1, player=["9S", "KD", "2C"], banker=["2C", "3D"]),
                ]
            },
            "rounds.1",
            422,  # well formed, but a natural 9 never draws
        ),
        (
            {
                "rounds": [
                    item("t1", 1, result="B"),
                    item("t2", 1, player=["AS", "1X"], banker=["2C", "3D"]),
                ]
            },
            "rounds.1",
            400,
        ),
        ([item("t1", 1, result="B")], "Invalid input type", 400),  # not an object
    ],
)
def test_a_bad_item_rejects_the_whole_batch_and_stores_nothing(
    client, redis_client, body, named, status
):
    answer = client.post("/v1/rounds", json=body, headers=AUTH)
    assert answer.status_code == status, answer.json
    assert named in answer.json["message"]
    assert keys(redis_client, "{t:*") == []


def test_a_batch_needs_an_ingest_key(client, redis_client):
    answer = send(client, item("t1", 1, result="B"), headers={})
    assert answer.status_code == 401
    assert keys(redis_client, "{t:*") == []


def test_another_process_writing_between_two_batches(backend, client):
    # The second batch is computed from this process's last write: a guess the script checks.
    other = make_app(backend.url, cluster=backend.cluster).test_client()
    assert statuses(send(client, item("t1", 1, result="B"), item("t2", 1, result="P"))) == [201] * 2
    assert other.post("/v1/tables/t1/shoes/s1/rounds/1/void", headers=AUTH).status_code == 200
    assert post_round(other, 2, table="t2", result="P").status_code == 201
    answer = send(
        client, item("t1", 2, result="P"), item("t2", 3, result="B"), item("t2", 2, result="P")
    )
    assert statuses(answer) == [201, 201, 200]
    assert answer.json["results"][0]["version"] == 3  # after the void's version 2
    assert (
        scorecard_served(client, "t1")
        == Scorecard.from_rounds([Round("B").voided(), Round("P")]).as_dict()
    )
    assert scorecard_served(client, "t2") == Scorecard.from_rounds("PPB").as_dict()


def test_a_batch_of_one_round_per_table_reaches_the_lobby(client):
    tables = [f"l{n}" for n in range(6)]
    for number, result in enumerate("BPB", start=1):
        # From the second batch on, every round is this process's guess, all sent at once.
        answer = send(client, *(item(table, number, result=result) for table in tables))
        assert statuses(answer) == [201] * len(tables)
    tiles = {tile["table"]: tile for tile in client.get("/v1/tables").json["tables"]}
    for table in tables:
        assert tiles[table]["rounds_played"] == 3 and tiles[table]["recent"] == ["B", "P", "B"]


def test_a_batch_of_new_shoes_is_read_and_written_a_round_trip_per_node(
    client, backend, monkeypatch
):
    sent = []

    def count(commands, send):
        sent.append(len(commands))
        return send(commands)

    feed(client, "B", table="warm-up")  # the scripts are loaded: no pipeline is sent twice
    monkeypatch.setattr(client.application.extensions["roads"].transport, "hook", count)
    tables = [f"n{n}" for n in range(12)]
    answer = send(client, *(item(table, 1, result="P") for table in tables))
    assert statuses(answer) == [201] * len(tables)
    # One Redis server: the reads in one pipeline, the writes (and lobby steps) in another.
    # A cluster of 3 masters: reads and writes one pipeline per master, and the lobby's one.
    assert len(sent) <= (7 if backend.cluster else 2)
    assert sum(sent) >= 2 * len(tables)
    for table in tables:
        assert roads(client, table)["rounds"] == 1


@pytest.mark.parametrize("backend", ["cluster"], indirect=True)  # one server is one node
def test_a_batch_writes_to_every_node_at_once(client, backend, monkeypatch):
    in_flight, most = [], []

    def slow(commands, send):
        in_flight.append(commands)
        most.append(len(in_flight))
        time.sleep(0.05)  # long enough for the other nodes' pipelines to be sent meanwhile
        try:
            return send(commands)
        finally:
            in_flight.remove(commands)

    tables = [f"w{n}" for n in range(12)]
    send(client, *(item(table, 1, result="B") for table in tables))  # this process knows them
    monkeypatch.setattr(client.application.extensions["roads"].transport, "hook", slow)
    answer = send(client, *(item(table, 2, result="P") for table in tables))
    assert statuses(answer) == [201] * len(tables)
    assert max(most) >= 2  # 12 tables: on more than one of the 3 masters, in flight together
    for table in tables:
        assert roads(client, table)["rounds"] == 2


def test_a_ninth_copy_of_a_card_refuses_that_round_alone_and_stores_the_others(client):
    """docs/api.md: what depends on the shoe's stored cards is judged per table."""
    for number in range(1, 5):  # eight Aces of Spades dealt (8 decks), two a round
        body = {"round": number, "player": ["AS", "AS"], "banker": ["9H", "KD"]}
        assert post_round(client, number, "full", **body).status_code == 201
    answer = send(
        client,
        {"table": "full", "shoe": "s1", "round": 5, "player": ["AS", "2C"], "banker": ["9H", "KD"]},
        item("other", 1, result="B"),
    )
    assert answer.status_code == 200
    assert statuses(answer) == [409, 201]
    assert "AS" in answer.json["results"][0]["message"]
    assert roads(client, "full")["rounds"] == 4 and roads(client, "other")["rounds"] == 1
