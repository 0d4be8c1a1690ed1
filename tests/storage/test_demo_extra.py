"""fakeredis is the demo extra's: the service with a REDIS_URL starts without it and never
imports it, and the demo without it stops at its start, saying what to install. fakeredis is
made absent as an uninstalled package is (its import fails), in this process only."""

from __future__ import annotations

import sys

import pytest

from api import create_app
from api.config import ConfigError, Settings
from tests.conftest import KEY, make_app, stopped_with_test


@pytest.fixture
def without_fakeredis(monkeypatch):
    """Imports of fakeredis and lupa fail with ModuleNotFoundError, as when not installed."""
    for name in [name for name in sys.modules if name.split(".")[0] in ("fakeredis", "lupa")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "fakeredis", None)
    monkeypatch.setitem(sys.modules, "lupa", None)


def test_the_demo_without_its_extra_stops_at_its_start_naming_the_extra(without_fakeredis):
    with pytest.raises(ConfigError) as raised:
        create_app(Settings(redis_url=None, ingest_keys=(KEY,), demo=True))
    assert "pip install 'baccarat-roads[demo]'" in str(raised.value)
    assert "REDIS_URL" in str(raised.value)


def test_the_service_with_a_redis_url_starts_and_answers_without_fakeredis(
    without_fakeredis, redis_server
):
    client = make_app(redis_server.url).test_client()  # its jobs stop with the test
    assert client.get("/readyz").status_code == 200
    assert client.get("/v1/tables").status_code == 200  # an import of fakeredis would raise


def test_the_demo_with_its_extra_installed_starts():
    app = stopped_with_test(create_app(Settings(redis_url=None, ingest_keys=(KEY,), demo=False)))
    client = app.test_client()
    assert client.get("/readyz").status_code == 200
