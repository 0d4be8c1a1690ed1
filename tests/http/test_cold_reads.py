"""What the HTTP reads serve of a shoe that left Redis for the record: every read (roads, stats,
odds, rounds, pictures) byte for byte and with the ETag it had; a shoe whose record fails its
chain is a 409 naming it on every read and on a correction, counted in ``/metrics``; the
operators' view lists it. (The layers beneath, without the app: tests/record/test_cold_shoes.py.)

A closed shoe leaves at the recorder's next pass here (``hot_seconds=0``)."""

from __future__ import annotations

import pytest

from roads.simulator import deal_shoe
from tests.conftest import AUTH
from tests.record.conftest import record_all

# Also run on a local Redis Cluster (see tests/conftest.py).
pytestmark = pytest.mark.cluster

READS = [
    "roads",
    "roads?tail=drop",
    "stats",
    "probe",
    "odds",
    "rounds",
    "roads/big_road.png",
    "roads/bead_plate.png?theme=dark",
    "roads/cockroach_road.png",
]

ROUNDS = deal_shoe(7)  # dealt by the rules, with cards (the odds need them)


def deal(client, table: str, shoe: str, count: int) -> None:
    for number in range(1, count + 1):
        dealt = ROUNDS[number - 1]
        body = {
            "round": number,
            "player": [str(card) for card in dealt.player_cards],
            "banker": [str(card) for card in dealt.banker_cards],
        }
        answer = client.post(f"/v1/tables/{table}/shoes/{shoe}/rounds", json=body, headers=AUTH)
        assert answer.status_code == 201, answer.json


def served(client, table: str, shoe: str) -> dict[str, tuple[bytes, str | None]]:
    found = {}
    for read in READS:
        answer = client.get(f"/v1/tables/{table}/shoes/{shoe}/{read}")
        assert answer.status_code == 200, (read, answer.json)
        found[read] = (answer.data, answer.headers.get("ETag"))
    return found


def in_redis(redis_client, app, table: str, shoe: str) -> bool:
    return bool(redis_client.exists(app.extensions["roads"].keys.shoe(table, shoe).rounds))


def left_redis(app, redis_client, table: str, results: str) -> None:
    """Shoe s1 of ``table`` dealt as ``results``, closed by s2, recorded and out of Redis."""
    client = app.test_client()
    for number, result in enumerate(results, 1):
        body = {"round": number, "result": result}
        answer = client.post(f"/v1/tables/{table}/shoes/s1/rounds", json=body, headers=AUTH)
        assert answer.status_code == 201
    body = {"round": 1, "result": "B"}
    answer = client.post(f"/v1/tables/{table}/shoes/s2/rounds", json=body, headers=AUTH)
    assert answer.status_code == 201
    record_all(app.extensions["roads"].record.recorder)
    assert not in_redis(redis_client, app, table, "s1")


def test_a_closed_shoe_leaves_redis_and_is_served_byte_for_byte_as_before(
    record_apps, redis_client
):
    app = record_apps(hot_seconds=0, public_record=True)
    client = app.test_client()
    deal(client, "cold", "s1", 12)
    client.post("/v1/tables/cold/shoes/s1/rounds/3/void", headers=AUTH)
    deal(client, "cold", "s2", 3)  # s1 closes
    before = served(client, "cold", "s1")
    current = served(client, "cold", "s2")
    record_all(app.extensions["roads"].record.recorder)
    assert not in_redis(redis_client, app, "cold", "s1")
    fresh = record_apps(public_record=True).test_client()  # no answer kept in its memory
    assert served(fresh, "cold", "s1") == before
    assert served(fresh, "cold", "s2") == current
    assert in_redis(redis_client, app, "cold", "s1")


def test_a_tampered_shoe_is_a_409_on_every_read_and_counted(record_apps, redis_client, pg):
    left_redis(record_apps(hot_seconds=0), redis_client, "rewritten", "BPBPT")
    pg.execute(
        'UPDATE record_writes SET canonical = replace(canonical, \'"result":"B"\','
        " '\"result\":\"P\"') WHERE table_id = 'rewritten' AND shoe = 's1' AND round = 3"
    )
    fresh = record_apps(public_record=True).test_client()
    for read in ("rounds", "roads", "roads/bead_plate.png"):
        refused = fresh.get(f"/v1/tables/rewritten/shoes/s1/{read}")
        assert refused.status_code == 409, (read, refused.status_code)
        message = refused.json["message"]
        assert "shoe s1 of table rewritten" in message and "write 3 (round 3)" in message
    correction = fresh.put(
        "/v1/tables/rewritten/shoes/s1/rounds/2", json={"result": "T"}, headers=AUTH
    )
    assert correction.status_code == 409  # nothing is written over a broken record
    metrics = fresh.get("/metrics").data.decode()
    assert 'roads_integrity_alerts_total{kind="record_tampered"}' in metrics


def test_the_operators_view_lists_a_tampered_shoe_and_the_others(record_apps, redis_client, pg):
    app = record_apps(hot_seconds=0, public_record=True, operator_keys=("operator-key",))
    left_redis(app, redis_client, "watched", "BPBP")
    pg.execute(
        'UPDATE record_writes SET canonical = replace(canonical, \'"result":"B"\','
        " '\"result\":\"P\"') WHERE table_id = 'watched' AND shoe = 's1' AND round = 1"
    )
    for _ in range(2):  # the alert raised as it is found, then read back with the findings
        answer = app.test_client().get(
            "/v1/integrity/tables/watched", headers={"X-API-Key": "operator-key"}
        )
        assert answer.status_code == 200, answer.json
        shoes = {shoe["shoe"]: shoe for shoe in answer.json["shoes"]}
        assert "fails its chain at write 1" in shoes["s1"]["checks"]["record_tampered"]
        tampered = [f for f in shoes["s1"]["findings"] if f["type"] == "record_tampered"]
        assert len(tampered) == 1 and tampered[0]["write"] == 1
        assert shoes["s2"]["checks"]["rounds"] == 1 and shoes["s2"]["current"]
