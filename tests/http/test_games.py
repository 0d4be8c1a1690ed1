"""A round as the studio knows it (issue 45, parts 1 and 2), through the app on real Redis and
PostgreSQL: a game id is a retry key (the same round 200, another round under it 409), a round's
``dealt_at`` checked against the service's clock (else stamped by it), its dealer on the table's
tile (the name kept while the same dealer deals); one round found by its game id in Redis and
after its shoe left for the record; a table's last games across a shoe change, in order; a
table's rounds by time, paged across two shoes. (The streamed export: test_export.py.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from api.codecs.times import read_rfc3339, utc_text
from roads.simulator import deal_shoe
from tests.conftest import AUTH, make_app
from tests.record.conftest import record_all

# Also run on a local Redis Cluster (see tests/conftest.py).
pytestmark = pytest.mark.cluster

ROUNDS = deal_shoe(11)  # dealt by the rules, with cards
READER = "test-read-key"
READ = {"X-API-Key": READER}


def report(number: int, **facts) -> dict:
    dealt = ROUNDS[number - 1]
    return {
        "round": number,
        "player": [str(card) for card in dealt.player_cards],
        "banker": [str(card) for card in dealt.banker_cards],
        **facts,
    }


def post(client, table: str, shoe: str, body: dict):
    return client.post(f"/v1/tables/{table}/shoes/{shoe}/rounds", json=body, headers=AUTH)


def deal(client, table: str, shoe: str, count: int, *, first: int = 1, at=None) -> None:
    """Rounds ``first`` to ``count`` of the shoe, round n under game id ``TABLE-SHOE-n``,
    dealt at ``at(n)`` when given."""
    for number in range(first, count + 1):
        facts = {"game_id": f"{table}-{shoe}-{number}"}
        if at is not None:
            facts["dealt_at"] = utc_text(at(number))
        answer = post(client, table, shoe, report(number, **facts))
        assert answer.status_code == 201, answer.json


@pytest.fixture
def client(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, public_record=True).test_client()


def test_a_game_id_is_a_retry_key(client):
    first = post(client, "g1", "s1", report(1, game_id="G-1"))
    assert first.status_code == 201
    again = post(client, "g1", "s1", report(1, game_id="G-1"))
    assert again.status_code == 200 and again.json["version"] == first.json["version"]
    assert again.json["round"] == first.json["round"]  # the first report's time, as stored
    # Another round under a game id the table has: 409 naming the round it is.
    taken = post(client, "g1", "s1", report(2, game_id="G-1"))
    assert taken.status_code == 409
    assert taken.json["game_shoe"] == "s1" and taken.json["game_round"] == 1
    assert "G-1" in taken.json["message"]
    # The same round sent under another game id is not a retry either.
    other = post(client, "g1", "s1", report(1, game_id="G-9"))
    assert other.status_code == 409 and other.json["differs"] == ["game_id"]
    # Nothing changed: round 2 under a new id is the shoe's next round.
    assert post(client, "g1", "s1", report(2, game_id="G-2")).status_code == 201
    # Another table may use the same id: a game id is unique per table.
    assert post(client, "g2", "s1", report(1, game_id="G-1")).status_code == 201


def test_a_batch_refuses_a_used_game_id_for_that_round_alone(client):
    assert post(client, "b1", "s1", report(1, game_id="B-1")).status_code == 201
    items = [
        {"table": "b1", "shoe": "s1", **report(2, game_id="B-1")},
        {"table": "b2", "shoe": "s1", **report(1, game_id="B-1")},
    ]
    answer = client.post("/v1/rounds", json={"rounds": items}, headers=AUTH)
    assert answer.status_code == 200
    taken, stored = answer.json["results"]
    assert taken["status"] == 409 and taken["game_round"] == 1
    assert stored["status"] == 201 and stored["round"]["game_id"] == "B-1"


def test_dealt_at_is_checked_against_the_service_clock_or_stamped_by_it(client):
    now = datetime.now(UTC)
    ahead = post(client, "d1", "s1", report(1, dealt_at=utc_text(now + timedelta(seconds=30))))
    assert ahead.status_code == 422 and "dealt_at" in ahead.json["message"]
    old = post(client, "d1", "s1", report(1, dealt_at=utc_text(now - timedelta(days=2))))
    assert old.status_code == 422 and "dealt_at" in old.json["message"]
    bad = post(client, "d1", "s1", report(1, dealt_at="yesterday"))
    assert bad.status_code == 400
    assert client.get("/v1/tables/d1/shoes/s1/rounds").status_code == 404  # nothing stored
    given = post(client, "d1", "s1", report(1, dealt_at="2026-11-27T10:00:00+02:00"))
    if now - timedelta(days=1) <= datetime(2026, 11, 27, 8, tzinfo=UTC) <= now:
        assert given.json["round"]["dealt_at"] == "2026-11-27T08:00:00.000Z"  # UTC, ms
    stamped = post(client, "d1", "s1", report(2 if given.status_code == 201 else 1))
    moment = read_rfc3339(stamped.json["round"]["dealt_at"])
    assert now - timedelta(seconds=5) <= moment <= datetime.now(UTC)


def test_the_round_history_and_events_carry_the_facts(client):
    dealer = {"id": "d-7", "name": "Mei"}
    answer = post(client, "h1", "s1", report(1, game_id="H-1", dealer=dealer))
    assert answer.json["round"]["game_id"] == "H-1" and answer.json["round"]["dealer"] == dealer
    (stored,) = client.get("/v1/tables/h1/shoes/s1/rounds").json["rounds"]
    assert stored["game_id"] == "H-1" and stored["dealer"] == dealer and stored["dealt_at"]
    # A correction is the same game: its facts stay.
    fixed = client.put(
        "/v1/tables/h1/shoes/s1/rounds/1",
        json={"player": ["9S", "KD"], "banker": ["2C", "3H"]},
        headers=AUTH,
    )
    assert fixed.status_code == 200, fixed.json
    record = fixed.json["round"]
    assert record["game_id"] == "H-1" and record["dealer"] == dealer
    assert record["dealt_at"] == stored["dealt_at"] and record["result"] == "P"


def test_the_tile_shows_the_current_dealer_and_keeps_the_name_for_the_shift(client):
    def tile():
        (found,) = [t for t in client.get("/v1/tables").json["tables"] if t["table"] == "t1"]
        return found["dealer"]

    post(client, "t1", "s1", report(1))
    assert tile() is None
    post(client, "t1", "s1", report(2, dealer={"id": "d-1", "name": "Ana"}))
    assert tile() == {"id": "d-1", "name": "Ana"}
    post(client, "t1", "s1", report(3, dealer={"id": "d-1"}))  # the same dealer: name kept
    assert tile() == {"id": "d-1", "name": "Ana"}
    post(client, "t1", "s1", report(4))  # a round that names none: the dealer stays
    assert tile() == {"id": "d-1", "name": "Ana"}
    post(client, "t1", "s1", report(5, dealer={"id": "d-2"}))  # another dealer, not yet named
    assert tile() == {"id": "d-2"}


def test_one_game_by_its_id_from_redis_then_from_the_record(record_apps):
    app = record_apps(hot_seconds=0, public_record=True)
    client = app.test_client()
    deal(client, "r1", "s1", 6)
    client.post("/v1/tables/r1/shoes/s1/rounds/4/void", headers=AUTH)
    hot = client.get("/v1/tables/r1/games/r1-s1-3")
    assert hot.status_code == 200, hot.json
    assert hot.json["source"] == "redis" and hot.json["round"] == 3 and hot.json["shoe"] == "s1"
    assert hot.json["player_cards"] == [str(c) for c in ROUNDS[2].player_cards]
    assert hot.json["chain"] is None  # not recorded yet
    record_all(app.extensions["roads"].record.recorder)
    placed = client.get("/v1/tables/r1/games/r1-s1-3").json
    assert placed["source"] == "redis" and placed["chain"]["number"] == 3
    assert len(placed["chain"]["hash"]) == 64 and placed["corrected"] is False
    deal(client, "r1", "s2", 1)  # s1 closes, and leaves Redis at the recorder's next pass
    record_all(app.extensions["roads"].record.recorder)
    cold = client.get("/v1/tables/r1/games/r1-s1-3").json
    assert cold["source"] == "record"
    assert {k: v for k, v in cold.items() if k != "source"} == {
        k: v for k, v in placed.items() if k != "source"
    }
    voided = client.get("/v1/tables/r1/games/r1-s1-4").json
    assert voided["void"] is True and voided["chain"]["number"] == 7  # the void's own write
    missing = client.get("/v1/tables/r1/games/nope")
    assert missing.status_code == 404 and "nope" in missing.json["message"]
    assert client.get("/v1/tables/r1/games/bad%20id").status_code == 404


def test_the_last_ten_games_across_a_shoe_change_in_order(record_apps):
    app = record_apps(hot_seconds=0, public_record=True)
    client = app.test_client()
    deal(client, "a1", "s1", 8)
    deal(client, "a1", "s2", 5)  # s1 closes
    record_all(app.extensions["roads"].record.recorder)  # and leaves Redis
    games = client.get("/v1/tables/a1/games?last=10").json["games"]
    assert [g["game_id"] for g in games] == [
        *(f"a1-s1-{n}" for n in range(4, 9)),
        *(f"a1-s2-{n}" for n in range(1, 6)),
    ]
    assert [g["source"] for g in games] == ["record"] * 5 + ["redis"] * 5
    assert client.get("/v1/tables/a1/games?last=3").json["games"][0]["game_id"] == "a1-s2-3"
    assert client.get("/v1/tables/a1/games?last=0").status_code == 400
    assert client.get("/v1/tables/nobody/games").status_code == 404


def test_a_tables_rounds_by_time_paged_across_two_shoes(record_apps):
    app = record_apps(public_record=True)
    client = app.test_client()
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=20)
    deal(client, "p1", "s1", 4, at=lambda n: start + timedelta(minutes=n))
    deal(client, "p1", "s2", 3, at=lambda n: start + timedelta(minutes=10 + n))
    deal(client, "p2", "s1", 2, at=lambda n: start + timedelta(minutes=n))  # another table
    record_all(app.extensions["roads"].record.recorder)
    query = f"from={utc_text(start)}&to={utc_text(start + timedelta(hours=1))}&limit=3"
    seen, cursor, pages = [], None, 0
    while True:
        answer = client.get(
            f"/v1/tables/p1/rounds?{query}" + (f"&cursor={cursor}" if cursor else "")
        )
        assert answer.status_code == 200, answer.json
        seen += [(r["shoe"], r["round"]) for r in answer.json["rounds"]]
        cursor, pages = answer.json["next_cursor"], pages + 1
        if cursor is None:
            break
    assert pages == 3
    assert seen == [("s1", 1), ("s1", 2), ("s1", 3), ("s1", 4), ("s2", 1), ("s2", 2), ("s2", 3)]
    # A range that ends before the second shoe, and a UTC day.
    early = client.get(
        f"/v1/tables/p1/rounds?from={utc_text(start)}&to={utc_text(start + timedelta(minutes=5))}"
    ).json["rounds"]
    assert [(r["shoe"], r["round"]) for r in early] == [("s1", n) for n in range(1, 5)]
    day = (start + timedelta(minutes=12)).date().isoformat()
    by_day = client.get(f"/v1/tables/p1/rounds?from={day}").json["rounds"]
    assert ("s2", 2) in [(r["shoe"], r["round"]) for r in by_day]
    assert client.get(f"/v1/tables/p1/rounds?from={day}&to=2000-01-01").status_code == 422
    # A cursor this service did not hand out, a day the calendar lacks: their form is the
    # schema's, their meaning is not (422); a text of another form is a 400.
    assert client.get(f"/v1/tables/p1/rounds?from={day}&cursor=zz").status_code == 422
    assert client.get("/v1/tables/p1/rounds?from=2026-02-30").status_code == 422
    assert client.get("/v1/tables/p1/rounds?from=yesterday").status_code == 400


def test_the_lookups_need_a_key_unless_the_record_is_public(backend, redis_client):
    client = make_app(backend.url, cluster=backend.cluster, read_keys=(READER,)).test_client()
    post(client, "k1", "s1", report(1, game_id="K-1"))
    assert client.get("/v1/tables/k1/games/K-1").status_code == 401
    assert client.get("/v1/tables/k1/games/K-1", headers=READ).status_code == 200
    assert client.get("/v1/tables/k1/games?last=5", headers=READ).json["games"][0]["round"] == 1
    # Without a record, what only the record answers is a 404 saying so.
    answer = client.get("/v1/tables/k1/rounds?from=2026-11-27", headers=READ)
    assert answer.status_code == 404 and "record" in answer.json["message"]
