"""Hostile input, sent to the real service under gunicorn (its own request parsing is part of
what is tested): every route of ``/openapi.json``, with hostile values in each path parameter,
query parameter, body field and in the headers a client controls. Every answer is below 500,
every refusal is JSON with a ``message``, and a refused write changes nothing: a digest of every
durable key of the deployment (names and values) is the same before and after."""

from __future__ import annotations

import hashlib
import json
import socket
from urllib.parse import quote, urlsplit

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import KEY
from tests.gunicorn_server import send
from tests.gunicorn_server import service as served

EXAMPLES = settings(
    max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
VALID_PATH = {"table": "t1", "shoe": "s1", "number": "1", "road": "big_road", "game_id": "G-1"}
VALID_PATH |= {"name": "standard"}  # a pay table's name
VALID_BODY = {
    "TableIn": {"name": "Table 1", "variant": "standard"},
    "StatusIn": {"status": "dealing"},
    "StudioIn": {"kind": "pause"},
    "RoundIn": {"round": 4, "result": "B"},
    "BatchIn": {"rounds": [{"table": "t1", "shoe": "s1", "round": 4, "result": "B"}]},
    "Correction": {"round": 1, "result": "P"},
}


@pytest.fixture(scope="module")
def service(redis_server):
    with served(redis_server.url, KEY, workers=2) as base:
        for number, result in enumerate("BPT", start=1):
            send(
                base,
                "POST",
                "/v1/tables/t1/shoes/s1/rounds",
                {"round": number, "result": result},
                KEY,
            )
        document = json.loads(request(base, "GET", "/openapi.json")[2])
        yield base, routes(document), redis.Redis.from_url(redis_server.url)


def routes(document: dict) -> list[dict]:
    """Each operation: method, path template, its path and query parameters, its body schema."""
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            parameters = operation.get("parameters", []) + item.get("parameters", [])
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            found.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "in_path": [p["name"] for p in parameters if p["in"] == "path"],
                    "in_query": [p["name"] for p in parameters if p["in"] == "query"],
                    "body": body["schema"]["$ref"].rsplit("/", 1)[1] if body else None,
                }
            )
    return found


# -- hostile values ---------------------------------------------------------------------------

texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zl", "Zp"]), max_size=8),
    st.sampled_from(
        ["\u202eevil", "\u2066x\u2069", "a\x00b", "\ud800", "x\udfffy", "\ufeff", "\n"]
    ),
    st.integers(300, 100_000).map(lambda n: "x" * n),
)
numbers_as_text = st.sampled_from(
    [
        "9" * 5000,
        "-1",
        "0",
        "1e400",
        "-1e400",
        "NaN",
        "Infinity",
        "1.5",
        "18446744073709551616",
        "99999999999999999999-0",
        "1-99999999999999999999",
        "0x10",
        " 1",
        "1 ",
        "+1",
    ]
)
hostile_text = st.one_of(texts, numbers_as_text)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8,
)
raw_bodies = st.sampled_from(
    [
        b"",
        b"{",
        b"NaN",
        b'{"round": 1e99999}',
        b"[" * 50_000 + b"]" * 50_000,
        b'{"round": ' + b"9" * 5000 + b"}",
        b'{"name": "\\ud800x"}',
        b'{"round": 4, "result": "\xff"}',
        b"\xef\xbb\xbf{}",
        b'{"round": 4, "result": "B", "round": "x"}',
        b"null",
        b"[]",
        b'"text"',
    ]
)
content_types = st.sampled_from(
    [
        "text/plain",
        "application/json; charset=latin-1",
        "application/json;;;",
        "",
        "*/*",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "application/jsonx",
    ]
)
header_values = st.one_of(
    st.text(alphabet=st.characters(codec="latin-1", exclude_characters="\r\n"), max_size=60),
    st.integers(1, 20_000).map(lambda n: "a" * n),
    numbers_as_text,
    st.sampled_from(["*", 'W/"x"', '"' * 500, "gzip;q=abc", "*;q=-1", "br, zstd, gzip, identity"]),
)


# -- sending ----------------------------------------------------------------------------------


def request(
    base: str, method: str, target: str, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection, written as bytes (so that any header goes as it is);
    status, headers and body. An event stream is read only up to its first bytes."""
    parts = urlsplit(base)
    head = {"Host": parts.netloc, "Connection": "close", **(headers or {})}
    if body is not None and "Content-Length" not in head:
        head["Content-Length"] = str(len(body))
    lines = [f"{method} {target} HTTP/1.1"] + [f"{name}: {value}" for name, value in head.items()]
    raw = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")
    with socket.create_connection((parts.hostname, parts.port), timeout=15) as connection:
        connection.sendall(raw)
        connection.shutdown(socket.SHUT_WR)  # a Content-Length past the body meets its end
        answer = b""
        while b"\r\n\r\n" not in answer or not streaming(answer):
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    header, _, content = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = header.decode("latin-1").split("\r\n")
    found = dict(line.split(": ", 1) for line in header_lines if ": " in line)
    return int(status_line.split()[1]), {k.lower(): v for k, v in found.items()}, content


def streaming(answer: bytes) -> bool:
    return b"text/event-stream" in answer.split(b"\r\n\r\n", 1)[0]


def digest(client: redis.Redis) -> str:
    """Every durable key (no TTL: the caches come and go) with its value."""
    total = hashlib.sha256()
    for key in sorted(client.scan_iter(count=1000)):
        if client.pttl(key) == -1:
            total.update(key + b"\0" + (client.dump(key) or b"") + b"\0")
    return total.hexdigest()


def check(status: int, headers: dict[str, str], content: bytes, what: str) -> None:
    assert status < 500, (what, status, content[:300])
    if status >= 400:
        assert headers.get("content-type", "").startswith("application/json"), (what, headers)
        assert json.loads(content)["message"], (what, content[:300])


def fill(route: dict, values: dict[str, str]) -> str:
    path = route["path"]
    for name in route["in_path"]:
        path = path.replace(
            "{" + name + "}",
            quote(values.get(name, VALID_PATH[name]), safe="", errors="surrogatepass"),
        )
    return path


def attempt(service, route, target, body=None, headers=None) -> None:
    base, _, client = service
    head = {"X-API-Key": KEY, **(headers or {})}
    writes = route["method"] != "GET"
    before = digest(client) if writes else None
    status, answer_headers, content = request(base, route["method"], target, body, head)
    check(status, answer_headers, content, f"{route['method']} {target}")
    if writes and status >= 400:
        assert digest(client) == before, f"{route['method']} {target} changed the store"


# -- the tests --------------------------------------------------------------------------------


@EXAMPLES
@given(data=st.data())
def test_hostile_path_parameters(service, data):
    route = data.draw(st.sampled_from([r for r in service[1] if r["in_path"]]))
    name = data.draw(st.sampled_from(route["in_path"]))
    value = data.draw(hostile_text)
    body = json.dumps(VALID_BODY[route["body"]]).encode() if route["body"] else None
    attempt(service, route, fill(route, {name: value}), body, {"Content-Type": "application/json"})


@EXAMPLES
@given(data=st.data())
def test_hostile_query_parameters(service, data):
    route = data.draw(st.sampled_from([r for r in service[1] if r["in_query"]]))
    name = data.draw(st.sampled_from(route["in_query"]))
    value = data.draw(hostile_text)
    target = f"{fill(route, {})}?{name}={quote(value, safe='', errors='surrogatepass')}"
    attempt(service, route, target)


@EXAMPLES
@given(data=st.data())
def test_hostile_body_fields(service, data):
    route = data.draw(st.sampled_from([r for r in service[1] if r["body"]]))
    body = json.loads(json.dumps(VALID_BODY[route["body"]]))
    holder = body["rounds"][0] if route["body"] == "BatchIn" and data.draw(st.booleans()) else body
    field = data.draw(st.sampled_from([*holder, "player", "banker", "extra"]))
    holder[field] = data.draw(json_values)
    raw = json.dumps(body).encode("utf-8", "surrogatepass")
    attempt(service, route, fill(route, {}), raw, {"Content-Type": "application/json"})


@EXAMPLES
@given(data=st.data())
def test_hostile_raw_bodies_and_content_types(service, data):
    route = data.draw(st.sampled_from([r for r in service[1] if r["body"]]))
    body = data.draw(raw_bodies | st.just(json.dumps(VALID_BODY[route["body"]]).encode()))
    kind = data.draw(st.just("application/json") | content_types)
    headers = {"Content-Type": kind}
    if data.draw(st.booleans()):
        headers["Content-Length"] = data.draw(
            st.sampled_from(["-1", "abc", "1e3", "18446744073709551616", " 5", "0", "3"])
        )
    attempt(service, route, fill(route, {}), body, headers)


@EXAMPLES
@given(data=st.data())
def test_hostile_headers(service, data):
    route = data.draw(st.sampled_from(service[1]))
    name = data.draw(
        st.sampled_from(
            [
                "Accept-Encoding",
                "Last-Event-ID",
                "If-None-Match",
                "X-Request-ID",
                "Origin",
                "X-API-Key",
                "Accept",
            ]
        )
    )
    value = data.draw(header_values)
    body = json.dumps(VALID_BODY[route["body"]]).encode() if route["body"] else None
    headers = {"Content-Type": "application/json", name: value}
    attempt(service, route, fill(route, {}), body, headers)
