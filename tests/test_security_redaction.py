"""No secret, address, user or password in what the service says (issue 42, item 5): the
settings' repr, a refused setting's message, a 503's body and the log lines written meanwhile,
with a real Redis and a real PostgreSQL each stopped under the app."""

from __future__ import annotations

import io
import json
import logging
import string
from collections.abc import Iterator

import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st

from api.config import ConfigError, Settings, redact_url
from api.logs import JsonFormatter, scrubbed
from tests.conftest import make_app
from tests.postgres_server import PostgresServer
from tests.redis_server import RedisServer

PASSWORD, USER = "pw-Zq81xKt", "auditor_9f"
INGEST, READ, OPERATOR = "ingest-secret-4f1c", "read-secret-77ab", "operator-secret-d2e9"
GRIP = "grip-secret-" + "k" * 32


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Every line the service's loggers (and the root's) write meanwhile, as the service writes
    them (api.logs.JsonFormatter): the service's own at every level, the libraries' at the
    level the service runs them at (api.logs: warnings and up; their debug lines, which name
    the hosts they connect to, are never written)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    loggers = [logging.getLogger(), logging.getLogger("roads")]
    levels = [logger.level for logger in loggers]
    for logger, level in zip(loggers, (logging.WARNING, logging.DEBUG), strict=True):
        logger.addHandler(handler)
        logger.setLevel(level)
    yield stream
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def said_nothing_of(text: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in text, f"{secret!r} in {text!r}"


def test_the_settings_repr_shows_no_key_and_no_password():
    settings = Settings.from_env(
        {
            "REDIS_URL": f"redis://:{PASSWORD}@10.1.2.3:6380/0",
            "ROADS_INGEST_KEYS": f"studio-a:{INGEST},{INGEST}-bare",
            "ROADS_READ_KEYS": READ,
            "ROADS_OPERATOR_KEYS": f"ops:{OPERATOR}",
            "ROADS_DATABASE_URL": f"postgresql://{USER}:{PASSWORD}@db.internal:5433/roads",
            "ROADS_GRIP_URL": f"http://pushpin:{PASSWORD}@127.0.0.1:5561",
            "ROADS_GRIP_KEY": GRIP,
            "ROADS_CHECKPOINT_KEY": "/etc/roads/checkpoint.key",
        }
    )
    for shown in (repr(settings), str(settings)):
        said_nothing_of(shown, PASSWORD, INGEST, READ, OPERATOR, GRIP)
        # What is not secret is still there to read, the URLs' passwords as ***.
        assert f"postgresql://{USER}:***@db.internal:5433/roads" in shown
        assert "redis://:***@10.1.2.3:6380/0" in shown
        assert "ingest_keys=('***', '***')" in shown
        assert "checkpoint_key='/etc/roads/checkpoint.key'" in shown
        assert "head_timeout=10.0" in shown
    assert settings.ingest_keys == (f"studio-a:{INGEST}", f"{INGEST}-bare")  # kept, only hidden


@given(
    password=st.text(string.ascii_letters + string.digits + "-_.~!$&'()*+,;=%@:", min_size=6),
    key=st.text(string.ascii_letters + string.digits, min_size=16, max_size=40),
)
def test_no_password_or_key_survives_the_repr(password, key):
    settings = Settings(
        redis_url="redis://127.0.0.1:6379/0",
        database_url=f"postgresql://roads:{password}@db/roads",
        ingest_keys=(key,),
        read_keys=(key + "r",),
    )
    shown = repr(settings)
    assert f":{password}@" not in shown
    assert key not in shown
    assert "postgresql://roads:***@db/roads" in shown


@given(st.text(string.ascii_letters + string.digits + "-_.~%", min_size=4))
def test_a_urls_password_is_masked_wherever_it_stands(password):
    for url in (
        f"postgresql://u:{password}@h:5432/d",
        f"u:{password}@h/d",
        f"see redis://:{password}@h:6379/0 now",
    ):
        masked = redact_url(url)
        assert f":{password}@" not in masked and ":***@" in masked


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (f"mysql://{USER}:{PASSWORD}@db/roads", "a mysql:// URL"),
        (f"{USER}:{PASSWORD}@db/roads", "not a URL"),
        (f"postgresq://{USER}:{PASSWORD}@db/roads", "a postgresq:// URL"),
    ],
)
def test_a_bad_database_url_is_refused_without_echoing_it(value, said):
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"REDIS_URL": "redis://127.0.0.1/0", "ROADS_DATABASE_URL": value})
    message = str(refused.value)
    said_nothing_of(message, PASSWORD, USER)
    assert "ROADS_DATABASE_URL must be a postgresql:// URL" in message and said in message


def test_a_bad_proxy_url_is_refused_with_its_password_masked():
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(
            {"REDIS_URL": "redis://127.0.0.1/0", "ROADS_NCHAN_URL": f"ftp://u:{PASSWORD}@h/pub"}
        )
    said_nothing_of(str(refused.value), PASSWORD)
    assert "ftp://u:***@h/pub" in str(refused.value)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            'connection failed: connection to server at "10.0.0.5", port 5433 failed: '
            "Connection refused",
            "connection to server at",
        ),
        ("Error 111 connecting to 10.0.0.5:6380. Connection refused.", "Error 111 connecting"),
        ("Error -2 connecting to redis.internal:6379. Name or service not known.", "Error -2"),
        ('FATAL:  password authentication failed for user "auditor_9f"', "authentication failed"),
        ('connection to server on socket "/run/pg/.s.PGSQL.5433" failed', "on socket"),
        ("host=db.internal port=5433 user=auditor_9f password=pw-Zq81xKt", "host="),
        (f"postgresql://{USER}:{PASSWORD}@db.internal:5433/roads", "postgresql://"),
        ("Error connecting to [fe80::1]:6379", "Error connecting"),
    ],
)
def test_a_store_clients_error_text_is_scrubbed_of_where(text, kept):
    clean = scrubbed(text)
    said_nothing_of(clean, "10.0.0.5", "5433", "6380", "6379", "redis.internal", "db.internal")
    said_nothing_of(clean, USER, PASSWORD, "/run/pg", "fe80")
    assert kept in clean


def test_a_dead_redis_is_a_503_naming_no_address(log_lines):
    server = RedisServer().start()
    try:
        app = make_app(server.url, access_log=False)
        client = app.test_client()
        assert client.get("/livez").status_code == 200
        server.stop()
        answers = [
            client.get("/v1/tables/t1/roads"),
            client.post(
                "/v1/tables/t1/shoes/s1/rounds",
                json={"round": 1, "result": "B"},
                headers={"X-API-Key": "test-ingest-key"},
            ),
            client.get("/readyz"),
        ]
        # redis-py's own words, logged with a traceback as any error is:
        try:
            redis.Redis(port=server.port, socket_connect_timeout=0.5).ping()
        except redis.exceptions.ConnectionError:
            logging.getLogger("roads").warning("Redis is away", exc_info=True)
    finally:
        server.cleanup()
    for answer in answers:
        assert answer.status_code == 503, answer.json
        assert "Redis" in answer.json["message"]
        said_nothing_of(answer.get_data(as_text=True), "127.0.0.1", str(server.port))
    lines = log_lines.getvalue().splitlines()
    assert any(
        "redis.exceptions.ConnectionError" in json.loads(line).get("error", "") for line in lines
    )
    said_nothing_of(log_lines.getvalue(), "127.0.0.1", str(server.port))


def test_a_dead_postgresql_is_a_503_naming_no_address_user_or_password(redis_server, log_lines):
    postgres = PostgresServer().start()
    port = postgres.port
    postgres.cleanup()  # stopped: nothing listens on its port now
    url = f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{port}/roads"
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, database_url=url, public_record=True)
    try:
        client = app.test_client()
        answers = [client.get("/v1/tables/x/shoes"), client.get("/v1/tables/x/shoes/s1/export")]
        # psycopg's own words, logged with a traceback as any error is:
        import psycopg

        try:
            psycopg.connect(url, connect_timeout=1)
        except psycopg.OperationalError:
            logging.getLogger("roads").error("PostgreSQL is away", exc_info=True)
    finally:
        app.extensions["roads"].record.database.close()
    for answer in answers:
        assert answer.status_code == 503, (answer.status_code, answer.get_data(as_text=True))
        body = answer.get_data(as_text=True)
        assert "the record (PostgreSQL)" in answer.json["message"]
        said_nothing_of(body, "127.0.0.1", str(port), USER, PASSWORD)
    lines = log_lines.getvalue()
    assert "psycopg.OperationalError" in lines
    said_nothing_of(lines, "127.0.0.1", str(port), USER, PASSWORD)
