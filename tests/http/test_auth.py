"""The odds and the edge flags are for readers with a key (``ROADS_READ_KEYS``) unless the
operator makes them public (``ROADS_PUBLIC_ODDS=1``): the default here, on a real Redis."""

from dataclasses import replace

import pytest

from api.codecs.writelog import LoggedWrite
from api.storage.writelog import clock
from tests.api_helpers import feed, post_round
from tests.conftest import AUTH, KEY, make_app

READ_KEY = "reader-key"
TENS = [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"] * 8


@pytest.fixture
def gated(backend, redis_client):
    app = make_app(backend.url, public_odds=False, read_keys=(READ_KEY,), sse_heartbeat=0.3)
    return app.test_client()


def deal_pairs(client, table="edgy", rounds=21):
    """Six 10-value cards a round: the shoe grows rich in pairs, and Player Pair returns over
    100% (an edge)."""
    for number in range(1, rounds + 1):
        p1, b1, p2, b2, p3, b3 = TENS[6 * (number - 1) : 6 * number]
        body = {"round": number, "player": [p1, p2, p3], "banker": [b1, b2, b3]}
        answer = client.post(f"/v1/tables/{table}/shoes/s1/rounds", json=body, headers=AUTH)
        assert answer.status_code == 201, answer.json


def edge_of(client, **headers):
    tiles = client.get("/v1/tables", headers=headers).json["tables"]
    return {tile["table"]: tile["edge"] for tile in tiles}["edgy"]


def test_the_odds_need_a_read_key(gated):
    deal_pairs(gated, rounds=2)
    refused = gated.get("/v1/tables/edgy/odds")
    assert refused.status_code == 401 and "read key" in refused.json["message"]
    assert gated.get("/v1/tables/edgy/odds", headers={"X-API-Key": "wrong"}).status_code == 401
    assert gated.get("/v1/tables/edgy/odds", headers={"X-API-Key": READ_KEY}).status_code == 200
    assert gated.get("/v1/tables/edgy/odds", headers={"X-API-Key": KEY}).status_code == 200


def test_tiles_show_the_edge_flags_only_with_a_read_key(gated):
    deal_pairs(gated)
    assert edge_of(gated) == {}
    assert "player_pair" in edge_of(gated, **{"X-API-Key": READ_KEY})
    assert edge_of(gated) == {}  # the keyed answer is not served to the next keyless reader


def test_the_lobby_feed_hides_edge_events_and_flags_without_a_key(gated):
    deal_pairs(gated)
    plain = read_all(gated, "/v1/events?frames=0&last_event_id=0")
    keyed = read_all(gated, f"/v1/events?frames=0&last_event_id=0&key={READ_KEY}")
    assert "event: edge" in keyed and '"player_pair"' in keyed
    assert "event: edge" not in plain and '"player_pair"' not in plain
    # The same events, by id: a client without the key misses none of the others.
    assert ids(plain) == ids(keyed)


def test_a_tables_events_carry_the_odds_only_with_a_key(gated):
    deal_pairs(gated, rounds=3)
    plain = read_all(gated, "/v1/events?tables=edgy&last_event_id=0")
    keyed = read_all(gated, f"/v1/events?tables=edgy&last_event_id=0&key={READ_KEY}")
    assert keyed.count('"odds":') == 3 and '"rtp":' in keyed
    assert '"odds":' not in plain and '"rtp":' not in plain
    assert ids(plain) == ids(keyed)


def test_public_odds_show_to_everyone(backend, redis_client):
    client = make_app(backend.url, public_odds=True).test_client()
    deal_pairs(client)
    assert client.get("/v1/tables/edgy/odds").status_code == 200
    assert "player_pair" in edge_of(client)


def read_all(client, url: str) -> str:
    """The backlog a new client gets (the stream read until its first heartbeat)."""
    stream = client.get(url, buffered=False)
    text = ""
    for chunk in stream.response:
        text += chunk.decode()
        if ": heartbeat" in text or text.count("\n\n") > 200:
            break
    stream.close()
    return text


def ids(text: str) -> list[str]:
    return [line[4:] for line in text.splitlines() if line.startswith("id: ")]


# -- named, scoped keys (api.http.keyring) ------------------------------------------------------

SCOPED = "studio-a-secret-0001"
LOBBY, OPS = "lobby-secret-0002", "ops-secret-000003"
KEY_FILE = f"""
studio-a   ingest    {SCOPED}      studio-a-*
lobby      read      {LOBBY}
ops        operator  {OPS}
"""


@pytest.fixture
def scoped(backend, redis_client, tmp_path):
    path = tmp_path / "keys"
    path.write_text(KEY_FILE)
    # The streams' backlog is read up to their first heartbeat (read_all): a short one, as gated's.
    app = make_app(backend.url, public_odds=False, key_file=str(path), sse_heartbeat=0.3)
    services = app.extensions["roads"]
    services.rounds.clock = services.tables.clock = clock(True)  # the record's log on
    return app


def write_routes(table: str) -> list[tuple[str, str, dict | None]]:
    """Every write route, for ``table``: method, path, body."""
    shoe = f"/v1/tables/{table}/shoes/s1"
    return [
        ("POST", f"{shoe}/rounds", {"round": 1, "result": "B"}),
        ("PUT", f"{shoe}/rounds/1", {"result": "P"}),
        ("POST", f"{shoe}/rounds/1/void", None),
        ("PUT", f"/v1/tables/{table}", {"name": "Renamed", "variant": "speed"}),
        ("DELETE", f"/v1/tables/{table}", None),
        (
            "POST",
            "/v1/rounds",
            {"rounds": [{"table": table, "shoe": "s1", "round": 1, "result": "B"}]},
        ),
    ]


def test_a_scoped_ingest_key_writes_its_tables_only(scoped, redis_client):
    client = scoped.test_client()
    headers = {"X-API-Key": SCOPED}
    feed(client, "BPB", table="studio-b-1")  # by the unscoped key of the environment
    before = redis_client.xlen(scoped.extensions["roads"].keys.table("studio-b-1").log)
    for method, path, body in write_routes("studio-b-1"):
        answer = client.open(path, method=method, json=body, headers=headers)
        assert answer.status_code == 403, (method, path, answer.json)
        # The table is named; the key's patterns, which say what to aim at, are not.
        assert answer.json["message"] == "this key may not write table studio-b-1"
    log = scoped.extensions["roads"].keys.table("studio-b-1").log
    assert redis_client.xlen(log) == before  # nothing written
    for method, path, body in write_routes("studio-a-1")[:5]:
        answer = client.open(path, method=method, json=body, headers=headers)
        assert answer.status_code == (201 if method == "POST" and "void" not in path else 200)


def test_a_batch_with_a_table_outside_the_scope_is_refused_whole(scoped, redis_client):
    client = scoped.test_client()
    rounds = [
        {"table": "studio-a-1", "shoe": "s1", "round": 1, "result": "B"},
        {"table": "studio-b-2", "shoe": "s1", "round": 1, "result": "B"},
    ]
    answer = client.post("/v1/rounds", json={"rounds": rounds}, headers={"X-API-Key": SCOPED})
    assert answer.status_code == 403 and "studio-b-2" in answer.json["message"]
    assert client.get("/v1/tables/studio-a-1").status_code == 404  # not even its own table


def test_each_logged_write_names_its_key(scoped, redis_client):
    client = scoped.test_client()
    headers = {"X-API-Key": SCOPED}
    for method, path, body in write_routes("studio-a-1")[:5]:
        assert client.open(path, method=method, json=body, headers=headers).status_code < 300
    batch = {"rounds": [{"table": "studio-a-1", "shoe": "s1", "round": 2, "result": "P"}]}
    assert (
        client.post("/v1/rounds", json=batch, headers=headers).json["results"][0]["status"] == 201
    )
    post_round(client, 3, table="studio-a-1", result="T")  # the environment's key, unnamed
    log = scoped.extensions["roads"].keys.table("studio-a-1").log
    entries = [LoggedWrite.decode("studio-a-1", i, f) for i, f in redis_client.xrange(log)]
    assert [(entry.kind, entry.by) for entry in entries] == [
        ("round", "studio-a"),
        ("correction", "studio-a"),
        ("void", "studio-a"),
        ("table", "studio-a"),
        ("retire", "studio-a"),
        ("round", "studio-a"),  # the batch's
        ("round", "ingest-1"),  # a bare secret of ROADS_INGEST_KEYS, named by its place
    ]


def test_keys_of_other_roles_do_not_write_and_query_keys_count_on_streams_alone(scoped):
    client = scoped.test_client()
    for secret in (LOBBY, OPS, "nobody"):
        answer = post_round(client, 1, table="studio-a-1", headers={"X-API-Key": secret})
        assert answer.status_code == 401
    feed(client, "BPB", table="studio-a-1")
    assert client.get("/v1/tables/studio-a-1/odds", headers={"X-API-Key": LOBBY}).status_code == 200
    assert client.get(f"/v1/tables/studio-a-1/odds?key={LOBBY}").status_code == 401
    assert client.get(f"/v1/integrity/drift?key={OPS}").status_code == 401
    assert client.get("/v1/integrity/drift", headers={"X-API-Key": OPS}).status_code == 200
    stream = client.get(f"/v1/integrity/events?key={OPS}", buffered=False)
    assert stream.status_code == 200
    stream.close()
    keyed = read_all(client, f"/v1/events?frames=0&last_event_id=0&key={LOBBY}")
    assert '"odds":' in keyed or "event:" in keyed


def test_the_record_readers_are_read_and_operator_keys_or_everyone(scoped):
    from flask import Flask

    from api.http.auth import require_record_reader

    @require_record_reader
    def view():
        return "read"

    for public, secret, allowed in [
        (False, LOBBY, True),
        (False, OPS, True),
        (False, SCOPED, False),
        (False, "", False),
        (True, "", True),
    ]:
        settings = replace(scoped.extensions["roads.settings"], public_record=public)
        scoped.extensions["roads.settings"] = settings
        with scoped.test_request_context("/", headers={"X-API-Key": secret} if secret else {}):
            if allowed:
                assert view() == "read"
            else:
                with pytest.raises(Exception) as refused:
                    view()
                assert getattr(refused.value, "code", None) == 401
    assert isinstance(scoped, Flask)


def test_the_app_keeps_its_keys_by_name_never_their_secrets(scoped):
    """The app, its services and their transport share one copy of the settings in which the
    environment's keys are names (tests.conftest's KEY is the bare ``ingest-1``)."""
    settings = scoped.extensions["roads.settings"]
    services = scoped.extensions["roads"]
    assert services.settings is settings and services.transport.settings is settings
    assert (settings.ingest_keys, settings.read_keys, settings.operator_keys) == (
        ("ingest-1",),
        (),
        (),
    )
    assert KEY not in str(vars(settings))
    client = scoped.test_client()
    assert post_round(client, 1, table="t1", result="B").status_code == 201  # still KEY's


def test_a_scoped_key_names_pay_tables_but_defines_none(scoped):
    """A pay table's name is the deployment's: a key scoped to some tables may name one the
    deployment has, or send it whole again, but not define a new one (403, nothing written)."""
    client, mine = scoped.test_client(), {"X-API-Key": SCOPED}
    own = {"name": "studio_house", "bets": {"tie": [{"when": {"winner": "tie"}, "pays": 8}]}}
    body = {"name": "A1", "paytable": own}
    refused = client.put("/v1/tables/studio-a-1", json=body, headers=mine)
    assert refused.status_code == 403 and "every table" in refused.json["message"]
    assert client.get("/v1/paytables/studio_house").status_code == 404
    assert client.get("/v1/tables/studio-a-1").status_code == 404
    assert client.put("/v1/tables/studio-a-2", json=body, headers=AUTH).status_code == 200
    assert client.put("/v1/tables/studio-a-1", json=body, headers=mine).status_code == 200
    named = {"name": "A1", "paytable": "studio_house"}
    assert client.put("/v1/tables/studio-a-1", json=named, headers=mine).json["variant"] == (
        "studio_house"
    )
    preset = {"name": "A1", "paytable": "lucky_6", "now": True}
    assert client.put("/v1/tables/studio-a-1", json=preset, headers=mine).status_code == 200
