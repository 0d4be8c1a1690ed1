"""Readers never hold a process's event loop or grow Redis: pictures are painted by child
processes behind a bounded queue, Good Roads queries with custom patterns are bounded in flight,
the live feed holds at most so many clients, and a picture outside the set the lobby uses is
kept in the process only. Past a bound a reader gets 503 with Retry-After; a writer never."""

import threading
import time

import pytest

from api.admission import Busy, Gate
from api.images.paint import paint
from api.images.pool import Busy as PaintersBusy
from api.images.pool import RenderPool
from api.images.scene import scorecard_scene
from roads import Scorecard
from roads.simulator import deal_shoe
from tests.api_helpers import feed, post_round
from tests.conftest import make_app


@pytest.fixture(scope="module")
def painters():
    pool = RenderPool(size=1, waiting=0)
    yield pool
    pool.stop()


def test_a_painter_process_paints_what_the_process_would(painters):
    scene = scorecard_scene(Scorecard.from_rounds(deal_shoe(5)).as_dict(), theme="dark")
    assert painters.paint(scene) == paint(scene)


def test_past_the_painters_queue_a_picture_is_refused_at_once(painters):
    big = scorecard_scene(Scorecard.from_rounds(deal_shoe(6)).as_dict(), cols=120, scale=4)
    first = threading.Thread(target=painters.paint, args=(big,))
    first.start()
    deadline = time.monotonic() + 5
    while painters.in_flight < 1:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    with pytest.raises(PaintersBusy):
        painters.paint(big)
    first.join(10)
    assert painters.in_flight == 0


def test_a_gate_lets_its_limit_in_and_refuses_the_next():
    gate = Gate(1, "things")
    with gate.entered(), pytest.raises(Busy, match="1 things"), gate.entered():
        pass
    with gate.entered():  # open again once the first left
        pass


def test_a_custom_good_roads_query_past_its_bound_is_503_and_ingest_goes_on(redis_server):
    app = make_app(redis_server.url, custom_queries=1)
    client = app.test_client()
    feed(client, "BBBB", table="gate-1")
    with app.extensions["roads"].custom_queries.entered():
        answer = client.get("/v1/good-roads?custom=X4%2B")
        assert answer.status_code == 503 and answer.headers["Retry-After"]
        assert "custom patterns" in answer.json["message"]
        assert post_round(client, 5, "gate-1", result="B").status_code == 201
    answer = client.get("/v1/good-roads?custom=X4%2B")
    assert answer.status_code == 200 and answer.json["good_roads"]
    app.extensions["roads"].versions.stop()


def test_the_live_feed_past_its_clients_is_503_and_ingest_goes_on(redis_server):
    app = make_app(redis_server.url, feed_clients=1)
    client = app.test_client()
    stream = client.get("/v1/events?frames=0", buffered=False)
    assert stream.status_code == 200
    answer = client.get("/v1/events")
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert "live-feed clients" in answer.json["message"]
    assert post_round(client, 1, "feed-1", result="B").status_code == 201
    stream.close()
    app.extensions["roads"].versions.stop()


def test_pictures_painted_in_the_process_past_their_rate_are_503(redis_server):
    app = make_app(redis_server.url, render_rate=1.0, render_queue=2)
    client = app.test_client()
    # (its own table: this test's Redis is the session's, shared with other tests)
    feed(client, "BPB", table="rate-1")
    answers = [client.get(f"/v1/tables/rate-1/roads/big_road.png?cols={n}") for n in range(30, 36)]
    assert [a.status_code for a in answers[:2]] == [200, 200]  # the burst (ROADS_RENDER_QUEUE)
    refused = [a for a in answers if a.status_code == 503]
    assert refused and all(a.headers["Retry-After"] for a in refused)
    assert post_round(client, 4, "rate-1", result="B").status_code == 201  # never a write
    app.extensions["roads"].versions.stop()


def test_only_the_lobby_s_pictures_are_cached_in_redis(backend, redis_client):
    client = make_app(backend.url, cluster=backend.cluster).test_client()
    feed(client, "BPB")
    for query in ("?cols=14&theme=dark", "?cols=14&scale=2&ask=B"):
        assert client.get(f"/v1/tables/t1/roads/big_road.png{query}").status_code == 200
    cached = len(redis_client.keys("*:cache:png*"))
    for cols in range(30, 60):  # a flood of variants no lobby asks for
        answer = client.get(f"/v1/tables/t1/roads/big_road.png?cols={cols}&scale=1.5")
        assert answer.status_code == 200 and answer.data.startswith(b"\x89PNG")
    assert len(redis_client.keys("*:cache:png*")) == cached == 2
    # and such a picture is still the one the shoe draws, with its ETag and 304
    again = client.get("/v1/tables/t1/roads/big_road.png?cols=30&scale=1.5")
    etag = again.headers["ETag"]
    held = client.get(
        "/v1/tables/t1/roads/big_road.png?cols=30&scale=1.5", headers={"If-None-Match": etag}
    )
    assert held.status_code == 304
