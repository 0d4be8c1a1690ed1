"""The lobby endpoints: /v1/patterns, /v1/tables, /v1/good-roads."""

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redis.cluster import RedisCluster

from api.codecs.records import round_of
from api.storage.lobbyscript import LobbyPublish
from roads import PATTERNS, PROFILES, Scorecard
from roads.lobby import summary
from roads.rarity import LobbyFigures
from roads.simulator import deal_shoe
from tests.api_helpers import feed, post_round
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


def tiles(client, query=""):
    answer = client.get(f"/v1/tables{query}")
    assert answer.status_code == 200, answer.json
    return answer.json


def by_id(answer):
    return {tile["table"]: tile for tile in answer["tables"]}


def test_patterns_lists_a_profiles_built_in_patterns(client):
    answer = client.get("/v1/patterns").json
    assert answer["profile"] == "classic" and answer["profiles"] == ["classic", "asia"]
    assert [p["id"] for p in answer["patterns"]] == [p.id for p in PROFILES["classic"]]
    assert all(p["name"] and p["description"] for p in answer["patterns"])
    assert "X1 Y2" in answer["custom"]
    asia = client.get("/v1/patterns?profile=asia").json["patterns"]
    assert [p["id"] for p in asia] == [p.id for p in PROFILES["asia"]]
    assert {p.id for p in PATTERNS} == {p["id"] for p in answer["patterns"] + asia}


@pytest.mark.parametrize(
    ("query", "first", "custom"),
    [
        ("?lang=it", "Serie Banco", "Esempio"),
        ("?lang=nl", "Reeks Bank", "Voorbeeld"),
        ("?lang=ro", "Serie Bancher", "Exemplu"),
        ("?lang=id", "Beruntun Banker", "Contoh"),
        ("?lang=zh-Hans", "庄连", "例如"),
        ("?lang=zh-Hans&profile=asia", "长庄", "例如"),
        ("?lang=en", "Banker Streak", "Example"),
    ],
)
def test_patterns_are_named_in_the_players_language(client, query, first, custom):
    answer = client.get(f"/v1/patterns{query}").json
    assert answer["patterns"][0]["name"] == first and custom in answer["custom"]
    assert answer["lang"] == (query.split("lang=")[1].split("&")[0])


def test_an_unknown_language_or_profile_is_a_400(client):
    for query in ("?lang=fr", "?lang=zh", "?profile=vegas"):
        answer = client.get(f"/v1/patterns{query}")
        assert answer.status_code == 400 and answer.json["message"]


def test_good_roads_of_the_asian_profile(client):
    feed(client, "BPPBPP", table="hall")  # BPP BPP: 一厅两房
    feed(client, "PBPB", table="jumps")  # single columns, 4: 单跳
    found = good(client, "?profile=asia")
    assert ("hall", "yi_ting_liang_fang", 6) in found and ("jumps", "dan_tiao", 4) in found
    assert {pattern for _, pattern, _ in found} <= {p.id for p in PROFILES["asia"]}
    assert good(client, "?patterns=dan_tiao") == [("jumps", "dan_tiao", 4)]
    # Both profiles at once, by their ids or a profile and ids.
    mixed = good(client, "?patterns=banker_one_two&profile=asia")
    # (One-Two holds from round 5: a Player column in progress with one may end it.)
    assert ("hall", "banker_one_two", 5) in mixed and ("hall", "yi_ting_liang_fang", 6) in mixed


def summaries(rounds, tables: int) -> list[dict]:
    """The tile's summary of a shoe of ``rounds``, as each lobby of 1 to ``tables`` tables
    states the chance of its runs (the writer counts the tables now and then, not each write)."""
    scorecard = Scorecard.from_rounds(rounds)
    return [summary(scorecard, figures=LobbyFigures(80, m)) for m in range(1, tables + 1)]


def test_every_tile_equals_the_summary_of_a_scorecard_of_its_rounds(client):
    shoes = {f"t{n}": deal_shoe(seed=n)[: 20 + 7 * n] for n in range(4)}
    for table, rounds in shoes.items():
        for number, round in enumerate(rounds, start=1):
            body = {"player": [str(c) for c in round.player_cards]}
            body["banker"] = [str(c) for c in round.banker_cards]
            answer = post_round(client, number, table, "s1", **body)
            assert answer.status_code == 201, answer.json
    client.put(
        "/v1/tables/t2", json={"name": "Speed 2", "variant": "speed", "now": True}, headers=AUTH
    )
    answer = tiles(client)
    assert [tile["table"] for tile in answer["tables"]] == sorted(shoes)
    for table, rounds in shoes.items():
        tile = by_id(answer)[table]
        expected = summaries(rounds, len(shoes))
        assert {k: tile[k] for k in expected[0]} in expected
        assert (tile["shoe"], tile["version"]) == ("s1", len(rounds))
    assert (by_id(answer)["t2"]["name"], by_id(answer)["t2"]["variant"]) == ("Speed 2", "speed")
    assert (by_id(answer)["t1"]["name"], by_id(answer)["t1"]["variant"]) == ("t1", "standard")


def test_a_named_table_without_rounds_has_an_empty_tile(client):
    client.put("/v1/tables/new", json={"name": "New"}, headers=AUTH)
    tile = by_id(tiles(client))["new"]
    assert (tile["name"], tile["shoe"], tile["rounds_played"], tile["recent"]) == (
        "New",
        None,
        0,
        [],
    )


def test_sort_by_streak_on_the_chosen_road(client):
    feed(client, "BBBPP", table="a")  # big road: current 2, longest 3
    feed(client, "PBBBB", table="b")  # current 4
    feed(client, "BBBBBP", table="c")  # current 1, longest 5
    feed(client, "PPBB", table="d")  # current 2, longest 2
    order = [t["table"] for t in tiles(client, "?sort=streak")["tables"]]
    assert order == ["b", "a", "d", "c"]
    answer = tiles(client, "?sort=streak&road=big_eye_boy")["tables"]
    keys = [
        (t["streaks"]["big_eye_boy"]["current"]["length"], t["streaks"]["big_eye_boy"]["longest"])
        for t in answer
    ]
    lengths = [(current, longest["length"]) for current, longest in keys]
    assert lengths == sorted(lengths, reverse=True)


def test_the_badge_counts_tables_whose_current_run_grew_since_the_cursor(client):
    feed(client, "BB", table="a")
    feed(client, "PP", table="b")
    feed(client, "BP", table="c")
    cursor = tiles(client)["cursor"]
    assert tiles(client, f"?since={cursor}")["grown"] == 0
    post_round(client, 3, "a", result="B")  # a grows
    post_round(client, 3, "b", result="B")  # b breaks: a new run, not growth
    post_round(client, 3, "c", result="T")  # a tie changes no run
    answer = tiles(client, f"?since={cursor}")
    assert answer["grown"] == 1 and answer["cursor"] > cursor
    assert tiles(client, f"?since={answer['cursor']}")["grown"] == 0
    post_round(client, 4, "b", result="B")  # b's new run grows
    assert tiles(client, f"?since={cursor}")["grown"] == 2
    post_round(client, 4, "a", result="P")  # a's run is broken: it no longer counts
    assert tiles(client, f"?since={cursor}")["grown"] == 1


def test_tables_answers_carry_an_etag(client):
    feed(client, "BP")
    first = client.get("/v1/tables")
    again = client.get("/v1/tables", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    post_round(client, 3, result="B")
    assert client.get("/v1/tables", headers={"If-None-Match": first.headers["ETag"]}).status_code
    assert client.get("/v1/tables").json["tables"][0]["rounds_played"] == 3


def good(client, query=""):
    answer = client.get(f"/v1/good-roads{query}")
    assert answer.status_code == 200, answer.json
    return [(g["table"], g["pattern"], g["since_round"]) for g in answer.json["good_roads"]]


def test_good_roads_list_the_tables_that_match_now(client):
    feed(client, "PTBBBB", table="streaky")
    feed(client, "BPBPB", table="pingpong")
    feed(client, "BBPP", table="plain")
    assert good(client, "?patterns=banker_streak") == [("streaky", "banker_streak", 6)]
    found = good(client)
    assert ("pingpong", "banker_ping_pong", 5) in found
    assert not [g for g in found if g[0] == "plain"]
    answer = client.get("/v1/good-roads?patterns=banker_streak").json["good_roads"][0]
    assert answer["summary"]["table"] == "streaky" and answer["summary"]["rounds_played"] == 6
    post_round(client, 7, "streaky", result="P")  # the streak breaks: the table leaves the list
    assert good(client, "?patterns=banker_streak") == []
    assert ("streaky", "change_to_player", 7) in good(client, "?patterns=change_to_player")


def test_good_roads_with_a_custom_pattern(client):
    feed(client, "BPPBPP", table="one_two")
    feed(client, "BBBB", table="other")
    assert good(client, "?custom=X1 Y2 X1 Y2") == [("one_two", "custom:X1 Y2 X1 Y2", 6)]
    both = good(client, "?custom=X1 Y2 X1 Y2&custom=X4%2B&patterns=banker_streak")
    assert ("other", "custom:X4+", 4) in both and ("other", "banker_streak", 4) in both


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("?patterns=banker_streak,nope", "nope"),
        ("?custom=X1 X2", "alternate"),
        ("?custom=Z1", "Z1"),
        ("?custom=" + "X1 Y1 " * 7, "at most"),
    ],
)
def test_bad_patterns_are_named_in_a_400(client, query, named):
    answer = client.get(f"/v1/good-roads{query}")
    assert answer.status_code == 400 and named in answer.json["message"]


@pytest.mark.parametrize("query", ["?sort=name", "?road=bead_plate", "?since=-1", "?since=x"])
def test_bad_lobby_queries_are_400(client, query):
    answer = client.get(f"/v1/tables{query}")
    assert answer.status_code == 400 and answer.json["message"]


def test_a_new_shoe_replaces_the_tile_and_ends_its_good_roads(client):
    feed(client, "BBBBB", table="t", shoe="s1")
    assert good(client, "?patterns=banker_streak") == [("t", "banker_streak", 4)]
    post_round(client, 1, "t", "s2", result="P")
    tile = by_id(tiles(client))["t"]
    assert (tile["shoe"], tile["rounds_played"], tile["recent"]) == ("s2", 1, ["P"])
    assert good(client) == []


def test_voids_and_corrections_update_the_tile(client):
    feed(client, "BBBP", table="t")
    client.post("/v1/tables/t/shoes/s1/rounds/4/void", headers=AUTH)
    tile = by_id(tiles(client))["t"]
    assert tile["recent"] == ["B", "B", "B"] and tile["rounds_played"] == 3
    client.put("/v1/tables/t/shoes/s1/rounds/1", json={"result": "P"}, headers=AUTH)
    assert by_id(tiles(client))["t"]["recent"] == ["P", "B", "B"]


def test_a_correction_to_a_closed_shoe_leaves_the_tile_alone(client):
    feed(client, "BBBB", table="t", shoe="s1")
    feed(client, "PP", table="t", shoe="s2")
    answer = client.put("/v1/tables/t/shoes/s1/rounds/1", json={"result": "P"}, headers=AUTH)
    assert answer.status_code == 200, answer.json
    assert by_id(tiles(client))["t"]["shoe"] == "s2"
    assert by_id(tiles(client))["t"]["recent"] == ["P", "P"]


def test_a_retry_hands_a_lost_lobby_update_over(client, backend, monkeypatch):
    feed(client, "BBB", table="t")
    if backend.cluster:
        # The lobby step is a second round trip: the connection drops before it.
        real, name = LobbyPublish.queue, "queue"

        def lost(self, *args, **kwargs):
            raise redis.ConnectionError("connection lost after the commit")

        lost_status = 503
    else:
        # The lobby step rides with the write: as if the server stopped between the two.
        real, name = LobbyPublish.queue_stored, "queue_stored"

        def lost(self, *args, **kwargs):
            pass

        lost_status = 201
    monkeypatch.setattr(LobbyPublish, name, lost)
    assert post_round(client, 4, "t", result="B").status_code == lost_status
    monkeypatch.setattr(LobbyPublish, name, real)
    assert by_id(tiles(client))["t"]["rounds_played"] == 3  # the lobby lags by that write
    retry = post_round(client, 4, "t", result="B")
    assert retry.status_code == 200  # the round was stored: an idempotent answer
    assert by_id(tiles(client))["t"]["rounds_played"] == 4
    assert good(client, "?patterns=banker_streak") == [("t", "banker_streak", 4)]


def test_an_older_lobby_update_never_overwrites_a_newer_one(app, client, redis_client):
    feed(client, "BBB", table="t")
    stored = redis_client.get("{t:t}:lobby")
    feed_more = post_round(client, 4, "t", result="P")
    assert feed_more.status_code == 201
    app.extensions["roads"].rounds.publish_lobby([("t", stored)])  # a late, older update
    assert by_id(tiles(client))["t"]["recent"] == ["B", "B", "B", "P"]


operations = st.lists(
    st.one_of(
        st.tuples(
            st.just("deal"), st.sampled_from("ab"), st.text(alphabet="BPT", min_size=1, max_size=6)
        ),
        st.tuples(st.just("void"), st.sampled_from("ab"), st.integers(1, 30)),
        st.tuples(st.just("correct"), st.sampled_from("ab"), st.integers(1, 30)),
        st.tuples(st.just("new_shoe"), st.sampled_from("ab"), st.sampled_from("BPT")),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(operations)
def test_the_lobby_always_equals_a_scorecard_of_the_stored_rounds(backend, redis_client, ops):
    if backend.cluster:
        redis_client.flushall(target_nodes=RedisCluster.PRIMARIES)
    else:
        redis_client.flushdb()
    client = make_app(backend.url, cluster=backend.cluster).test_client()
    shoes = {"a": ["s0", []], "b": ["s0", []]}  # table -> [current shoe, its results]
    for kind, table, arg in ops:
        shoe, results = shoes[table]
        if kind == "deal":
            for result in arg:
                results.append(result)
                assert (
                    post_round(client, len(results), table, shoe, result=result).status_code == 201
                )
        elif kind == "new_shoe":
            shoes[table] = [f"s{int(shoe[1:]) + 1}", [arg]]
            assert post_round(client, 1, table, shoes[table][0], result=arg).status_code == 201
        elif results and arg <= len(results):
            path = f"/v1/tables/{table}/shoes/{shoe}/rounds/{arg}"
            if kind == "void":
                client.post(f"{path}/void", headers=AUTH)
            else:
                client.put(
                    path, json={"result": "P" if results[arg - 1] == "B" else "B"}, headers=AUTH
                )
    for table in shoes:
        shoe = shoes[table][0]
        history = client.get(f"/v1/tables/{table}/shoes/{shoe}/rounds")
        if history.status_code == 404:
            continue
        rounds = [round_of(record) for record in history.json["rounds"]]
        tile = by_id(tiles(client))[table]
        expected, *_ = found = summaries(rounds, len(shoes))
        assert {k: tile[k] for k in expected} in found
        every = ",".join(pattern.id for pattern in PATTERNS)  # both profiles
        members = {(p, s) for t, p, s in good(client, f"?patterns={every}") if t == table}
        assert members == {(g["pattern"], g["since_round"]) for g in expected["good_roads"]}
