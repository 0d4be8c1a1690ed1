"""Two deployments on one Redis never meet: staging on database 1 and production on database 0 of
one server, and two namespaces (ROADS_NAMESPACE) on one cluster. Each writes table T; neither
reads, hears or serves the other's rounds, versions, lobby or events."""

import time

import pytest
import redis

from api.config import ConfigError, Settings
from api.storage.clients import database_of
from api.storage.keys import Keyspace
from tests.api_helpers import feed
from tests.conftest import make_app


def until(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.01)


def subscribed(app) -> None:
    """Wait until the app's version watch follows its channel (its reads then trust it)."""
    versions = app.extensions["roads"].versions
    until(lambda: versions.token() is not None)


def roads_of(app, table="T"):
    answer = app.test_client().get(f"/v1/tables/{table}/roads")
    assert answer.status_code == 200, answer.json
    return answer.json


def apart(staging, production) -> None:
    """Both deployments write table T, in turns, while both watch their channels."""
    subscribed(staging)
    subscribed(production)
    feed(staging.test_client(), "BBP", table="T", shoe="stage")
    feed(production.test_client(), "PPPPB", table="T", shoe="prod")
    # Production's later writes come after staging's: a message heard across would now win.
    feed(production.test_client(), "T", table="T", shoe="prod-2")
    time.sleep(0.2)  # time enough for any message to cross, were it to
    for app, shoe, rounds in ((staging, "stage", 3), (production, "prod-2", 1)):
        table = app.test_client().get("/v1/tables/T").json
        assert (table["current_shoe"], table["rounds"]) == (shoe, rounds)
        served = roads_of(app)
        assert (served["shoe"], served["rounds"]) == (shoe, rounds)
        versions = app.extensions["roads"].versions
        assert versions.current("T") == shoe
    assert staging.extensions["roads"].versions.get("T", "prod") is None
    stage_tiles = staging.test_client().get("/v1/tables").json["tables"]
    assert [(tile["table"], tile["shoe"]) for tile in stage_tiles] == [("T", "stage")]
    for app in (staging, production):
        app.extensions["roads"].versions.stop()


def test_two_databases_of_one_server_never_meet(redis_server):
    database_1 = redis_server.url.rsplit("/", 1)[0] + "/1"
    for url in (redis_server.url, database_1):
        redis.Redis.from_url(url).flushdb()
    apart(make_app(database_1), make_app(redis_server.url))


def test_two_namespaces_of_one_cluster_never_meet(redis_cluster):
    client = redis_cluster.client()
    client.flushall(target_nodes=client.PRIMARIES)
    staging = make_app(redis_cluster.url, cluster=True, namespace="staging")
    production = make_app(redis_cluster.url, cluster=True, namespace="production")
    apart(staging, production)
    assert client.exists("staging:{t:T}:meta") and client.exists("production:{t:T}:meta")
    assert not client.exists("{t:T}:meta")  # no key without its namespace


def test_two_namespaces_of_one_database_never_meet(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    apart(
        make_app(redis_server.url, namespace="staging"),
        make_app(redis_server.url, namespace="production"),
    )


def test_the_channel_names_its_scope():
    assert Keyspace.of(None, 0).versions_channel == "roads:versions"  # as before this release
    assert Keyspace.of(None, 1).versions_channel == "roads:versions@1"
    assert Keyspace.of("staging", 0).versions_channel == "staging:roads:versions"
    assert Keyspace.of("staging", 3).lobby.events == "staging:{lobby}:events"
    assert database_of(Settings(redis_url="redis://h:1/7")) == 7
    assert database_of(Settings(redis_url="redis://h:1")) == 0


@pytest.mark.parametrize("namespace", ["a b", "x" * 33, "a{b}", "é"])
def test_a_namespace_is_a_plain_token(namespace):
    with pytest.raises(ConfigError, match="ROADS_NAMESPACE"):
        Settings.from_env({"REDIS_URL": "redis://h:1/0", "ROADS_NAMESPACE": namespace})
