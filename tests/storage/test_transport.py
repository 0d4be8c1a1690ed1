"""The transport's two ways of sending (held links, the default; redis-py's stock pipelines,
ROADS_TRANSPORT=pipeline) store and serve alike, on one server and on a cluster, and both go
through the transport's one seam (its hook). The layers' objects, without the app."""

import pytest

from api.config import ConfigError, Settings
from api.storage.readcache import Answer
from roads import Round, Scorecard
from tests.layer_parts import build_parts

pytestmark = pytest.mark.cluster


def big_road(version: int, scorecard: Scorecard) -> bytes:
    """An answer the read cache builds: the Big Road's columns, at the shoe's version."""
    return f"{version}:{scorecard.as_dict()['big_road']['columns']}".encode()


@pytest.mark.parametrize("transport", ["links", "pipeline"])
def test_either_way_of_sending_stores_and_serves_alike(backend, redis_client, transport):
    parts = build_parts(backend, transport=transport)
    sent = []

    def count(commands, send):
        sent.append(len(commands))
        return send(commands)

    parts.transport.hook = count
    for number, result in enumerate("BPPBT", start=1):
        assert parts.writer.append("t1", "s1", number, Round(result)).changed
    batch = [(f"b{n}", "s1", 1, Round("P")) for n in range(6)]
    assert [outcome.changed for outcome in parts.writer.append_many(batch, "")] == [True] * 6
    expected = Scorecard.from_rounds("BPPBT")
    assert parts.states.current("t1", "s1")[1].as_dict() == expected.as_dict()
    served = parts.reads.get_or_build("t1", "s1", "roads", big_road)
    assert served == Answer(5, big_road(5, expected))
    tiles = parts.lobby.tiles_of(["t1", "b5"])
    assert tiles["t1"].summary["recent"] == list("BPPBT") and tiles["b5"].summary["recent"] == ["P"]
    assert sent  # every round trip went through the one seam


# Settings.from_env refuses to start without a Redis outside the demo.
REDIS = {"REDIS_URL": "redis://127.0.0.1:1/0"}


def test_the_transport_setting_is_checked():
    assert Settings.from_env({**REDIS, "ROADS_TRANSPORT": "pipeline"}).transport == "pipeline"
    assert Settings.from_env(REDIS).transport == "links"
    with pytest.raises(ConfigError, match="ROADS_TRANSPORT"):
        Settings.from_env({**REDIS, "ROADS_TRANSPORT": "carrier-pigeon"})
