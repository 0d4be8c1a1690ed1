"""The public door refuses writes with a 421 naming the ingest door (api/http/misdirected.py),
before it reads the body or the key; it reads as any door does. The ingest door and a single
door (the default) take writes; the ingest door starts no jobs."""

from __future__ import annotations

import json

import pytest

from api.http.misdirected import MESSAGE
from tests.conftest import AUTH, make_app

ROUND = "/v1/tables/t1/shoes/s1/rounds"
WRITES = [
    ("post", ROUND, {"round": 1, "result": "B"}),
    ("post", "/v1/rounds", {"rounds": [{"table": "t1", "shoe": "s1", "round": 1, "result": "B"}]}),
    ("put", f"{ROUND}/1", {"result": "P"}),
    ("post", f"{ROUND}/1/void", {}),
    ("put", "/v1/tables/t1", {"name": "Table 1"}),
    ("delete", "/v1/tables/t1", None),
    ("patch", "/v1/tables/t1", {}),
]


def door_client(backend, door: str):
    return make_app(backend.url, cluster=backend.cluster, door=door).test_client()


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_the_public_door_answers_a_write_421_naming_the_ingest_door(
    backend, redis_client, method, path, body
):
    client = door_client(backend, "public")
    answer = getattr(client, method)(path, json=body, headers=AUTH)
    assert answer.status_code == 421
    assert answer.json["message"] == MESSAGE
    assert answer.json["status"] == "Misdirected Request" and answer.json["door"] == "public"
    assert answer.json["request_id"] == answer.headers["X-Request-ID"]
    assert "127.0.0.1" not in json.dumps(answer.json) and "localhost" not in json.dumps(answer.json)
    assert redis_client.dbsize() == 0  # nothing written


def test_the_public_door_refuses_before_the_body_or_the_key(backend, redis_client):
    client = door_client(backend, "public")
    # Neither a key nor JSON: the 421 still comes first (not 401, not 415).
    answer = client.post(ROUND, data=b"not json", headers={"Content-Type": "text/plain"})
    assert answer.status_code == 421


def test_the_public_door_reads(backend, redis_client):
    writer = door_client(backend, "ingest")
    assert writer.post(ROUND, json={"round": 1, "result": "B"}, headers=AUTH).status_code == 201
    reader = door_client(backend, "public")
    answer = reader.get(ROUND)
    assert answer.status_code == 200 and answer.json["rounds"][0]["result"] == "B"
    assert reader.get("/v1/tables/t1/roads").status_code == 200


@pytest.mark.parametrize("door", ["ingest", "both"])
def test_the_ingest_and_the_single_door_take_writes(backend, redis_client, door):
    client = door_client(backend, door)
    answer = client.post(ROUND, json={"round": 1, "result": "P"}, headers=AUTH)
    assert answer.status_code == 201, answer.json
    assert client.get(ROUND).json["rounds"][0]["result"] == "P"


def test_the_ingest_door_leaves_the_jobs_to_the_public_door(backend, redis_client):
    """Outside gunicorn a process's jobs start at its first request (api.jobs): never in the
    ingest door (api.doors), which leaves its CPU to the writes."""
    ingest = make_app(backend.url, cluster=backend.cluster, door="ingest")
    answer = ingest.test_client().post(ROUND, json={"round": 1, "result": "B"}, headers=AUTH)
    assert answer.status_code == 201
    assert not ingest.extensions["roads"].drift.running()
    public = make_app(backend.url, cluster=backend.cluster, door="public")
    assert public.test_client().get(ROUND).status_code == 200
    assert public.extensions["roads"].drift.running()
