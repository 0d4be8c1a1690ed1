"""Every bad input gets a 4xx JSON error that names the problem, and changes nothing."""

from urllib.parse import quote

import pytest

from api.config import Settings
from tests.api_helpers import feed
from tests.conftest import AUTH

ROUNDS = "/v1/tables/t1/shoes/s1/rounds"

BAD_BODIES = [
    ({"round": 3, "result": "X"}, 400, "result"),
    ({"round": 3, "result": "B", "player_pair": 0}, 400, "player_pair"),
    ({"round": 3, "result": "B", "natural": "true"}, 400, "natural"),
    ({"round": True, "result": "B"}, 400, "round"),
    ({"round": 3.5, "result": "B"}, 400, "round"),
    ({"round": "3", "result": "B"}, 400, "round"),
    ({"round": 0, "result": "B"}, 400, "round"),
    ({"round": 3, "result": "B", "banker_total": 10}, 400, "banker_total"),
    # Well formed, but no round the rules deal: 422.
    ({"round": 3, "result": "P", "player_total": 2, "banker_total": 7}, 422, "mean 'B'"),
    (
        {"round": 3, "result": "B", "natural": True, "player_total": 1, "banker_total": 2},
        422,
        "natural",
    ),
    ({"round": 3, "result": "B", "colour": "red"}, 400, "colour"),
    ({"round": 3}, 400, "cards"),
    ({"round": 3, "player": ["AS", "9D"]}, 400, "both hands"),
    (
        {"round": 3, "player": ["AS", "9D", "2C"], "banker": ["KH", "7C"], "result": "P"},
        400,
        "not both",
    ),
    ({"round": 3, "player": ["AS", "ZZ"], "banker": ["KH", "7C"]}, 400, "player.1"),
    ({"round": 3, "player": ["AS", "9D\n"], "banker": ["KH", "7C"]}, 400, "a rank"),
    ({"round": 3, "player": [" AS", "9D"], "banker": ["KH", "7C"]}, 400, "a rank"),
    ({"round": 3, "player": ["AS"], "banker": ["KH", "7C"]}, 400, "player"),
    ({"round": 3, "player": "AS 9D", "banker": ["KH", "7C"]}, 400, "player"),
    ({"round": 3, "player": ["AS", 9], "banker": ["KH", "7C"]}, 400, "player"),
    # The issue's own example: A+9 = 0 on two cards, so the Player had to draw.
    ({"round": 3, "player": ["AS", "9D"], "banker": ["KH", "7C", "2S"]}, 422, "Player stood on 0"),
    ({"round": 3, "player": ["4S", "4D"], "banker": ["KH", "7C", "2S"]}, 422, "natural 8"),
    ({"round": 3, "player": ["2S", "3D", "7C"], "banker": ["2H", "AC"]}, 422, "Banker stood on 3"),
    ([], 400, "Invalid input type"),
    ("B", 400, "Invalid input type"),
    (None, 400, "round"),
]


@pytest.mark.parametrize(("body", "status", "named"), BAD_BODIES)
def test_bad_bodies(client, redis_client, body, status, named):
    feed(client, "BP")
    before = _snapshot(redis_client)
    answer = client.post(ROUNDS, json=body, headers=AUTH)
    assert answer.status_code == status
    assert answer.json["code"] == status
    assert named in str(answer.json), answer.json
    assert _snapshot(redis_client) == before


def test_a_whole_number_written_with_a_fraction_is_that_integer(client):
    # JSON has one kind of number; JSON Schema's integer is any number without a fraction.
    feed(client, "BP")
    body = {"round": 3.0, "result": "B", "player_total": 2.0, "banker_total": 7}
    answer = client.post(ROUNDS, json=body, headers=AUTH)
    assert answer.status_code == 201, answer.json
    assert answer.json["round"]["round"] == 3 and answer.json["round"]["player_total"] == 2


def test_malformed_json(client, redis_client):
    feed(client, "B")
    before = _snapshot(redis_client)
    answer = client.post(ROUNDS, data="{round: 2", content_type="application/json", headers=AUTH)
    assert answer.status_code == 400 and "JSON" in answer.json["message"]
    assert _snapshot(redis_client) == before


# The four hostile requests of the hostile-clients issue, each once a 500.
DEEP = '{"round": 2, "result": ' + "[" * 50_000 + "]" * 50_000 + "}"
HUGE = '{"round": ' + "9" * 5_000 + ', "result": "B"}'


@pytest.mark.parametrize(
    ("body", "named"),
    [
        (DEEP, "nests deeper than 16 levels"),
        (HUGE, "more than 20 digits"),
        ('{"round": 2, "result": "B", "banker_total": 1e400}', "too large for a double"),
        ('{"round": 2, "result": NaN}', "NaN is not JSON"),
        (b'{"round": 2, "result": "\xff"}', "not UTF-8"),
    ],
)
def test_a_body_past_the_decoder_s_limits_is_400_naming_the_limit(
    client, redis_client, body, named
):
    feed(client, "B")
    before = _snapshot(redis_client)
    answer = client.post(ROUNDS, data=body, content_type="application/json", headers=AUTH)
    assert answer.status_code == 400 and named in answer.json["message"], answer.json
    assert _snapshot(redis_client) == before


def test_a_lone_surrogate_is_400_naming_its_field(client, redis_client):
    before = _snapshot(redis_client)
    body = '{"name": "\\ud800x"}'
    answer = client.put("/v1/tables/t1", data=body, content_type="application/json", headers=AUTH)
    assert answer.status_code == 400, answer.json
    assert "name" in answer.json["message"] and "surrogate" in answer.json["message"]
    assert _snapshot(redis_client) == before


@pytest.mark.parametrize(
    "query", ["?last_event_id=99999999999999999999-0", "?last_event_id=1-18446744073709551616"]
)
def test_an_event_id_past_64_bits_is_400(client, query):
    answer = client.get("/v1/events" + query)
    assert answer.status_code == 400 and "2^64-1" in answer.json["message"], answer.json
    header = {"Last-Event-ID": query.split("=")[1]}
    answer = client.get("/v1/events", headers=header)
    assert answer.status_code == 400 and "2^64-1" in answer.json["message"], answer.json


def test_oversized_body_is_413(client, redis_client):
    feed(client, "B")
    before = _snapshot(redis_client)
    body = '{"round": 2, "result": "B", "pad": "' + "x" * Settings().max_body + '"}'
    answer = client.post(ROUNDS, data=body, content_type="application/json", headers=AUTH)
    assert answer.status_code == 413 and answer.json["code"] == 413
    assert _snapshot(redis_client) == before


def test_the_ninth_copy_of_a_card_is_refused(client, redis_client):
    aces = {"player": ["AS", "AS", "AS"], "banker": ["KH", "KH", "KH"]}
    for number in (1, 2):
        assert client.post(ROUNDS, json={"round": number, **aces}, headers=AUTH).status_code == 201
    before = _snapshot(redis_client)
    answer = client.post(ROUNDS, json={"round": 3, **aces}, headers=AUTH)
    # The shoe's rounds so far decide it, as they decide a round out of turn: a conflict.
    assert (
        answer.status_code == 409 and "AS would be dealt for the 9th time" in answer.json["message"]
    )
    assert _snapshot(redis_client) == before


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/v1/tables/t1/shoes/s1/rounds/1", {"result": "Q"}, 400),
        ("/v1/tables/t1/shoes/s1/rounds/1", {"round": 2, "result": "B"}, 422),
        ("/v1/tables/t1/shoes/s1/rounds/1", {"result": "B", "extra": 1}, 400),
        ("/v1/tables/t1/shoes/s1/rounds/1", {"player": ["AS", "9D"], "banker": ["KH", "7C"]}, 422),
        ("/v1/tables/t1", {"name": ""}, 400),
        ("/v1/tables/t1", {"name": "x", "variant": "mini"}, 400),
        ("/v1/tables/t1", {"variant": "speed"}, 400),
        ("/v1/tables/t1", {"name": 5}, 400),
    ],
)
def test_bad_corrections_and_metadata(client, redis_client, path, body, status):
    feed(client, "BP")
    before = _snapshot(redis_client)
    answer = client.put(path, json=body, headers=AUTH)
    assert answer.status_code == status and answer.json["message"]
    assert _snapshot(redis_client) == before


@pytest.mark.parametrize("query", ["?ask=T", "?ask=b", "?tail=up", "?tail="])
def test_bad_query_parameters(client, query):
    feed(client, "BP")
    answer = client.get(f"/v1/tables/t1/roads{query}")
    assert answer.status_code == 400 and answer.json["message"]


@pytest.mark.parametrize("text", [" 1", "1 ", "1_0", "+1", "\u0661", "0x1", "1.0", ""])
@pytest.mark.parametrize(
    "path, name",
    [
        ("/v1/tables?since=", "since"),
        ("/v1/tables/t1/shoes?limit=", "limit"),
        ("/v1/tables/t1/roads/big_road.png?cols=", "cols"),
        ("/v1/rarity?road=big_road&side=B&length=", "length"),
    ],
)
def test_a_query_integer_is_plain_decimal_digits(client, path, name, text):
    """Python's int() takes " 1", "1_0", "+1" and other scripts' digits: the service does not,
    as the OpenAPI document's ``integer`` does not (and the memo of a query string would keep
    one answer under many spellings)."""
    feed(client, "BP")
    answer = client.get(path + quote(text), headers=AUTH)
    assert answer.status_code in (400, 422), answer.json
    assert name in str(answer.json["errors"])


@pytest.mark.parametrize("text", ["2", "-3", "0.5", "1e-1", "2E0"])
def test_a_query_number_as_json_writes_it_is_read(client, text):
    feed(client, "BP")
    answer = client.get("/v1/tables/t1/roads/big_road.png?scale=" + quote(text))
    assert answer.status_code == (200 if 0.5 <= float(text) <= 4 else 400)


@pytest.mark.parametrize("text", [" 1", "1_0", "+1", "\u0661", ".5", "1.", "inf"])
def test_a_query_number_in_another_spelling_is_400(client, text):
    feed(client, "BP")
    answer = client.get("/v1/tables/t1/roads/big_road.png?scale=" + quote(text))
    assert answer.status_code == 400 and "scale" in str(answer.json["errors"])


def _snapshot(redis_client) -> dict:
    """Every durable key and its value (caches aside: they may be filled by reads)."""
    snapshot = {}
    for key in redis_client.keys("*"):
        if b":cache:" in key or key.endswith(b":state"):
            continue
        kind = redis_client.type(key)
        if kind == b"hash":
            snapshot[key] = redis_client.hgetall(key)
        elif kind == b"list":
            snapshot[key] = redis_client.lrange(key, 0, -1)
        elif kind == b"stream":
            snapshot[key] = redis_client.xrange(key)
        else:
            snapshot[key] = redis_client.get(key)
    return snapshot


@pytest.mark.parametrize(
    "name",
    ["Baccarat\n1", "Tab\tle", "Bad\x7f", "\u202eevil", "a\u2066b", "x\u2069", "c1\x85", "end\n"],
)
def test_a_table_name_with_control_or_bidi_characters_is_refused(client, redis_client, name):
    before = _snapshot(redis_client)
    answer = client.put("/v1/tables/t9", json={"name": name}, headers=AUTH)
    assert answer.status_code == 400 and "bidirectional" in answer.json["message"]
    assert _snapshot(redis_client) == before


def test_a_table_name_in_any_script_is_kept(client):
    for name in ("Baccarat Ωμέγα", "百家乐 8", "بكارات", "Баккара ♠"):
        answer = client.put("/v1/tables/t9", json={"name": name}, headers=AUTH)
        assert answer.status_code == 200 and answer.json["name"] == name
