"""What a platform team expects of the service under gunicorn, on the tests' Redis: compressed
answers with an ETag per encoding, and no shared gunicorn control socket."""

from __future__ import annotations

import gzip
import http.client
import json
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis

from .conftest import KEY
from .gunicorn_server import gunicorn, send

HOME = tempfile.mkdtemp(prefix="roads-home-")


@pytest.fixture(scope="module")
def service(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    env = {
        "REDIS_URL": redis_server.url,
        "ROADS_INGEST_KEYS": KEY,
        "ROADS_WORKERS": "2",
        "HOME": HOME,
        "XDG_RUNTIME_DIR": "",
    }
    with gunicorn("wsgi:app", env) as base:
        for number, result in enumerate("BPPBTBBBPB", start=1):
            body = {"round": number, "result": result}
            send(base, "POST", "/v1/tables/gz/shoes/s1/rounds", body, KEY)
        yield base


def get(base: str, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the raw body (not decoded) of a GET."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        body = answer.read(200_000) if "events" not in path else b""
        return answer.status, dict(answer.getheaders()), body
    finally:
        connection.close()


def test_json_is_gzipped_when_accepted_and_decodes_to_the_same_document(service):
    status, plain_headers, plain = get(service, "/v1/tables/gz/roads")
    assert status == 200 and "Content-Encoding" not in plain_headers
    status, headers, packed = get(service, "/v1/tables/gz/roads", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in headers["Vary"]
    assert len(packed) < len(plain) / 3
    assert json.loads(gzip.decompress(packed)) == json.loads(plain)


def test_each_encoding_has_its_own_etag_and_each_is_honoured(service):
    _, plain, _ = get(service, "/v1/tables/gz/roads")
    _, packed, _ = get(service, "/v1/tables/gz/roads", **{"Accept-Encoding": "gzip"})
    assert packed["ETag"] == plain["ETag"][:-1] + ':gzip"'
    status, again, _ = get(
        service,
        "/v1/tables/gz/roads",
        **{"Accept-Encoding": "gzip", "If-None-Match": packed["ETag"]},
    )
    assert status == 304 and again["ETag"] == packed["ETag"]
    status, _, _ = get(service, "/v1/tables/gz/roads", **{"If-None-Match": plain["ETag"]})
    assert status == 304


def test_brotli_and_zstd_when_the_client_prefers_them(service):
    for encoding in ("br", "zstd"):
        _, headers, _ = get(service, "/v1/tables", **{"Accept-Encoding": encoding})
        assert headers["Content-Encoding"] == encoding


@pytest.mark.parametrize(
    "path", ["/v1/tables/gz/roads/big_road.png", "/v1/events", "/v1/events?tables=gz"]
)
def test_pictures_and_the_event_stream_are_never_compressed(service, path):
    status, headers, _ = get(service, path, **{"Accept-Encoding": "gzip, br, zstd"})
    assert status == 200 and "Content-Encoding" not in headers


def test_instances_share_no_gunicorn_control_socket(service):
    assert not (Path(HOME) / ".gunicorn").exists()
