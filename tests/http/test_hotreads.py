"""The hottest reads answered before Flask (api/http/hotreads.py): the same request at the
shoe's same version gets the app's own answer again, byte for byte, every header included,
without the app; anything else goes through the app."""

from __future__ import annotations

import itertools

import pytest
import redis
from flask import request, request_started

from tests.api_helpers import feed, post_round
from tests.conftest import make_app

ORIGIN = "https://lobby.example"
READS = [
    "/v1/tables/t1/roads",
    "/v1/tables/t1/shoes/s1/roads",
    "/v1/tables/t1/roads?tail=drop",
    "/v1/tables/t1/roads/big_road.png",
    "/v1/tables/t1/shoes/s1/roads/scorecard.png?theme=dark",
]


@pytest.fixture
def hot(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    app = make_app(redis_server.url, cors_origins=(ORIGIN,))
    through: list[str] = []

    def counted(sender, **extra):
        through.append(request.full_path)

    request_started.connect(counted, app)
    yield app.test_client(), through
    request_started.disconnect(counted, app)


def answer_of(response) -> tuple:
    headers = sorted((k, v) for k, v in response.headers.items() if k != "X-Request-ID")
    return response.status, headers, response.get_data()


def test_the_same_request_again_is_the_apps_answer_byte_for_byte_without_the_app(hot):
    client, through = hot
    feed(client, "BPPBBBPT")
    etags = {path: client.get(path).headers["ETag"] for path in READS}
    variants = itertools.product(
        READS, ("", "gzip", "br"), (None, ORIGIN, "https://elsewhere.example"), (False, True)
    )
    for path, encoding, origin, holding in variants:
        headers = {"Accept-Encoding": encoding}
        if origin:
            headers["Origin"] = origin
        if holding:
            headers["If-None-Match"] = etags[path]
        first = client.get(path, headers=headers)
        assert first.status_code == (304 if holding else 200), (path, headers)
        before = len(through)
        again = client.get(path, headers={**headers, "X-Request-ID": "again-1"})
        assert len(through) == before, f"{path} {headers}: answered by the app again"
        assert answer_of(again) == answer_of(first)
        assert again.headers["X-Request-ID"] == "again-1"


def test_a_new_round_goes_through_the_app_and_its_answer_is_new(hot):
    client, through = hot
    feed(client, "BPB")
    first = client.get("/v1/tables/t1/roads")
    client.get("/v1/tables/t1/roads")
    assert post_round(client, 4, result="P").status_code == 201
    before = len(through)
    after = client.get("/v1/tables/t1/roads")
    assert len(through) == before + 1
    assert after.json["version"] == 4 and after.headers["ETag"] != first.headers["ETag"]


def test_a_new_shoe_goes_through_the_app(hot):
    client, through = hot
    feed(client, "BPB")
    client.get("/v1/tables/t1/roads/big_road.png")
    feed(client, "P", shoe="s2")
    before = len(through)
    answer = client.get("/v1/tables/t1/roads/big_road.png")
    assert len(through) == before + 1 and answer.status_code == 200


def test_refusals_and_other_reads_always_go_through_the_app(hot):
    client, through = hot
    feed(client, "BP")
    for path in ("/v1/tables/t1/roads?tail=sideways", "/v1/tables/nowhere/roads", "/v1/tables"):
        for _ in range(2):
            before = len(through)
            client.get(path)
            assert len(through) == before + 1, path
