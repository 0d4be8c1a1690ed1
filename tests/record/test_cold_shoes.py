"""Redis is the hot tier: a closed shoe leaves it once recorded and ``ROADS_HOT_SECONDS`` old
and is served from the record byte for byte as before; a Redis that lost everything is rebuilt
from the record, and ingest goes on at the next round."""

from __future__ import annotations

import time

import pytest

from roads.simulator import deal_shoe
from tests.api_helpers import keys as all_keys
from tests.conftest import AUTH, make_app
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


@pytest.fixture
def record_app(record_apps):
    """The record's reads are public here (their keys: tests/system/test_security_record_reads)."""
    return record_apps(public_record=True)


def deal(client, table: str, shoe: str, count: int, start: int = 1) -> None:
    for number in range(start, start + count):
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


def flush(redis_client) -> None:
    """Redis loses everything (every master of a cluster)."""
    for key in all_keys(redis_client, "*"):
        redis_client.delete(key)


def shoe_keys_in_redis(redis_client, keys, table: str, shoe: str) -> list[bool]:
    shoe_keys = keys.shoe(table, shoe)
    return [bool(redis_client.exists(k)) for k in (shoe_keys.info, shoe_keys.rounds)]


def test_a_closed_shoe_leaves_redis_and_is_served_byte_for_byte_as_before(
    record_apps, redis_client
):
    app = record_apps(hot_seconds=1, public_record=True)
    client, services = app.test_client(), app.extensions["roads"]
    deal(client, "cold", "s1", 12)
    client.post("/v1/tables/cold/shoes/s1/rounds/3/void", headers=AUTH)
    deal(client, "cold", "s2", 3)  # s1 closes
    before = served(client, "cold", "s1")
    current = served(client, "cold", "s2")
    record_all(services.record.recorder)
    time.sleep(1.1)
    record_all(services.record.recorder)  # a pass with nothing behind evicts
    assert shoe_keys_in_redis(redis_client, services.keys, "cold", "s1") == [False, False]
    assert shoe_keys_in_redis(redis_client, services.keys, "cold", "s2") == [True, True]

    fresh = record_apps(
        hot_seconds=1, public_record=True
    ).test_client()  # no answer kept in its memory
    assert served(fresh, "cold", "s1") == before
    assert served(fresh, "cold", "s2") == current
    assert shoe_keys_in_redis(redis_client, services.keys, "cold", "s1") == [True, True]


def test_a_shoe_that_left_is_still_closed_to_new_rounds_and_takes_corrections(
    record_apps, redis_client
):
    app = record_apps(hot_seconds=1, public_record=True)
    client, services = app.test_client(), app.extensions["roads"]
    deal(client, "gone", "s1", 4)
    deal(client, "gone", "s2", 1)
    record_all(services.record.recorder)
    time.sleep(1.1)
    record_all(services.record.recorder)
    assert shoe_keys_in_redis(redis_client, services.keys, "gone", "s1") == [False, False]
    again = client.post(
        "/v1/tables/gone/shoes/s1/rounds", json={"round": 1, "result": "B"}, headers=AUTH
    )
    assert again.status_code == 409  # round 1 of s1 is stored, and differs
    time.sleep(1.1)
    record_all(services.record.recorder)
    fixed = client.put("/v1/tables/gone/shoes/s1/rounds/2", json={"result": "T"}, headers=AUTH)
    assert fixed.status_code == 200, fixed.json
    record_all(services.record.recorder)
    history = client.get("/v1/tables/gone/shoes/s1/rounds").json
    assert [r["result"] for r in history["rounds"]][1] == "T"


def test_redis_losing_everything_is_rebuilt_from_the_record(record_app, redis_client):
    client, services = record_app.test_client(), record_app.extensions["roads"]
    client.put("/v1/tables/lost", json={"name": "Lost", "variant": "speed"}, headers=AUTH)
    deal(client, "lost", "s1", 6)
    deal(client, "lost", "s2", 5)
    before = {
        shoe: client.get(f"/v1/tables/lost/shoes/{shoe}/rounds").json for shoe in ["s1", "s2"]
    }
    record_all(services.record.recorder)
    flush(redis_client)

    for shoe in ("s1", "s2"):
        after = client.get(f"/v1/tables/lost/shoes/{shoe}/rounds").json
        assert after["rounds"] == before[shoe]["rounds"]
    table = client.get("/v1/tables/lost").json
    assert (table["name"], table["variant"], table["current_shoe"]) == ("Lost", "speed", "s2")
    deal(client, "lost", "s2", 2, start=6)  # ingest goes on at the next round
    assert client.get("/v1/tables/lost/shoes/s2/roads").status_code == 200
    record_all(services.record.recorder)
    numbers = client.get("/v1/tables/lost/shoes/s2").json
    assert numbers["rounds"] == 7 and numbers["writes"] == 7


def test_a_new_table_after_a_flush_starts_as_new(record_app, redis_client):
    client, services = record_app.test_client(), record_app.extensions["roads"]
    flush(redis_client)
    deal(client, "brandnew", "s1", 2)
    record_all(services.record.recorder)
    assert client.get("/v1/tables/brandnew/shoes").json["shoes"][0]["rounds"] == 2
    assert client.get("/v1/tables/nosuch/shoes/s1/roads").status_code == 404


@pytest.mark.parametrize("read", ["roads", "rounds"])
def test_an_unknown_shoe_of_a_known_table_is_a_404(record_app, read):
    client, services = record_app.test_client(), record_app.extensions["roads"]
    deal(client, "known", "s1", 1)
    record_all(services.record.recorder)
    assert client.get(f"/v1/tables/known/shoes/nope/{read}").status_code == 404


def test_a_retired_tables_shoes_that_left_are_read_from_the_archive(record_apps, redis_client):
    app = record_apps(hot_seconds=1, public_record=True)
    client, services = app.test_client(), app.extensions["roads"]
    deal(client, "old", "s1", 5)
    deal(client, "old", "s2", 2)
    before = client.get("/v1/tables/old/shoes/s1/rounds").json["rounds"]
    assert client.delete("/v1/tables/old", headers=AUTH).status_code == 200
    record_all(services.record.recorder)
    time.sleep(1.1)
    record_all(services.record.recorder)
    assert shoe_keys_in_redis(redis_client, services.keys, "old", "s1") == [False, False]
    archived = client.get("/v1/archive/tables/old/shoes/s1/rounds")
    assert archived.status_code == 200 and archived.json["rounds"] == before
    assert client.get("/v1/tables/old/shoes/s1/rounds").status_code == 404  # retired


def test_a_shoe_begun_before_the_record_was_on_never_leaves_redis(
    backend, record_apps, redis_client
):
    before = make_app(backend.url, cluster=backend.cluster).test_client()  # no record yet
    deal(before, "early", "s1", 3)
    app = record_apps(hot_seconds=1, public_record=True)
    client, services = app.test_client(), app.extensions["roads"]
    deal(client, "early", "s1", 2, start=4)
    deal(client, "early", "s2", 1)
    record_all(services.record.recorder)
    time.sleep(1.1)
    record_all(services.record.recorder)
    assert shoe_keys_in_redis(redis_client, services.keys, "early", "s1") == [True, True]
    assert len(client.get("/v1/tables/early/shoes/s1/rounds").json["rounds"]) == 5


def left_redis(app, redis_client, table: str, results: str) -> None:
    """Shoe s1 of ``table`` dealt as ``results``, closed by s2, recorded and out of Redis."""
    client, services = app.test_client(), app.extensions["roads"]
    for number, result in enumerate(results, 1):
        body = {"round": number, "result": result}
        assert (
            client.post(f"/v1/tables/{table}/shoes/s1/rounds", json=body, headers=AUTH).status_code
            == 201
        )
    body = {"round": 1, "result": "B"}
    assert (
        client.post(f"/v1/tables/{table}/shoes/s2/rounds", json=body, headers=AUTH).status_code
        == 201
    )
    record_all(services.record.recorder)
    time.sleep(1.1)
    record_all(services.record.recorder)
    assert shoe_keys_in_redis(redis_client, services.keys, table, "s1") == [False, False]


def bead_plate(client, table: str) -> list[str]:
    answer = client.get(f"/v1/tables/{table}/shoes/s1/rounds")
    assert answer.status_code == 200, answer.json
    return [r["result"] for r in answer.json["rounds"]]


def test_a_tampered_record_column_is_ignored_the_true_round_is_served(
    record_apps, redis_client, pg
):
    left_redis(record_apps(hot_seconds=1, public_record=True), redis_client, "forged", "BPBP")
    pg.execute(
        'UPDATE record_writes SET record = replace(record, \'"result":"B"\', \'"result":"P"\')'
        " WHERE table_id = 'forged' AND shoe = 's1' AND round = 1"
    )
    fresh = record_apps(hot_seconds=1, public_record=True).test_client()
    assert bead_plate(fresh, "forged") == list("BPBP")  # rebuilt from what the chain covers


def test_a_tampered_canonical_breaks_the_chain_the_shoe_is_refused_and_alerted(
    record_apps, redis_client, pg
):
    app = record_apps(hot_seconds=1, public_record=True)
    left_redis(app, redis_client, "rewritten", "BPBPT")
    pg.execute(
        'UPDATE record_writes SET canonical = replace(canonical, \'"result":"B"\','
        " '\"result\":\"P\"') WHERE table_id = 'rewritten' AND shoe = 's1' AND round = 3"
    )
    fresh = record_apps(hot_seconds=1, public_record=True).test_client()
    for read in ("rounds", "roads", "roads/bead_plate.png"):
        refused = fresh.get(f"/v1/tables/rewritten/shoes/s1/{read}")
        assert refused.status_code == 409, (read, refused.status_code)
        message = refused.json["message"]
        assert "shoe s1 of table rewritten" in message and "write 3 (round 3)" in message
    correction = fresh.put(
        "/v1/tables/rewritten/shoes/s1/rounds/2", json={"result": "T"}, headers=AUTH
    )
    assert correction.status_code == 409  # nothing is written over a broken record
    services = app.extensions["roads"]
    assert shoe_keys_in_redis(redis_client, services.keys, "rewritten", "s1") == [False, False]
    alerts = [a.as_dict() for a in services.integrity.after("-")]
    tampered = [a for a in alerts if a["type"] == "record_tampered"]
    assert len(tampered) == 1  # once per shoe, however often it is asked for
    assert (tampered[0]["table"], tampered[0]["shoe"], tampered[0]["write"]) == (
        "rewritten",
        "s1",
        3,
    )
    assert tampered[0]["round"] == 3
    metrics = fresh.get("/metrics").data.decode()
    assert 'roads_integrity_alerts_total{kind="record_tampered"}' in metrics


def test_a_write_taken_out_of_a_shoe_breaks_its_chain(record_apps, redis_client, pg):
    left_redis(record_apps(hot_seconds=1, public_record=True), redis_client, "cut", "BPBPB")
    pg.execute("DELETE FROM record_writes WHERE table_id = 'cut' AND shoe = 's1' AND round = 2")
    refused = record_apps(public_record=True).test_client().get("/v1/tables/cut/shoes/s1/rounds")
    assert refused.status_code == 409 and "write 3 (round 3)" in refused.json["message"]


def test_writes_cut_from_the_end_of_a_shoe_are_caught_by_its_row(record_apps, redis_client, pg):
    left_redis(record_apps(hot_seconds=1, public_record=True), redis_client, "trim", "BPBPB")
    where = "WHERE table_id = 'trim' AND shoe = 's1'"
    pg.execute(f"DELETE FROM record_writes {where} AND round >= 4")  # record_shoes left as is
    client = record_apps(public_record=True).test_client()
    for path in ("s1/rounds", "s1/roads", "s1"):
        refused = client.get(f"/v1/tables/trim/shoes/{path}")
        assert refused.status_code == 409, (path, refused.json)
        assert "its row counts 5 writes, the record holds 3" in refused.json["message"]


def test_a_consistent_cut_passes_its_own_shoe_and_breaks_the_next_ones_first_link(
    record_apps, redis_client, pg
):
    # record_shoes set back with the rows: only the signed checkpoints catch this for the shoe
    # itself (docs/security.md); the next shoe linked to the head that was cut.
    left_redis(record_apps(hot_seconds=1, public_record=True), redis_client, "settled", "BPBPB")
    where = "WHERE table_id = 'settled' AND shoe = 's1'"
    pg.execute(f"DELETE FROM record_writes {where} AND round = 5")
    pg.execute(
        f"UPDATE record_shoes SET writes = 4, outcomes = 'BPBP', head = (SELECT hash FROM"
        f" record_writes {where} ORDER BY number DESC LIMIT 1) {where}"
    )
    client = record_apps(public_record=True).test_client()
    assert bead_plate(client, "settled") == list("BPBP")
    summary = client.get("/v1/tables/settled/shoes/s2")
    assert summary.status_code == 409 and "links elsewhere" in summary.json["message"]


def test_the_operators_view_lists_a_tampered_shoe_and_the_others(record_apps, redis_client, pg):
    app = record_apps(hot_seconds=1, public_record=True, operator_keys=("operator-key",))
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


def test_a_table_comes_back_with_its_current_shoe_or_not_at_all(record_apps, redis_client, pg):
    """Redis lost the table; its current shoe's record is refused (tampered) as a write brings
    the table back: nothing is restored, so the retried write is refused again rather than
    taken as the shoe's first round."""
    app = record_apps(public_record=True)
    client, services = app.test_client(), app.extensions["roads"]
    deal(client, "whole", "s1", 5)
    record_all(services.record.recorder)
    flush(redis_client)
    pg.execute(
        "UPDATE record_writes SET canonical = replace(canonical, '\"round\":2', '\"round\":9')"
        " WHERE table_id = 'whole' AND shoe = 's1' AND round = 2"
    )
    for _ in range(2):  # the game server retries
        answer = client.post(
            "/v1/tables/whole/shoes/s1/rounds", json={"round": 6, "result": "B"}, headers=AUTH
        )
        assert answer.status_code == 409, answer.json
        assert "fails its chain" in answer.json["message"]
        meta = services.keys.table("whole").meta
        assert not redis_client.exists(meta)  # the table was not brought back without its shoe
