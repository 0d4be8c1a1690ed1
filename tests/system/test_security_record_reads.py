"""The security suite's rows for the record's reads, against gunicorn, Redis and PostgreSQL:

- a closed shoe that left Redis, its ``record`` column rewritten: the true round is served (what
  comes back is rebuilt from what the chain covers); its ``canonical`` rewritten: the shoe is
  refused (409 naming the shoe and the first bad write) and a ``record_tampered`` alert is on
  the operators' stream; its row's outcomes rewritten (``record_shoes``): its summary refused;
- a table's past and the archive need a read or an operator key (401 otherwise) unless
  ``ROADS_PUBLIC_RECORD=1``;
- with PostgreSQL unreachable the 503 names the problem, never the database's host, port, user
  or password.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request

import psycopg
import redis

from tests.gunicorn_server import send, service

INGEST, READ, OPERATOR = "ingest-key", "read-key", "operator-key"
KEYS = {"ROADS_READ_KEYS": READ, "ROADS_OPERATOR_KEYS": OPERATOR}


def get(base: str, path: str, key: str | None = None) -> tuple[int, dict, dict]:
    """Status, JSON body and headers of a GET (with ``key`` as ``X-API-Key``)."""
    headers = {"X-API-Key": key} if key else {}
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, body_of(answer), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, body_of(error), dict(error.headers)


def body_of(answer) -> dict:
    text = answer.read()
    if answer.headers.get("Content-Type", "").startswith("application/json"):
        return json.loads(text)
    return {"text": text.decode()}  # an export (NDJSON, CSV)


def wait_for(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.1)


def deal(base: str, table: str, shoe: str, results: str) -> None:
    for number, result in enumerate(results, 1):
        body = {"round": number, "result": result}
        send(base, "POST", f"/v1/tables/{table}/shoes/{shoe}/rounds", body, INGEST)


def evicted(database_url: str, table: str, shoe: str) -> bool:
    with psycopg.connect(database_url) as conn:
        found = conn.execute(
            "SELECT evicted FROM record_shoes WHERE table_id = %s AND shoe = %s", (table, shoe)
        ).fetchone()
    return bool(found and found[0])


def test_a_rewritten_record_is_never_served_and_the_operators_are_alerted(
    redis_server, database_url
):
    env = {"ROADS_DATABASE_URL": database_url, "ROADS_HOT_SECONDS": "1", **KEYS}
    with service(redis_server.url, INGEST, **env) as base:
        for table in ("forged", "rewritten"):
            deal(base, table, "s1", "BPBPT")
            deal(base, table, "s2", "B")  # s1 closes
        wait_for(lambda: evicted(database_url, "forged", "s1"))
        wait_for(lambda: evicted(database_url, "rewritten", "s1"))
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(  # round 1: B as the chain says, P in the uncovered column
                'UPDATE record_writes SET record = replace(record, \'"result":"B"\','
                " '\"result\":\"P\"') WHERE table_id = 'forged' AND shoe = 's1' AND round = 1"
            )
            conn.execute(
                'UPDATE record_writes SET canonical = replace(canonical, \'"result":"B"\','
                " '\"result\":\"P\"') WHERE table_id = 'rewritten' AND shoe = 's1'"
                " AND round = 3"
            )
        status, body, _ = get(base, "/v1/tables/forged/shoes/s1/rounds")
        assert status == 200 and [r["result"] for r in body["rounds"]] == list("BPBPT")

        for path in ("rounds", "roads"):
            status, body, _ = get(base, f"/v1/tables/rewritten/shoes/s1/{path}")
            assert status == 409, (path, status, body)
            assert "shoe s1 of table rewritten" in body["message"]
            assert "write 3 (round 3)" in body["message"]
        alerts = stream_alerts(redis_server.url, "record_tampered")
        assert len(alerts) == 1, alerts  # once per shoe, however often it was asked for
        assert (alerts[0]["table"], alerts[0]["shoe"], alerts[0]["write"]) == ("rewritten", "s1", 3)

        # The shoe's row is not covered by the chain: a summary rewritten there is refused.
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE record_shoes SET outcomes = 'PPPPP' WHERE table_id = 'forged'"
                " AND shoe = 's1'"
            )
        for path in ("/v1/tables/forged/shoes/s1", "/v1/tables/forged/shoes"):
            status, body, _ = get(base, path, READ)
            assert status == 409 and "its row's outcomes" in body["message"], (path, body)
        alerts = stream_alerts(redis_server.url, "record_tampered")
        assert [alert["table"] for alert in alerts] == ["rewritten", "forged"]


def stream_alerts(redis_url: str, kind: str) -> list[dict]:
    """The alerts of ``kind`` on the operators' integrity stream (``{lobby}:integrity:events``)."""
    client = redis.Redis.from_url(redis_url)
    (stream,) = client.keys("*:integrity:events")
    return [
        {**json.loads(fields[b"data"]), "table": fields[b"table"].decode()}
        for _, fields in client.xrange(stream)
        if fields[b"type"] == kind.encode()
    ]


def test_the_records_reads_need_a_read_or_operator_key_unless_public(redis_server, database_url):
    env = {"ROADS_DATABASE_URL": database_url, **KEYS}
    paths = (
        "/v1/tables/past/shoes",
        "/v1/tables/past/shoes/s1",
        "/v1/tables/past/shoes/s1/export",
        "/v1/archive/tables/past",
        "/v1/archive/tables/past/shoes/s1/rounds",
    )
    with service(redis_server.url, INGEST, **env) as base:
        deal(base, "past", "s1", "BPB")
        wait_for(lambda: get(base, "/v1/tables/past/shoes/s1", READ)[0] == 200)
        for path in paths:
            for key in (None, INGEST, "not-a-key"):
                status, body, headers = get(base, path, key)
                assert status == 401, (path, key, status)
                assert headers.get("WWW-Authenticate", "").startswith("ApiKey")
                assert "key" in body["message"]
        for key in (READ, OPERATOR):
            assert get(base, "/v1/tables/past/shoes", key)[0] == 200
            assert get(base, "/v1/tables/past/shoes/s1/export", key)[0] == 200
            assert get(base, "/v1/archive/tables/past", key)[0] == 404  # not retired: read
    with service(redis_server.url, INGEST, ROADS_PUBLIC_RECORD="1", **env) as base:
        status, body, _ = get(base, "/v1/tables/past/shoes")
        assert status == 200 and body["shoes"][0]["shoe"] == "s1"


def test_with_the_database_unreachable_the_503_names_no_address_user_or_password(redis_server):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://auditor:s3cret-pw@127.0.0.1:{port}/roads"
    env = {"ROADS_DATABASE_URL": url, "ROADS_PUBLIC_RECORD": "1"}
    with service(redis_server.url, INGEST, **env) as base:
        for path in ("/v1/tables/t1/shoes", "/v1/tables/t1/shoes/s1/export"):
            status, body, headers = get(base, path)
            assert status == 503 and headers.get("Retry-After"), (path, status, body)
            text = json.dumps(body)
            assert "record" in body["message"] and "unavailable" in body["message"]
            for secret in ("127.0.0.1", str(port), "auditor", "s3cret-pw", "postgresql://"):
                assert secret not in text, (secret, text)
