"""Scorecard pictures: the drawing layer agrees with the roads JSON cell for cell, the pixels
agree with the drawing layer, and the endpoints cache, revalidate and render once."""

import io
import threading
import time
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from PIL import Image

from api.http.catalogues import LANGUAGES as LANGS
from api.http.images import letters_of
from api.images import fonts
from api.images import paint as paint_module
from api.images.scene import (
    BASE_CELL,
    COLORS,
    THEMES,
    Bead,
    first_visible,
    items_of,
    new_cells_of,
    road_scene,
    scorecard_scene,
)
from roads import Round, Scorecard
from roads.simulator import deal_shoe
from tests.api_helpers import feed, keys
from tests.strategies import results

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster

ROADS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road")


def shoe_shape(seed=4):
    return Scorecard.from_rounds(deal_shoe(seed)).as_dict()


@settings(max_examples=60, deadline=None)
@given(results)
def test_scene_draws_exactly_the_visible_cells(results):
    shape = Scorecard.from_rounds(results).as_dict()
    for road in ROADS:
        for cols in (3, 12):
            scene = road_scene(shape, road, cols=cols)
            items = items_of(shape, road)
            first = first_visible(items, cols)
            expected = [
                (road, item["col"], item["row"], item.get("result") or item.get("color"))
                for item in items
                if item["col"] >= first
            ]
            assert scene.cells == expected
            assert all(first <= col < first + cols for _, col, _, _ in scene.cells)


def test_scene_marks_ties_pairs_and_leading_ties():
    rounds = [
        "T",
        Round.from_result("B", banker_pair=True),
        "T",
        "T",
        Round.from_result("P", player_pair=True),
    ]
    shape = Scorecard.from_rounds(rounds).as_dict()
    scene = road_scene(shape, "big_road")
    tie_slashes = [s for s in scene.slashes if s[4] == COLORS["T"]]
    assert len(tie_slashes) == 2  # the leading tie and the two ties on the B cell
    assert [g[2] for g in scene.glyphs] == ["2"]  # a count only where there are several ties
    assert sorted(color for *_, color in scene.dots) == sorted([COLORS["B"], COLORS["P"]])
    assert [color for *_, color in scene.rings] == [COLORS["B"], COLORS["P"]]


def test_bead_plate_letters_or_totals():
    rounds = [Round.from_cards(["2H", "3D", "10C"], ["3S", "3C"]), Round.from_result("P")]
    shape = Scorecard.from_rounds(rounds).as_dict()
    assert [g[2] for g in road_scene(shape, "bead_plate").glyphs] == ["B", "P"]
    # The winning total where it is known, the letter where it is not.
    assert [g[2] for g in road_scene(shape, "bead_plate", bead=Bead("totals")).glyphs] == ["6", "P"]
    italian = Bead(letters=(("B", "B"), ("P", "G"), ("T", "P")))
    assert [g[2] for g in road_scene(shape, "bead_plate", bead=italian).glyphs] == ["B", "G"]


def test_an_empty_shoe_is_an_empty_grid():
    shape = Scorecard().as_dict()
    for road in ROADS:
        scene = road_scene(shape, road)
        assert scene.cells == [] and scene.grid
        assert Image.open(io.BytesIO(paint_module.paint(scene))).size == (scene.width, scene.height)
    assert paint_module.paint(scorecard_scene(shape))


def colour_at(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return image.getpixel((int(x), int(y)))[:3]


def hex_rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))


def close(a, b, tolerance=40) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_pixels_agree_with_the_json(theme):
    shape = shoe_shape(9)
    cell = BASE_CELL * 2
    for road, probe in (
        ("bead_plate", lambda x, y: (x - 0.36 * cell, y)),  # inside the disc, left of the letter
        ("big_road", lambda x, y: (x, y + 0.39 * cell)),  # on the ring, at its bottom
        ("small_road", lambda x, y: (x, y)),  # the centre of the dot
    ):
        png = paint_module.paint(road_scene(shape, road, scale=2, theme=theme))
        image = Image.open(io.BytesIO(png)).convert("RGB")
        items = items_of(shape, road)
        first = first_visible(items, 30 if road != "bead_plate" else 14)
        taken = set()
        for item in items:
            if item["col"] < first:
                continue
            col, row = item["col"] - first, item["row"]
            taken.add((col, row))
            x, y = (col + 0.5) * cell, (row + 0.5) * cell
            expected = COLORS[item.get("result") or item.get("color")]
            assert close(colour_at(image, *probe(x, y)), hex_rgb(expected)), (road, item)
        background = hex_rgb(THEMES[theme]["background"])
        for col in range(10):
            for row in range(6):
                if (col, row) not in taken:
                    centre = ((col + 0.5) * cell, (row + 0.5) * cell)
                    assert close(colour_at(image, *centre), background, 8), (road, col, row)


def test_ask_highlights_exactly_the_new_cells():
    scorecard = Scorecard.from_rounds("BPPBBBP")
    before = scorecard.as_dict()
    after = scorecard.preview("P").as_dict()
    new = new_cells_of(before, after)
    assert ("big_road", 3, 1) in new
    assert {road for road, _, _ in new} == {
        "bead_plate",
        "big_road",
        "big_eye_boy",
        "small_road",
        "cockroach_road",
    }
    scene = scorecard_scene(after, new_cells=new)
    assert len(scene.highlights) == len(new)


# -- endpoints ---------------------------------------------------------------------------------

PNG = "/v1/tables/t1/shoes/s1/roads/{}.png"


@pytest.mark.parametrize("road", [*ROADS, "scorecard"])
def test_every_picture_is_a_png(client, road):
    feed(client, "BPPTBBBPPBBBBBBBBP")
    for url in (PNG.format(road), f"/v1/tables/t1/roads/{road}.png?theme=dark&scale=0.5&cols=6"):
        answer = client.get(url)
        assert answer.status_code == 200 and answer.content_type == "image/png"
        assert Image.open(io.BytesIO(answer.data)).format == "PNG"


def test_cached_revalidated_and_new_on_a_new_round(client, redis_client):
    feed(client, "BPB")
    first = client.get(PNG.format("big_road"))
    assert keys(redis_client, "*:cache:png:*")
    again = client.get(PNG.format("big_road"))
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert (
        client.get(
            PNG.format("big_road"), headers={"If-None-Match": first.headers["ETag"]}
        ).status_code
        == 304
    )
    client.post(
        "/v1/tables/t1/shoes/s1/rounds",
        json={"round": 4, "result": "B"},
        headers={"X-API-Key": "test-ingest-key"},
    )
    newer = client.get(PNG.format("big_road"))
    assert newer.headers["ETag"] != first.headers["ETag"] and newer.data != first.data


@pytest.mark.parametrize(
    "query",
    [
        "?cols=0",
        "?cols=121",
        "?cols=x",
        "?theme=blue",
        "?scale=0.1",
        "?scale=5",
        "?scale=nan",
        "?bead=digits",
        "?ask=T",
    ],
)
def test_bad_picture_parameters_are_400(client, query):
    feed(client, "BP")
    answer = client.get(PNG.format("scorecard") + query)
    assert answer.status_code == 400 and answer.json["message"]


def test_a_picture_over_the_pixel_limit_is_422(client):
    # Each parameter is in its range; together they ask for a picture too large to draw.
    feed(client, "BP")
    answer = client.get(PNG.format("scorecard") + "?cols=120&scale=4")
    assert answer.status_code == 422 and "too large" in answer.json["message"]


def test_the_bead_plate_speaks_the_players_language(client):
    # Italian: G for Giocatore, P for Pareggio (seed 003); Chinese: 庄 闲 和, in the host's CJK
    # font (the test command installs one).
    feed(client, "BPT")
    pictures = {lang: client.get(PNG.format("bead_plate") + f"?lang={lang}") for lang in LANGS}
    assert all(answer.status_code == 200 for answer in pictures.values())
    with client.application.test_request_context():
        # One picture for each set of letters (Japanese lobbies write B, P, T as English does).
        letter_sets = {letters_of(lang) for lang in LANGS}
        assert len({answer.data for answer in pictures.values()}) == len(letter_sets)
        assert letters_of("it") == (("B", "B"), ("P", "G"), ("T", "P"))
        assert letters_of("zh-Hans") == (("B", "庄"), ("P", "闲"), ("T", "和"))
        # Traditional Chinese and Korean in the CJK font; Thai in a Thai one (fonts-thai-tlwg).
        assert letters_of("zh-Hant") == (("B", "莊"), ("P", "閒"), ("T", "和"))
        assert letters_of("ko") == (("B", "뱅"), ("P", "플"), ("T", "타"))
        assert letters_of("th") == (("B", "จ"), ("P", "ผ"), ("T", "ส"))
    # Only the Bead Plate has letters: the Big Road is the same picture, cached once.
    big = [client.get(PNG.format("big_road") + f"?lang={lang}").data for lang in LANGS]
    assert len(set(big)) == 1
    assert client.get(PNG.format("bead_plate") + "?lang=fr").status_code == 400


def test_letters_no_font_can_draw_are_drawn_as_b_p_t(app, monkeypatch):
    monkeypatch.setattr(fonts, "cjk", lambda: None)
    monkeypatch.setattr(fonts, "thai", lambda: None)
    with app.test_request_context():
        assert letters_of("zh-Hans") == (("B", "B"), ("P", "P"), ("T", "T"))
        assert letters_of("th") == (("B", "B"), ("P", "P"), ("T", "T"))
        assert letters_of("vi") == (("B", "B"), ("P", "P"), ("T", "H"))  # Latin: always drawn
        assert letters_of("nl") == (("B", "B"), ("P", "S"), ("T", "G"))


def test_unknown_pictures_are_404(client):
    feed(client, "BP")
    assert client.get("/v1/tables/t1/shoes/s1/roads/dragon.png").status_code == 404
    assert client.get("/v1/tables/t1/shoes/s9/roads/big_road.png").status_code == 404
    assert client.get("/v1/tables/t9/roads/big_road.png").status_code == 404


def test_many_clients_asking_at_once_render_once(app, monkeypatch):
    feed(app.test_client(), "BPPBBBPT")
    calls = []
    painters = app.extensions["roads"].painters
    real_slot = painters.slot

    @contextmanager
    def slow_slot():
        with real_slot() as paint:

            def slow_paint(scene):
                calls.append(scene)
                threading.Event().wait(0.2)  # a slow render, so every request overlaps it
                return paint(scene)

            yield slow_paint

    monkeypatch.setattr(painters, "slot", slow_slot)
    # The others wait this long for the one render before drawing themselves: long enough that
    # a slow, shared test machine never turns this test into a race against that timeout.
    monkeypatch.setattr(app.extensions["roads"].reads, "wait_seconds", 10.0)
    answers = []

    def ask():
        answers.append(app.test_client().get(PNG.format("scorecard") + "?theme=dark"))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1
    assert all(a.status_code == 200 for a in answers)
    assert len({a.data for a in answers}) == 1


def test_a_write_by_another_process_reaches_the_pictures(backend, redis_client):
    from tests.conftest import make_app

    reader = make_app(backend.url, cluster=backend.cluster)
    writer = make_app(backend.url, cluster=backend.cluster)
    feed(writer.test_client(), "BPB")
    client = reader.test_client()
    first = client.get(PNG.format("big_road"))
    store = reader.extensions["roads"]
    # The reader now knows the shoe's version without asking Redis (once subscribed).
    deadline = time.monotonic() + 5
    while store.versions.get("t1", "s1") != 3:
        assert time.monotonic() < deadline
        client.get(PNG.format("big_road"))
        time.sleep(0.01)
    writer.test_client().post(
        "/v1/tables/t1/shoes/s1/rounds",
        json={"round": 4, "result": "B"},
        headers={"X-API-Key": "test-ingest-key"},
    )
    deadline = time.monotonic() + 5
    while client.get(PNG.format("big_road")).headers["ETag"] == first.headers["ETag"]:
        assert time.monotonic() < deadline, "the other process's write never arrived"
        time.sleep(0.005)
    assert store.versions.get("t1", "s1") == 4
    for app in (reader, writer):
        app.extensions["roads"].versions.stop()


def test_without_a_subscription_every_read_asks_redis():
    from api.live.versions import VersionWatch
    from api.storage.versionfeed import VersionFeed

    no_redis = lambda: (_ for _ in ()).throw(ConnectionError("no Redis"))  # noqa: E731
    broken = VersionWatch(VersionFeed(no_redis, "roads:versions").subscribe)
    assert broken.get("t1", "s1") is None
    broken.saw("t1", "s1", 5, broken.token())
    assert broken.get("t1", "s1") is None  # nothing is trusted while unsubscribed
    broken.stop()


def test_a_read_from_before_the_subscription_is_never_remembered(redis_server):
    import redis

    from api.live.versions import VersionWatch
    from api.storage.versionfeed import VersionFeed

    # The subscriber waits for the gate, so the first token is certainly taken before the
    # subscription is confirmed (without it the thread could win the race and the test pass
    # or fail by timing).
    gate = threading.Event()

    def connect() -> redis.Redis:
        gate.wait(5)
        return redis.Redis.from_url(redis_server.url)

    watch = VersionWatch(VersionFeed(connect, "roads:versions").subscribe)
    early = watch.token()
    assert early is None
    gate.set()
    deadline = time.monotonic() + 5
    while watch.token() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    watch.saw("t1", "s1", 3, early)
    assert watch.get("t1", "s1") is None  # that read may predate a write this process missed
    watch.saw("t1", "s1", 3, watch.token())
    assert watch.get("t1", "s1") == 3
    watch.stop()


def test_query_memo_never_keeps_errors(client):
    feed(client, "BPB")
    for _ in range(2):
        assert client.get(PNG.format("big_road") + "?scale=9").status_code == 400
        assert client.get(PNG.format("big_road") + "?theme=dark&cols=8").status_code == 200
    dark = client.get(PNG.format("big_road") + "?theme=dark&cols=8").data
    light = client.get(PNG.format("big_road") + "?cols=8").data
    assert dark != light
