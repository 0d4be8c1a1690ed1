"""Fixtures: a real redis-server started by the tests, and the app on it; Debian's Chromium for
the page tests.

Test modules marked ``pytest.mark.cluster`` run every test that uses the ``backend`` fixture
(through ``app``, ``client`` or ``redis_client``) twice: on the single redis-server and on a
local Redis Cluster of 3 masters with a replica each (``tests/redis_cluster.py``), with the
service in its cluster mode (``ROADS_REDIS_CLUSTER=1``).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
import redis
from redis.cluster import RedisCluster

from api import create_app
from api.config import Settings
from api.jobs import stop_jobs

from . import netlock
from .postgres_server import PostgresServer
from .redis_cluster import LocalCluster
from .redis_server import RedisServer

KEY = "test-ingest-key"
AUTH = {"X-API-Key": KEY}


def pytest_configure(config):
    config.addinivalue_line("markers", "cluster: also run on a local Redis Cluster")
    config.addinivalue_line(
        "markers",
        "alone: needs the machine to itself (scripts/test runs these after the others, in one "
        "process): its promise rests on a third party (Pushpin) keeping time under load",
    )


# Under pytest-xdist (scripts/test: ``--dist loadscope``, a module at a time on one worker), the
# modules that start servers, build images or drive browsers go first: their long tests start
# while the other worker has work, and the run ends on the many short modules, not with one
# worker idle while the other runs a three-minute test.
FIRST = ("tests/system/",)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker collects the same, and sorts alike
        items.sort(key=lambda item: not item.nodeid.startswith(FIRST))  # stable: order kept


def pytest_generate_tests(metafunc):
    chosen = any(
        "backend" in marker.args[0] for marker in metafunc.definition.iter_markers("parametrize")
    )  # a test about one backend only names it itself
    if (
        "backend" in metafunc.fixturenames
        and metafunc.definition.get_closest_marker("cluster")
        and not chosen
    ):
        metafunc.parametrize("backend", ["single", "cluster"], indirect=True)


@pytest.fixture(scope="session")
def redis_server():
    server = RedisServer().start()
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def postgres_server():
    server = PostgresServer().start()
    yield server
    server.cleanup()


@pytest.fixture
def database_url(postgres_server):
    """A database of its own for the test, on the tests' PostgreSQL."""
    return postgres_server.new_database()


@pytest.fixture
def pg(database_url):
    """A connection to the test's database (autocommit), to read or tamper with the record."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn


@pytest.fixture(scope="session")
def redis_cluster():
    cluster = LocalCluster().start()
    yield cluster
    cluster.cleanup()


@dataclass(frozen=True)
class Backend:
    """Where the service under test keeps its data: a redis-server, or a Redis Cluster."""

    url: str
    cluster: bool

    def client(self) -> redis.Redis:
        if self.cluster:
            return RedisCluster.from_url(self.url)
        return redis.Redis.from_url(self.url)


@pytest.fixture
def backend(request):
    if getattr(request, "param", "single") == "cluster":
        return Backend(request.getfixturevalue("redis_cluster").url, cluster=True)
    return Backend(request.getfixturevalue("redis_server").url, cluster=False)


@pytest.fixture
def redis_client(backend):
    client = backend.client()
    if backend.cluster:
        client.flushall(target_nodes=RedisCluster.PRIMARIES)
    else:
        client.flushdb()
    yield client
    client.close()


def make_app(url: str, *, cluster: bool = False, stop_with_test: bool = True, **overrides):
    """The app on the tests' Redis. The odds are public here unless a test says otherwise
    (tests/http/test_auth.py holds the default: behind read keys). Its services stop when the
    test ends (:func:`_jobs_stopped`); a fixture of a wider scope passes ``stop_with_test=False``
    and stops them itself."""
    overrides.setdefault("public_odds", True)
    # The tests draw many pictures in a row through one app; the bound on pictures painted a
    # second has its own test (tests/http/test_admission.py).
    overrides.setdefault("render_rate", 10_000.0)
    # The access log is written by a thread of its own, after a test's output is captured: its
    # tests (tests/test_accesslog.py, tests/system/) read it where the service writes it.
    overrides.setdefault("access_log", False)
    settings = Settings(redis_url=url, cluster=cluster, ingest_keys=(KEY,), **overrides)
    app = create_app(settings)
    app.config["TESTING"] = True
    return stopped_with_test(app) if stop_with_test else app


def stopped_with_test(app):
    """``app``, its services stopped when the running test ends (:func:`_jobs_stopped`)."""
    _made.append(app)
    return app


_made: list = []  # the apps made during the running test


@pytest.fixture(autouse=True)
def _jobs_stopped():
    """The services of the apps a test made stop with it: the leased jobs an app starts on use
    (the frame builder on a lobby stream, the GRIP publishers, the drift evaluator on a write)
    would go on writing into the next test's Redis, and its readers (the version watch, the
    event hub, the frame feed) would be woken by every later write in the process: 437 of them
    left by tests/http made a later test's 2,400 writes take 79 s instead of 1."""
    yield
    while _made:
        app = _made.pop()
        stop_jobs(app.extensions["roads"], app.extensions.get("roads.demo"))
    # What would show a leak again: version watches piling up as tests make apps.
    watching = sum(1 for thread in threading.enumerate() if thread.name == "version-watch")
    assert watching <= MOST_VERSION_WATCHES, (
        f"{watching} version watches still run: an app made outside make_app or "
        "stopped_with_test, or services built and never stopped"
    )


# Stopped watches end their thread as their connection closes, a moment after the test; a few
# module-scoped apps keep theirs.
MOST_VERSION_WATCHES = 30


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster)


@pytest.fixture
def client(app):
    return app.test_client()


def _warm(browser) -> None:
    """A first page laid out in the scripts the lobby uses, before any test's page: a fresh
    Chromium's first layout (its fonts found, in Latin and Chinese) is then paid here, with no
    test's wait running, and never by a test on a busy box."""
    page = browser.new_page()
    page.set_content("<p>Baccarat lobby 百家乐 大路 Big Road</p>", timeout=120_000)
    page.evaluate("document.body.offsetHeight")
    page.close()


CHROMIUM = "/usr/bin/chromium"
# As root and on a closed network: no sandbox, and none of Chromium's background connections.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(autouse=True)
def _browsing(request):
    """A test that drives the browser runs while podman changes no network interface (see
    tests/netlock.py: Chromium fails its requests in flight when one comes or goes)."""
    if "browser" not in request.fixturenames:
        yield
        return
    with netlock.browsing():
        yield


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, driven by Playwright (which never downloads a browser here)."""
    from playwright.sync_api import expect, sync_playwright

    # A page's waits (a dialog shown, a tile drawn) get 15 s, not Playwright's 5: with two
    # workers the other may be building an image or a stack, and a wait is a readiness check,
    # never a speed one (a page that never shows still fails). The pages that showed no tiles
    # in full runs were not slow: podman's interfaces had failed their requests
    # (net::ERR_NETWORK_CHANGED), which tests/netlock.py prevents (_browsing).
    expect.set_options(timeout=15_000)
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is missing: scripts/test installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _warm(browser)
        yield browser
        browser.close()
