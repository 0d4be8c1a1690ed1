"""POST /v1/rounds: rounds of many tables in one request, each answered with the status and body
its single report would get; a malformed item, a round against the rules or a missing key rejects
the whole batch before anything is stored. (How the writer stores a batch, on one server and on a
cluster: tests/writes/test_append_many.py.)"""

import pytest

from tests.api_helpers import feed, keys, post_round, roads
from tests.conftest import AUTH


def send(client, *rounds, headers=AUTH):
    return client.post("/v1/rounds", json={"rounds": list(rounds)}, headers=headers)


def item(table: str, number: int, shoe: str = "s1", **body) -> dict:
    return {"table": table, "shoe": shoe, "round": number, **body}


def statuses(answer) -> list[int]:
    assert answer.status_code == 200, answer.json
    return [outcome["status"] for outcome in answer.json["results"]]


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
    # Each outcome names its round's table and shoe, whatever its status.
    assert [(r["table"], r["shoe"]) for r in results] == [
        (table, "s1") for table in ("a", "a", "b", "b", "c", "a")
    ]
    assert results[1]["version"] == 2 and results[1]["round"]["round"] == 2
    assert results[2]["expected_round"] == 2 and "not the next round" in results[2]["message"]
    assert results[3]["expected_round"] == 2 and "already stored" in results[3]["message"]
    assert [r["result"] for r in roads(client, "a")["bead_plate"]] == list("BPBP")
    assert roads(client, "b")["rounds"] == 1


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


def test_a_ninth_copy_of_a_card_is_a_409_for_that_round_alone(client):
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
