"""Appends computed from this process's last write (api/writes/recentwrites.py): a guess the write
script checks. Two apps on one Redis stand for two service processes; whatever one does between
the other's writes, every write lands on the shoe as it really is."""

import pytest

import api.plan.planner
from api.writes.recentwrites import LastWrite, RecentWrites
from roads import Round, Scorecard
from tests.api_helpers import feed, post_round, roads
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def other(backend, redis_client):
    """A second service process on the same Redis."""
    return make_app(backend.url, cluster=backend.cluster).test_client()


def stored_rounds(client, table="t1", shoe="s1") -> list[Round]:
    records = client.get(f"/v1/tables/{table}/shoes/{shoe}/rounds").json["rounds"]
    rounds = [Round(record["result"]) for record in records]
    return [r.voided() if record["void"] else r for r, record in zip(rounds, records, strict=True)]


def assert_roads_match_the_stored_rounds(client):
    served = roads(client)
    expected = Scorecard.from_rounds(stored_rounds(client)).as_dict()
    assert {k: v for k, v in served.items() if k not in ("table", "shoe", "version")} == expected


def test_two_processes_taking_turns_on_one_shoe(client, other):
    for number, result in enumerate("BBPTPBBPPB", start=1):
        writer = client if number % 2 else other
        answer = post_round(writer, number, result=result)
        assert answer.status_code == 201, answer.json
        assert answer.json["version"] == number
    assert_roads_match_the_stored_rounds(client)
    assert_roads_match_the_stored_rounds(other)


def test_a_void_made_elsewhere_between_two_writes(client, other):
    feed(client, "BBPB")  # this process now guesses the shoe is at version 4
    assert other.post("/v1/tables/t1/shoes/s1/rounds/2/void", headers=AUTH).status_code == 200
    answer = post_round(client, 5, result="B")
    assert answer.status_code == 201, answer.json
    assert answer.json["version"] == 6  # after the void's version 5
    assert_roads_match_the_stored_rounds(client)
    tile = client.get("/v1/tables").json["tables"][0]
    assert tile["rounds_played"] == 4 and tile["recent"] == ["B", "P", "B", "B"]


def test_a_new_shoe_made_elsewhere_closes_the_guessed_one(client, other):
    feed(client, "BBP")
    assert post_round(other, 1, shoe="s2", result="P").status_code == 201
    late = post_round(client, 4, result="B")
    assert late.status_code == 409
    assert "closed" in late.json["message"]


def test_a_variant_changed_elsewhere_is_what_the_next_write_uses(client, other, monkeypatch):
    feed(client, "BBP")
    renamed = {"name": "T1", "variant": "no_commission"}
    answer = other.put("/v1/tables/t1", json=renamed, headers=AUTH)
    assert answer.status_code in (200, 201), answer.json
    seen = []
    real = api.plan.planner.lobby_update

    def spy(*args, **kwargs):
        seen.append(kwargs["variant"])
        return real(*args, **kwargs)

    monkeypatch.setattr(api.plan.planner, "lobby_update", spy)
    assert post_round(client, 4, result="B").status_code == 201
    assert seen[-1] == "no_commission"
    # The first try used the stale guess and was refused by the script; the second read afresh.
    assert seen == ["standard", "no_commission"]


def test_writes_go_on_after_the_server_forgets_its_scripts(client, redis_client):
    feed(client, "BP")
    redis_client.script_flush()  # as after a restart (on a cluster: every master)
    answer = post_round(client, 3, result="T")
    assert answer.status_code == 201, answer.json
    tile = client.get("/v1/tables").json["tables"][0]
    assert tile["rounds_played"] == 3


def test_the_kept_writes_are_bounded_and_taken_once():
    writes = RecentWrites(max_tables=2)
    for table in ("a", "b", "c"):
        writes.keep(table, LastWrite("s1", 1, 1, "standard", Scorecard()))
    assert writes.take("a", "s1") is None  # the least recently written table was dropped
    assert writes.take("b", "s2") is None  # another shoe's guess is no guess (and is dropped)
    assert writes.take("b", "s1") is None
    kept = writes.take("c", "s1")
    assert kept is not None and kept.shoe == "s1"
    assert writes.take("c", "s1") is None  # taken: two requests never share one
