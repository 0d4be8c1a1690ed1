"""What a platform team expects of the service under gunicorn, on the tests' Redis: compressed
answers with an ETag per encoding, no shared gunicorn control socket, CORS for listed origins."""

from __future__ import annotations

import gzip
import http.client
import json
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import brotli
import pytest
from backports import zstd

from api.config import ConfigError, Settings
from api.http.compression import Kept
from tests.conftest import KEY, make_app
from tests.gunicorn_server import send
from tests.gunicorn_server import service as served

HOME = tempfile.mkdtemp(prefix="roads-home-")


@pytest.fixture(scope="module")
def service(redis_server):
    with served(redis_server.url, KEY, workers=2, HOME=HOME, XDG_RUNTIME_DIR="") as base:
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
        body = answer.read() if "events" not in path else b""
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


@pytest.mark.parametrize("encoding", ["gzip", "br", "zstd"])
def test_a_kept_compressed_lobby_follows_every_change(service, encoding):
    # Kept per encoding by the lobby's cursor: the same bytes until the lobby moves, then new.
    def lobby() -> dict:
        _, headers, packed = get(service, "/v1/tables", **{"Accept-Encoding": encoding})
        assert headers["Content-Encoding"] == encoding
        return json.loads(decode(encoding, packed))

    first, again = lobby(), lobby()
    assert first == again
    rounds = {tile["table"]: tile["rounds_played"] for tile in first["tables"]}
    table = f"kept-{encoding}"
    send(service, "POST", f"/v1/tables/{table}/shoes/s1/rounds", {"round": 1, "result": "P"}, KEY)
    after = lobby()
    assert after["cursor"] > first["cursor"] and table not in rounds
    assert {tile["table"]: tile["rounds_played"] for tile in after["tables"]}[table] == 1
    _, _, plain = get(service, "/v1/tables")
    assert after == json.loads(plain)


def decode(encoding: str, packed: bytes) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(packed)
    if encoding == "br":
        return brotli.decompress(packed)
    return zstd.decompress(packed)


def test_only_answers_a_view_names_are_kept_compressed():
    kept = Kept()
    kept.set("gzip;", b"one answer")  # unnamed: compressed afresh every time
    assert kept.get("gzip;") is None
    kept.set("gzip;tables:(1, 2)", b"named")
    assert kept.get("gzip;tables:(1, 2)") == b"named" and kept.get("br;tables:(1, 2)") is None


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


STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.mark.parametrize(
    ("path", "file"),
    [
        ("/", "index.html"),
        ("/docs", "docs.html"),
        ("/static/lobby.js", "lobby.js"),
        ("/static/vendor/redoc/redoc.standalone.js", "vendor/redoc/redoc.standalone.js"),
    ],
)
def test_the_pages_files_are_compressed_and_revalidated_in_any_encoding(service, path, file):
    for _ in range(2):  # compressed, then kept by the file's ETag
        status, headers, packed = get(service, path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed) == (STATIC / file).read_bytes()
    assert headers["ETag"].endswith(':gzip"')
    status, _, _ = get(
        service, path, **{"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]}
    )
    assert status == 304


def test_the_api_reference_is_served_with_its_licence_and_nothing_from_elsewhere(service):
    status, headers, page = get(service, "/docs")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'spec-url="/openapi.json"' in page and b"/static/vendor/redoc/" in page
    assert b"http" not in page  # every address is the service's own
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "img-src 'self' data: blob:" in policy
    status, _, licence = get(service, "/static/vendor/redoc/LICENSE")
    assert status == 200 and b"MIT License" in licence


def test_instances_share_no_gunicorn_control_socket(service):
    assert not (Path(HOME) / ".gunicorn").exists()


LOBBY = "https://lobby.example.com"


@pytest.fixture(scope="module")
def cors_service(redis_server):
    url = redis_server.url.rsplit("/", 1)[0] + "/2"  # a database of its own
    origins = f"{LOBBY}, https://other-lobby.example.com"
    with served(url, KEY, ROADS_CORS_ORIGINS=origins) as base:
        send(base, "POST", "/v1/tables/cors/shoes/s1/rounds", {"round": 1, "result": "B"}, KEY)
        yield base


def preflight(base: str, path: str, origin: str, method: str, headers: str = "") -> dict:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        asked["Access-Control-Request-Headers"] = headers
    try:
        connection.request("OPTIONS", path, headers=asked)
        answer = connection.getresponse()
        answer.read()
        return dict(answer.getheaders())
    finally:
        connection.close()


@pytest.mark.parametrize(
    "path", ["/v1/tables", "/v1/tables/cors/roads/big_road.png", "/v1/events?tables=cors"]
)
def test_a_listed_origin_may_read_json_pictures_and_the_event_stream(cors_service, path):
    allowed = preflight(cors_service, path, LOBBY, "GET", "last-event-id")
    assert allowed["Access-Control-Allow-Origin"] == LOBBY
    assert "last-event-id" in allowed["Access-Control-Allow-Headers"].lower()
    _, headers, _ = get(cors_service, path, Origin=LOBBY)
    assert headers["Access-Control-Allow-Origin"] == LOBBY
    assert "ETag" in headers.get("Access-Control-Expose-Headers", "") or "events" in path


def test_another_origin_gets_no_cors_headers(cors_service):
    refused = preflight(cors_service, "/v1/tables", "https://evil.example.com", "GET")
    assert "Access-Control-Allow-Origin" not in refused
    _, headers, _ = get(cors_service, "/v1/tables", Origin="https://evil.example.com")
    assert "Access-Control-Allow-Origin" not in headers


def test_ingest_from_a_browser_passes_no_preflight_unless_allowed(cors_service, redis_server):
    path = "/v1/tables/cors/shoes/s1/rounds"
    refused = preflight(cors_service, path, LOBBY, "POST", "x-api-key, content-type")
    assert "POST" not in refused.get("Access-Control-Allow-Methods", "")
    assert "x-api-key" not in refused.get("Access-Control-Allow-Headers", "").lower()
    # make_app: its jobs (the drift evaluator) stop with the test, not go on in the next ones.
    client = make_app(redis_server.url, cors_origins=(LOBBY,), cors_ingest=True).test_client()
    allowed = client.options(
        path,
        headers={
            "Origin": LOBBY,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-api-key, content-type",
        },
    )
    assert "POST" in allowed.headers["Access-Control-Allow-Methods"]
    assert "x-api-key" in allowed.headers["Access-Control-Allow-Headers"].lower()


@pytest.mark.parametrize("value", ["lobby.example.com", "https://a.example.com/path", "*"])
def test_cors_origins_must_be_origins(value):
    with pytest.raises(ConfigError, match="ROADS_CORS_ORIGINS"):
        Settings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0", "ROADS_CORS_ORIGINS": value})
