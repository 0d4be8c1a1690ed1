"""The transport's two ways of sending (held links, the default; redis-py's stock pipelines,
ROADS_TRANSPORT=pipeline) store and serve alike, on one server and on a cluster, and both go
through the transport's one seam (its hook)."""

import pytest

from api.config import ConfigError, Settings
from roads import Scorecard
from tests.api_helpers import feed, roads
from tests.conftest import AUTH, make_app

pytestmark = pytest.mark.cluster


@pytest.mark.parametrize("transport", ["links", "pipeline"])
def test_either_way_of_sending_stores_and_serves_alike(backend, redis_client, transport):
    app = make_app(backend.url, cluster=backend.cluster, transport=transport)
    sent = []

    def count(commands, send):
        sent.append(len(commands))
        return send(commands)

    app.extensions["roads"].transport.hook = count
    client = app.test_client()
    feed(client, "BPPBT")
    batch = {
        "rounds": [{"table": f"b{n}", "shoe": "s1", "round": 1, "result": "P"} for n in range(6)]
    }
    answer = client.post("/v1/rounds", json=batch, headers=AUTH)
    assert [item["status"] for item in answer.json["results"]] == [201] * 6
    assert roads(client)["big_road"] == Scorecard.from_rounds("BPPBT").as_dict()["big_road"]
    tiles = {tile["table"]: tile for tile in client.get("/v1/tables").json["tables"]}
    assert tiles["t1"]["recent"] == list("BPPBT") and tiles["b5"]["recent"] == ["P"]
    assert sent  # every round trip went through the one seam
    app.extensions["roads"].versions.stop()


# Settings.from_env refuses to start without a Redis outside the demo.
REDIS = {"REDIS_URL": "redis://127.0.0.1:1/0"}


def test_the_transport_setting_is_checked():
    assert Settings.from_env({**REDIS, "ROADS_TRANSPORT": "pipeline"}).transport == "pipeline"
    assert Settings.from_env(REDIS).transport == "links"
    with pytest.raises(ConfigError, match="ROADS_TRANSPORT"):
        Settings.from_env({**REDIS, "ROADS_TRANSPORT": "carrier-pigeon"})
