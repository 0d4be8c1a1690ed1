"""Two deployments on one Redis never meet: staging on database 1 and production on database 0 of
one server, and two namespaces (ROADS_NAMESPACE) on one cluster. Each writes table T; neither
reads, hears or serves the other's rounds, versions or lobby. The storage layer's objects, two
deployments' worth, without the app."""

import threading
import time

import pytest
import redis

from api.config import ConfigError, Settings
from api.storage.clients import database_of
from api.storage.failures import NotFound
from api.storage.keys import Keyspace
from api.storage.versionfeed import SUBSCRIBED, VersionFeed
from roads import Round
from tests.conftest import Backend
from tests.layer_parts import Parts, build_parts


class Heard:
    """Every version message on a deployment's channel, heard by a subscription of its own (as
    each process's version watch hears them)."""

    def __init__(self, parts: Parts) -> None:
        self.subscription = VersionFeed(
            parts.clients.plain, parts.keys.versions_channel
        ).subscribe()
        self.messages: list = []
        self.subscribed = threading.Event()
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()
        assert self.subscribed.wait(5), "never subscribed"

    def _listen(self) -> None:
        try:
            while True:
                message = self.subscription.next()
                if message == SUBSCRIBED:
                    self.subscribed.set()
                elif message is not None:
                    self.messages.append(message)
        except redis.RedisError:
            return  # interrupted

    def shoes(self) -> set[tuple[str, str]]:
        return {(message.table, message.shoe) for message in self.messages}

    def stop(self) -> None:
        self.subscription.interrupt()
        self.thread.join(5)


def feed(parts: Parts, results: str, shoe: str) -> None:
    for number, result in enumerate(results, start=1):
        assert parts.writer.append("T", shoe, number, Round(result)).changed


def apart(staging: Parts, production: Parts) -> None:
    """Both deployments write table T, in turns, while both follow their channels."""
    heard = {"staging": Heard(staging), "production": Heard(production)}
    feed(staging, "BBP", shoe="stage")
    feed(production, "PPPPB", shoe="prod")
    # Production's later writes come after staging's: a message heard across would now win.
    feed(production, "T", shoe="prod-2")
    time.sleep(0.2)  # time enough for any message to cross, were it to
    for name, parts, shoe, rounds in (
        ("staging", staging, "stage", 3),
        ("production", production, "prod-2", 1),
    ):
        table = parts.tables.get("T")
        assert (table["current_shoe"], table["rounds"]) == (shoe, rounds)
        version, scorecard = parts.states.current("T", shoe)
        assert (version, len(scorecard)) == (rounds, rounds)
        heard[name].stop()
    assert heard["staging"].shoes() == {("T", "stage")}
    assert heard["production"].shoes() == {("T", "prod"), ("T", "prod-2")}
    with pytest.raises(NotFound, match="has no shoe prod"):
        staging.states.current("T", "prod")
    _, stage_tiles, _ = staging.lobby.tables()
    assert [(tile.table, tile.summary["shoe"]) for tile in stage_tiles] == [("T", "stage")]


def test_two_databases_of_one_server_never_meet(redis_server):
    database_1 = redis_server.url.rsplit("/", 1)[0] + "/1"
    for url in (redis_server.url, database_1):
        redis.Redis.from_url(url).flushdb()
    staging = build_parts(Backend(database_1, cluster=False))
    apart(staging, build_parts(Backend(redis_server.url, cluster=False)))


def test_two_namespaces_of_one_cluster_never_meet(redis_cluster):
    client = redis_cluster.client()
    client.flushall(target_nodes=client.PRIMARIES)
    backend = Backend(redis_cluster.url, cluster=True)
    apart(build_parts(backend, namespace="staging"), build_parts(backend, namespace="production"))
    assert client.exists("staging:{t:T}:meta") and client.exists("production:{t:T}:meta")
    assert not client.exists("{t:T}:meta")  # no key without its namespace


def test_two_namespaces_of_one_database_never_meet(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    backend = Backend(redis_server.url, cluster=False)
    apart(build_parts(backend, namespace="staging"), build_parts(backend, namespace="production"))


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
