"""The integrity watch's lasting k-gram index in the record: a replay of a shoe Redis's index no
longer holds is named from the record, with the table, shoe and round it repeats."""

import random

from roads.simulator import deal_rounds, shuffled_shoe
from tests.api_helpers import post_cards
from tests.record.conftest import record_all

OPERATOR = {"X-API-Key": "operator-key"}


def repeats(client, table):
    answer = client.get(f"/v1/integrity/tables/{table}", headers=OPERATOR)
    assert answer.status_code == 200, answer.json
    return [f for f in answer.json["findings"] if f["type"] == "repeated_shoe"]


def deal(client, rounds, table, shoe):
    for number, round in enumerate(rounds, start=1):
        post_cards(client, number, round, table, shoe)


def test_a_replay_older_than_redis_index_is_named_from_the_record(record_apps, redis_client, pg):
    app = record_apps(operator_keys=("operator-key",))
    client, recorder = app.test_client(), app.extensions["roads"].record.recorder
    rounds = list(deal_rounds(shuffled_shoe(random.Random(30))))
    deal(client, rounds[:30], "t1", "long-ago")
    deal(client, list(deal_rounds(shuffled_shoe(random.Random(31))))[:30], "t3", "other")
    record_all(recorder)
    recorder.step()  # the anchors handed over after the last write
    held = pg.execute("SELECT count(*), count(DISTINCT shoe) FROM record_kgrams").fetchone()
    assert held[0] > 40 and held[1] == 2
    keys = app.extensions["roads"].keys.integrity
    redis_client.delete(keys.index, keys.index_old)  # Redis's index has moved on since
    deal(client, rounds[:4], "t2", "today")
    assert repeats(client, "t2") == []  # Redis no longer knows the shoe it repeats
    record_all(recorder)
    recorder.step()
    (found,) = repeats(client, "t2")
    assert found["shoe"] == "today" and found["from"] == "record"
    assert found["earlier"]["table"] == "t1" and found["earlier"]["shoe"] == "long-ago"
    assert found["earlier"]["round"] == found["from_round"] <= 4
    deal_more = list(rounds[4:10])
    for number, round in enumerate(deal_more, start=5):
        post_cards(client, number, round, "t2", "today")
    record_all(recorder)
    recorder.step()
    assert len(repeats(client, "t2")) == 1  # named once
    assert repeats(client, "t3") == []
