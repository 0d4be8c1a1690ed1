"""What an earlier release left in Redis is never served as this release's (issue 43, item 8):
a lobby tile stored in an older format is made again from its shoe's rounds at once, not at the
table's next round (:mod:`api.storage.tilerebuild`), and an answer another release cached is not
served (:data:`api.storage.keys.RELEASE`). tests/system/test_upgrade.py runs the previous release
itself; these pin the rules on one app and a real Redis."""

from __future__ import annotations

import json

import pytest

from api.codecs.stamps import stamped
from api.codecs.tiles import TILE_FORMAT
from api.http.responses import RoadsSchema
from api.storage.keys import RELEASE, Keyspace
from api.storage.tilerebuild import TileRebuild
from roads import Scorecard
from roads.simulator import deal_shoe
from roads.tileroads import tile_roads
from tests.api_helpers import feed, post_cards
from tests.api_helpers import keys as keys_of

pytestmark = pytest.mark.cluster

LOBBY = Keyspace().lobby


def as_an_earlier_release_stored_it(summary: bytes) -> bytes:
    """A summary as releases before 0.8.0 stored it: no ``format``, no ``roads``."""
    older = json.loads(summary)
    del older["format"], older["roads"]
    return json.dumps(older).encode()


def dealt(client, table: str, count: int, seed: int) -> Scorecard:
    rounds = deal_shoe(seed=seed)[:count]
    for number, round in enumerate(rounds, start=1):
        post_cards(client, number, round, table=table)
    return Scorecard.from_rounds(rounds)


def test_a_tile_an_earlier_release_stored_is_whole_at_the_first_read(client, redis_client):
    scorecard = dealt(client, "t1", 30, seed=3)
    made = redis_client.hget(LOBBY.summaries, "t1")
    assert json.loads(made)["format"] == TILE_FORMAT
    redis_client.hset(LOBBY.summaries, "t1", as_an_earlier_release_stored_it(made))
    seq = int(redis_client.get(LOBBY.seq))

    (tile,) = client.get("/v1/tables").json["tables"]

    assert tile["roads"] == tile_roads(scorecard) and tile["format"] == TILE_FORMAT
    assert redis_client.hget(LOBBY.summaries, "t1") == made  # as the write had made it
    assert int(redis_client.get(LOBBY.seq)) == seq + 1  # answers under the old cursor renewed
    client.get("/v1/tables")
    assert int(redis_client.get(LOBBY.seq)) == seq + 1  # once


def test_good_roads_read_their_tiles_whole_too(client, redis_client):
    feed(client, "BBBBBB")  # a Banker streak since round 1
    made = redis_client.hget(LOBBY.summaries, "t1")
    redis_client.hset(LOBBY.summaries, "t1", as_an_earlier_release_stored_it(made))

    found = client.get("/v1/good-roads?patterns=banker_streak").json["good_roads"]

    assert [item["summary"]["format"] for item in found] == [TILE_FORMAT]
    assert found[0]["summary"]["roads"] == tile_roads(Scorecard.from_rounds("BBBBBB"))
    assert redis_client.hget(LOBBY.summaries, "t1") == made


def test_a_summary_written_since_the_stale_one_was_read_stays(app, client, redis_client):
    dealt(client, "t1", 12, seed=5)
    made = redis_client.hget(LOBBY.summaries, "t1")
    rebuild = app.extensions["roads"].tables.lobby.rebuild
    assert isinstance(rebuild, TileRebuild)
    entry = redis_client.hget(LOBBY.tables, "t1")
    stale = as_an_earlier_release_stored_it(made)
    assert rebuild.rebuild([("t1", entry, stale)], tables=1) == 0  # stale no longer stored
    assert redis_client.hget(LOBBY.summaries, "t1") == made


def test_an_answer_another_release_cached_is_not_served(client, redis_client):
    rounds = deal_shoe(seed=8)[:10]
    for number, round in enumerate(rounds[:9], start=1):
        post_cards(client, number, round)
    assert client.get("/v1/tables/t1/shoes/s1/roads").status_code == 200
    keys = Keyspace().shoe("t1", "s1")
    (ours,) = keys_of(redis_client, keys.info + ":*cache:roads*")
    assert ours.decode().startswith(f"{keys.info}:{RELEASE}:cache:")
    name = ours.decode().split(":cache:", 1)[1]
    post_cards(client, 10, rounds[9])
    version = int(redis_client.hget(keys.info, "version"))
    # where a release before 0.11.0 cached the same answer, at the shoe's version now
    redis_client.set(f"{keys.info}:cache:{name}", stamped(version, b'{"bead_plate": []}'))

    answer = client.get("/v1/tables/t1/shoes/s1/roads").json

    expected = RoadsSchema().dump(Scorecard.from_rounds(rounds).as_dict())
    assert {k: answer[k] for k in expected} == json.loads(json.dumps(expected))
