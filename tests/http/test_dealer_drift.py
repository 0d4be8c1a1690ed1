"""Per-dealer statistics and drift (issue 45, part 5), through the app on real Redis and
PostgreSQL: a dealer who deals a biased shoe (generated) is alerted once (``dealer_drift`` on the
operators' stream), fair dealers over a day are not; the day's report per dealer carries the
drift watch's tests (Benjamini-Hochberg across dealers) and, from the record, each dealer's
rounds, voids, corrections and the mean time a round took. Both count a round under the UTC day
it was dealt, whenever it was reported."""

from __future__ import annotations

import random
import time as pytime
from datetime import UTC, datetime, time, timedelta

import pytest

from api.codecs.times import utc_text
from roads.integrity import drift
from roads.simulator import deal_shoe
from tests.conftest import AUTH
from tests.record.conftest import record_all

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

OPERATOR = {"X-API-Key": "operator-key"}
PACE = 45  # seconds between two rounds of a fair dealer


def post(client, table: str, shoe: str, body: dict) -> None:
    answer = client.post(f"/v1/tables/{table}/shoes/{shoe}/rounds", json=body, headers=AUTH)
    assert answer.status_code == 201, answer.json


def fair(client, dealer: str, table: str, seed: int, start: datetime) -> int:
    """A fair shoe's first 70 rounds, with their cards, dealt by ``dealer`` every :data:`PACE`
    seconds from ``start``; how many."""
    rounds = deal_shoe(seed)[:70]
    for number, round in enumerate(rounds, start=1):
        body = {
            "round": number,
            "player": [str(card) for card in round.player_cards],
            "banker": [str(card) for card in round.banker_cards],
            "dealer": {"id": dealer, **({"name": dealer.title()} if number == 1 else {})},
            "dealt_at": utc_text(start + timedelta(seconds=PACE * number)),
        }
        post(client, table, f"s{seed}", body)
    return len(rounds)


def biased(client, dealer: str, table: str, start: datetime) -> None:
    """A generated shoe of 70 results, Banker winning four in five (far from any shoe's odds),
    dealt every 20 seconds from ``start``."""
    draw = random.Random(45)
    for number in range(1, 71):
        result = "B" if draw.random() < 0.8 else "P"
        dealt = utc_text(start + timedelta(seconds=20 * number))
        body = {"round": number, "result": result, "dealer": {"id": dealer}, "dealt_at": dealt}
        post(client, table, "bent", body)


def within_a_day(now: datetime) -> datetime:
    """A start at most six hours before ``now`` whose next three hours lie in one UTC day (the
    rounds of the test below are dealt in them): six hours before, or the midnight after that
    when those three hours would cross it."""
    start = now - timedelta(hours=6)
    end = start + timedelta(hours=3)
    return start if end.date() == start.date() else datetime.combine(end.date(), time(), UTC)


@pytest.fixture
def app(record_apps):
    return record_apps(operator_keys=("operator-key",))


def test_a_biased_dealer_is_alerted_and_fair_ones_over_a_day_are_not(app):
    client = app.test_client()
    start = within_a_day(datetime.now(UTC))
    day = start.date().isoformat()
    dealers = {"d-ana": (1, 2), "d-bo": (3, 4), "d-cy": (5, 6), "d-di": (7, 8)}
    for dealer, seeds in dealers.items():
        for seed in seeds:
            fair(client, dealer, f"t{seed}", seed, start + timedelta(hours=seed / 4))
    client.post("/v1/tables/t1/shoes/s1/rounds/5/void", headers=AUTH)
    fixed = client.put("/v1/tables/t2/shoes/s2/rounds/7", json={"result": "T"}, headers=AUTH)
    assert fixed.status_code == 200, fixed.json
    biased(client, "d-ed", "t9", start + timedelta(minutes=150))
    record_all(app.extensions["roads"].record.recorder)

    answer = client.get(f"/v1/integrity/dealers?day={day}", headers=OPERATOR)
    assert answer.status_code == 200, answer.json
    report = answer.json
    assert report["day"] == day and report["alert_below"] == drift.ALERT
    found = report["dealers"]
    assert set(found) == {*dealers, "d-ed"}
    bent = found["d-ed"]
    assert bent["alert"] and bent["adjusted_p"] < drift.ALERT
    assert bent["tests"]["banker"]["z"] > 5 and bent["rounds"] == 70
    for dealer in dealers:
        assert not found[dealer]["alert"], (dealer, found[dealer]["adjusted_p"])
        assert found[dealer]["rounds"] == 140 and found[dealer]["rounds_dealt"] == 140
    # From the record: the void and the correction, each counted for the dealer of the round.
    assert found["d-ana"]["voids"] == 1 and found["d-ana"]["void_rate"] == round(1 / 140, 4)
    assert found["d-ana"]["corrections"] == 1 and found["d-bo"]["corrections"] == 0
    assert found["d-bo"]["mean_round_seconds"] == PACE
    assert bent["mean_round_seconds"] == 20

    client.get(f"/v1/integrity/dealers?day={day}", headers=OPERATOR)  # again: raised once
    alerts = app.extensions["roads"].integrity.after("-", 1000)
    raised = [a for a in alerts if a.kind == "dealer_drift"]
    assert len(raised) == 1 and '"dealer":"d-ed"' in raised[0].data
    services = app.extensions["roads"]
    entries = services.transport.command("XRANGE", services.integrity.keys.events, "-", "+")
    fields = [
        dict(zip(f[0::2], f[1::2], strict=True)) if isinstance(f, list) else f for _, f in entries
    ]
    (stream_entry,) = [f for f in fields if f[b"type"] == b"dealer_drift"]
    assert stream_entry[b"table"] == b""  # a dealer's alert names no table: its data, the dealer


def test_the_dealers_report_needs_an_operator_key_and_a_real_day(app):
    client = app.test_client()
    assert client.get("/v1/integrity/dealers").status_code == 401
    # The day's form is the schema's; a day the calendar lacks breaks a rule past it: 422.
    bad = client.get("/v1/integrity/dealers?day=2026-02-30", headers=OPERATOR)
    assert bad.status_code == 422 and "calendar" in str(bad.json)
    far = client.get("/v1/integrity/dealers?day=9999-12-31", headers=OPERATOR)
    assert far.status_code == 422
    empty = client.get("/v1/integrity/dealers?day=2026-01-01", headers=OPERATOR)
    assert empty.status_code == 200 and empty.json["dealers"] == {}


def test_a_round_counts_in_the_day_it_was_dealt_not_the_day_it_was_reported(app):
    """Rounds dealt just before midnight and reported after it are the earlier day's, in the
    drift watch's tallies (per table and per dealer) as in the record; a round that states no
    time is the day's it is reported on."""
    now = datetime.now(UTC)
    if now.time() > time(23, 59, 50):  # dealt "just before midnight" must be less than a day ago
        sleep_until = datetime.combine(now.date() + timedelta(days=1), time(), UTC)
        pytime.sleep((sleep_until - now).total_seconds() + 0.1)
        now = datetime.now(UTC)
    midnight = datetime.combine(now.date(), time(), UTC)
    yesterday, today = (now.date() - timedelta(days=1)).isoformat(), now.date().isoformat()
    client = app.test_client()
    for number, round in enumerate(deal_shoe(11)[:3], start=1):
        body = {
            "round": number,
            "player": [str(card) for card in round.player_cards],
            "banker": [str(card) for card in round.banker_cards],
            "dealer": {"id": "d-late"},
        }
        if number < 3:
            body["dealt_at"] = utc_text(midnight - timedelta(seconds=3 - number))
        post(client, "t1", "s1", body)
    record_all(app.extensions["roads"].record.recorder)

    def report(kind: str, day: str) -> dict:
        answer = client.get(f"/v1/integrity/{kind}?day={day}", headers=OPERATOR)
        assert answer.status_code == 200, answer.json
        return answer.json

    assert report("drift", yesterday)["tables"]["t1"]["rounds"] == 2
    assert report("drift", today)["tables"]["t1"]["rounds"] == 1
    before, after = report("dealers", yesterday), report("dealers", today)
    assert before["dealers"]["d-late"]["rounds"] == before["dealers"]["d-late"]["rounds_dealt"] == 2
    assert after["dealers"]["d-late"]["rounds"] == after["dealers"]["d-late"]["rounds_dealt"] == 1
