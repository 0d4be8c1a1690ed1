"""Reads: the roads, statistics, probe and history, ETags, previews and rebuilding caches."""

import pytest

from api.codecs.stamps import at_version, stamped
from api.storage.scripts import ReadOrClaim
from roads import Scorecard
from tests.api_helpers import delete, feed, keys, post_round, roads
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


def test_current_shoe_and_named_shoe_agree(client):
    feed(client, "BPPBBBPT")
    named = roads(client)
    current = client.get("/v1/tables/t1/roads").json
    assert named == current
    assert named["probe"] == Scorecard.from_rounds("BPPBBBPT").probe()


def test_stats_and_probe_alone(client):
    feed(client, "BBBPPT")
    expected = Scorecard.from_rounds("BBBPPT")
    for path in ("/v1/tables/t1/stats", "/v1/tables/t1/shoes/s1/stats"):
        answer = client.get(path).json
        assert answer["stats"] == expected.stats() and answer["streaks"] == expected.streaks()
        assert answer["version"] == 6
    for path in ("/v1/tables/t1/probe", "/v1/tables/t1/shoes/s1/probe"):
        assert client.get(path).json["probe"] == expected.probe()


def test_ask_previews_without_storing(client):
    feed(client, "BPPBBBP")
    for side in "BP":
        preview = roads(client, query=f"?ask={side}")
        expected = Scorecard.from_rounds("BPPBBBP").preview(side).as_dict()
        assert preview["ask"] == side
        assert preview["big_eye_boy"] == expected["big_eye_boy"]
        assert preview["bead_plate"] == expected["bead_plate"]
    assert len(roads(client)["bead_plate"]) == 7
    assert client.get("/v1/tables/t1").json["version"] == 7


def test_tail_drop(client):
    results = "B" * 8 + "P" * 8
    feed(client, results)
    served = roads(client, query="?tail=drop")["big_road"]
    assert served == Scorecard.from_rounds(results, tail="drop").as_dict()["big_road"]
    assert served != roads(client)["big_road"]


@pytest.mark.parametrize(
    "path",
    [
        "/v1/tables/t1/roads",
        "/v1/tables/t1/shoes/s1/roads?ask=B",
        "/v1/tables/t1/shoes/s1/stats",
        "/v1/tables/t1/probe",
        "/v1/tables/t1/shoes/s1/rounds",
        "/v1/tables/t1",
    ],
)
def test_etag_and_304(client, path):
    feed(client, "BP")
    first = client.get(path)
    etag = first.headers["ETag"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.data
    post_round(client, 3, result="B")
    changed = client.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_history_lists_every_round(client):
    feed(client, "BPT")
    history = client.get("/v1/tables/t1/shoes/s1/rounds").json
    assert [r["result"] for r in history["rounds"]] == ["B", "P", "T"]
    assert [r["round"] for r in history["rounds"]] == [1, 2, 3]
    assert history["version"] == 3


@pytest.mark.parametrize(
    "path",
    [
        "/v1/tables/none/roads",
        "/v1/tables/t1/shoes/none/roads",
        "/v1/tables/t1/shoes/none/rounds",
        "/v1/tables/t1/shoes/none/stats",
        "/v1/tables/none/probe",
        "/v1/tables/bad.id/roads",
        "/v1/tables/" + "x" * 65 + "/roads",
        "/v1/tables/t1/shoes/s%201/roads",
        "/v1/nothing",
    ],
)
def test_unknown_things_are_404_json(client, path):
    feed(client, "B")
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.json["code"] == 404 and answer.json["message"]


def test_wrong_method_is_405_with_allow(client):
    answer = client.delete("/v1/tables/t1/roads")
    assert answer.status_code == 405
    assert "GET" in answer.headers["Allow"] and answer.json["code"] == 405


def test_reads_rebuild_when_every_cache_is_gone(client, redis_client, backend):
    feed(client, "BPPBBBPTB")
    before = {
        path: client.get(path).json
        for path in ("/v1/tables/t1/roads", "/v1/tables/t1/stats", "/v1/tables/t1/probe")
    }
    caches = keys(redis_client, "*:state") + keys(redis_client, "*:cache:*")
    assert caches
    delete(redis_client, caches)
    # Another process, which never served these answers, rebuilds them from the rounds.
    other = make_app(backend.url, cluster=backend.cluster).test_client()
    for path, answer in before.items():
        assert other.get(path).json == answer
    # Ingest also resumes from the rounds when the state is gone.
    delete(redis_client, keys(redis_client, "*:state"))
    assert post_round(client, 10, result="P").status_code == 201
    assert roads(client)["big_road"] == Scorecard.from_rounds("BPPBBBPTBP").as_dict()["big_road"]


def test_a_stale_cache_is_never_served(client, redis_client):
    feed(client, "BP")
    roads(client)
    state_key = keys(redis_client, "*:state")[0]
    old_state = redis_client.get(state_key)
    post_round(client, 3, result="B")
    # Put the older state back, as a racing writer of an older version might: it is ignored.
    redis_client.set(state_key, old_state)
    assert len(roads(client)["bead_plate"]) == 3
    assert post_round(client, 4, result="P").status_code == 201
    assert len(roads(client)["bead_plate"]) == 4


def test_ingest_answers_are_json_with_location_of_truth(client):
    answer = post_round(client, 1, result="B", headers=AUTH)
    assert answer.content_type == "application/json"


def test_a_miss_claims_its_build_once_per_version_and_brings_the_scorecard(app, redis_client):
    client, services = app.test_client(), app.extensions["roads"]
    keys = services.keys.shoe("t1", "s1")

    def look_up():
        read = ReadOrClaim(keys, "probe-test", 2000)
        return read.parse(read.run(redis_client))

    feed(client, "BPPB")
    first = look_up()
    assert (first.version, first.body, first.claimed) == (4, None, True)
    state = at_version(first.state, first.version)
    assert Scorecard.from_bytes(state).as_dict() == Scorecard.from_rounds("BPPB").as_dict()
    again = look_up()
    assert (again.version, again.body, again.claimed) == (4, None, False)  # being built
    redis_client.set(keys.cache("probe-test"), stamped(4, b"built"))
    assert look_up().body == b"built"
    post_round(client, 5, result="P")
    newer = look_up()
    assert (newer.version, newer.body, newer.claimed) == (5, None, True)  # a new version


def test_a_304_gives_its_claim_back(app, redis_client):
    client = app.test_client()
    feed(client, "BPPB")
    etag = client.get("/v1/tables/t1/shoes/s1/roads").headers["ETag"]
    # The cached answer is lost (evicted): the next revalidation finds nothing and claims
    # the build, but answers 304 without building, so the claim goes back at once.
    delete(redis_client, keys(redis_client, "*:cache:*"))
    app.extensions["roads"].reads.memo.clear()
    answer = client.get("/v1/tables/t1/shoes/s1/roads", headers={"If-None-Match": etag})
    assert answer.status_code == 304
    assert keys(redis_client, "*:cache:claim:*") == []
    assert client.get("/v1/tables/t1/shoes/s1/roads").json == roads(client)


@pytest.mark.parametrize("backend", ["cluster"], indirect=True)  # one server: no other route
def test_a_read_whose_node_link_fails_is_made_again_through_the_cluster_client(
    app, backend, monkeypatch
):
    import redis

    client = app.test_client()
    feed(client, "BPB")
    app.extensions["roads"].versions.stop()  # every read asks Redis
    failed = []

    def moved(commands, send):
        failed.append(len(commands))
        raise redis.ConnectionError("a Redis Cluster master moved; retry")

    monkeypatch.setattr(app.extensions["roads"].transport, "hook", moved)
    answer = client.get("/v1/tables/t1/shoes/s1/roads")
    assert answer.status_code == 200 and answer.json["rounds"] == 3
    assert failed  # the held link was tried first
