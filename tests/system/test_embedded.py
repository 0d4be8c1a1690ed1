"""The embedded default of the demo command: fakeredis in-process, demo tables fed by the
simulator. (The only tests that use fakeredis; every other test talks to a real Redis.)"""

import json
import time

import pytest

from api import create_app
from api.config import ConfigError, Settings
from api.demo import DEMO_TABLES
from roads import Scorecard
from roads.rarity import figure, pattern_chance, run_chance
from tests.api_helpers import feed, roads
from tests.conftest import KEY, stopped_with_test
from tests.sse_client import sse_events


def embedded_app(**overrides):
    return stopped_with_test(create_app(Settings(redis_url=None, ingest_keys=(KEY,), **overrides)))


def test_embedded_store_runs_the_whole_api():
    client = embedded_app(demo=False).test_client()
    feed(client, "BPPBBBP")  # the Lua scripts run on fakeredis's Lua
    assert roads(client)["big_eye_boy"] == Scorecard.from_rounds("BPPBBBP").as_dict()["big_eye_boy"]
    assert client.get("/readyz").status_code == 200


def test_embedded_lobby_good_roads_and_events():
    client = embedded_app(demo=False, sse_heartbeat=0.1).test_client()
    stream = client.get("/v1/events?frames=0", buffered=False)
    feed(client, "PBBBB")
    tiles = client.get("/v1/tables?sort=streak&since=0").json
    run = tiles["tables"][0]["streaks"]["big_road"]["current"]
    chance = figure(run_chance("big_road", "B", 4).value)
    assert run == {"side": "B", "length": 4, "chance": chance, "lobby_chance": chance}
    assert tiles["grown"] == 1
    good = client.get("/v1/good-roads?patterns=banker_streak").json["good_roads"]
    assert [(g["table"], g["since_round"]) for g in good] == [("t1", 5)]
    events = []
    for chunk in stream.response:
        events += sse_events(chunk.decode())  # one or several
        if len(events) >= 8:
            break
    stream.close()
    # Banker 4 in a row starts two Good Roads: Banker Streak and 长庄 (chang_zhuang), each with
    # its chance (fakeredis's Lua computes the lobby's as Redis's does).
    kinds = [event["event"] for event in events]
    assert kinds == ["shoe", "round", "round", "round", "round", "round", "good_road", "good_road"]
    for event in events[-2:]:
        data = json.loads(event["data"]) if isinstance(event["data"], str) else event["data"]
        chance = figure(pattern_chance(data["pattern"]).value)
        assert (data["chance"], data["lobby_chance"]) == (chance, chance)  # one table


def test_embedded_pictures_follow_new_rounds():
    client = embedded_app(demo=False).test_client()
    feed(client, "BPPBBBPT")
    first = client.get("/v1/tables/t1/roads/scorecard.png")
    assert first.status_code == 200 and first.content_type == "image/png"
    assert (
        client.post(
            "/v1/tables/t1/shoes/s1/rounds",
            json={"round": 9, "result": "B"},
            headers={"X-API-Key": KEY},
        ).status_code
        == 201
    )
    assert client.get("/v1/tables/t1/roads/scorecard.png").headers["ETag"] != first.headers["ETag"]


def test_demo_tables_fill_up_and_keep_dealing():
    app = embedded_app(demo=True)
    demo = app.extensions["roads.demo"]
    demo.interval = 0.05
    demo.start()
    client = app.test_client()

    def versions():
        answers = [client.get(f"/v1/tables/{table}") for table, _, _ in DEMO_TABLES]
        return [a.json["version"] if a.status_code == 200 else 0 for a in answers]

    try:
        deadline = time.monotonic() + 20
        while min(versions()) < 20:
            assert time.monotonic() < deadline, versions()
            time.sleep(0.1)
        before = sum(versions())
        deadline = time.monotonic() + 20
        while sum(versions()) <= before:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert client.get("/v1/tables/demo-1/roads").json["rounds"] >= 20
    finally:
        demo.stop()


def test_settings_from_environment():
    settings = Settings.from_env({"REDIS_URL": "redis://h:1/0", "ROADS_INGEST_KEYS": " a, b ,,"})
    assert settings.redis_url == "redis://h:1/0" and settings.ingest_keys == ("a", "b")
    assert not settings.embedded and not settings.demo
    demo = Settings.from_env({"ROADS_DEMO": "1"})
    assert demo.embedded and demo.demo
    assert Settings.from_env({"ROADS_REDIS_URL": "redis://x/1"}).redis_url == "redis://x/1"


@pytest.mark.parametrize("env", [{}, {"ROADS_DEMO": "0"}, {"ROADS_INGEST_KEYS": "k:s"}])
def test_no_redis_url_outside_the_demo_refuses_to_start(env):
    """A deployment that lost its REDIS_URL must not run on an in-process Redis: the start is
    refused, saying what to set."""
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env)
    message = str(refused.value)
    assert "REDIS_URL" in message and "ROADS_DEMO=1" in message


def test_the_demo_key_is_the_embedded_demos_alone():
    assert embedded_app(demo=False).test_client()  # no REDIS_URL: the demo, where it is taken
    app = stopped_with_test(create_app(Settings(redis_url=None, ingest_keys=("demo:demo-key",))))
    answer = app.test_client().put(
        "/v1/tables/t1", json={"name": "x"}, headers={"X-API-Key": "demo-key"}
    )
    assert answer.status_code == 200
    with pytest.raises(ConfigError, match=r"demo-key .*refused"):
        create_app(Settings(redis_url="redis://127.0.0.1:1/0", ingest_keys=("demo-key",)))
