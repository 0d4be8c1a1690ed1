"""Tables dealt under the preset pay tables (issue 46: the presets as variants), through the API
on real Redis: the odds answer prices the table's own bets exactly as roads does, its limits
may name them, its tile names its variant, and a name no preset has is refused."""

from __future__ import annotations

import pytest

from roads import Scorecard
from roads.odds import odds
from roads.simulator import deal_shoe
from roads.variants import OFFERED
from tests.api_helpers import post_cards
from tests.conftest import AUTH, make_app

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


@pytest.fixture
def app(backend, redis_client):
    return make_app(backend.url, cluster=backend.cluster, public_odds=True)


@pytest.mark.parametrize("variant", ["ez_baccarat", "asian", "lucky_6", "super_6_12"])
def test_a_tables_odds_price_its_presets_bets(client, variant):
    answer = client.put("/v1/tables/p1", json={"name": "P1", "variant": variant}, headers=AUTH)
    assert answer.status_code == 200 and answer.json["variant"] == variant
    rounds = deal_shoe(61)[:12]
    for number, round in enumerate(rounds, start=1):
        post_cards(client, number, round, "p1", "s1")
    found = client.get("/v1/tables/p1/shoes/s1/odds").json
    expected = odds(Scorecard.from_rounds(rounds).cards_left(), variant)
    assert found["variant"] == variant
    assert list(found["rtp"]) == list(OFFERED[variant])
    assert found["rtp"] == expected.rtp and found["favourable"] == expected.favourable


def test_limits_may_name_a_presets_bets_and_the_tile_names_its_variant(client):
    limits = {"table": {"min": 1, "max": 500}, "bets": {"dragon_7": {"min": 1, "max": 25}}}
    body = {"name": "EZ", "variant": "ez_baccarat", "limits": limits}
    assert client.put("/v1/tables/ez", json=body, headers=AUTH).status_code == 200
    post_cards(client, 1, deal_shoe(62)[0], "ez", "s1")
    post_cards(client, 1, deal_shoe(63)[0], "std", "s1")
    tiles = client.get("/v1/tables").json["tables"]
    shown = [tile for tile in tiles if tile["variant"] == "ez_baccarat"]
    assert [tile["table"] for tile in shown] == ["ez"]
    assert shown[0]["limits"]["bets"]["dragon_7"] == {"min": 1, "max": 25}


def test_a_variant_no_preset_has_is_refused(client):
    answer = client.put("/v1/tables/x", json={"name": "X", "variant": "tiger_bay"}, headers=AUTH)
    assert answer.status_code == 400 and "variant" in str(answer.json)
