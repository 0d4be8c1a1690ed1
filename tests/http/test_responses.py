"""One contract: the shapes roads/ returns (roads.shapes) are what the response schemas document,
field for field, and what the service serves on its fast paths (pre-serialized, not through the
schemas) is what the schemas would serialize, for real scorecards of simulated shoes."""

import json
import typing

import pytest

from api.codecs.roundfacts import NAMES as FACTS
from api.http import lobbyschemas, responses
from roads import shapes
from roads.simulator import deal_shoe
from tests.api_helpers import post_round
from tests.conftest import AUTH

SHOE_REF = {"table", "shoe", "version"}
# What a round's record keeps besides its report: the cards burned after it with their report
# ids, and the pay table it was priced under.
RECORDED = {"burned", "burn_ids", "paytable"}

PAIRS = [
    (shapes.ScorecardShape, responses.RoadsSchema, SHOE_REF | {"ask"}),
    (shapes.Bead, responses.BeadSchema, set()),
    (shapes.BigRoadCell, responses.BigRoadCellSchema, set()),
    (shapes.BigRoadShape, responses.BigRoadSchema, set()),
    (shapes.Mark, responses.MarkSchema, set()),
    (shapes.DerivedRoadShape, responses.DerivedRoadSchema, set()),
    (shapes.ProbeMarks, responses.ProbeMarksSchema, set()),
    (shapes.Probe, responses.ProbeSchema, set()),
    (shapes.StreakShape, responses.StreakSchema, set()),
    (shapes.RoadStreaks, responses.RoadStreaksSchema, set()),
    (shapes.Streaks, responses.StreaksSchema, set()),
    (shapes.StatsShape, responses.StatsSchema, set()),
    # The record adds the round's number, its shoe's version and its own facts
    # (api.codecs.roundfacts) to what the domain library describes.
    (shapes.RoundShape, responses.RoundRecordSchema, {"round", "version", *RECORDED, *FACTS}),
]


@pytest.mark.parametrize(("shape", "schema", "around"), PAIRS, ids=[p[0].__name__ for p in PAIRS])
def test_every_shape_is_its_schema_field_for_field(shape, schema, around):
    assert set(typing.get_type_hints(shape)) == set(schema().fields) - around


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def served_alike(schema, body: bytes) -> None:
    """The served bytes hold what the schema validates and would serialize, to the byte once
    both are in canonical form (key order aside)."""
    document = json.loads(body)
    assert schema().validate(document) == {}
    assert canonical(schema().dump(document)) == canonical(document)


@pytest.mark.parametrize("seed", [3, 17, 2026])
def test_the_fast_paths_serve_what_the_schemas_would(client, seed):
    for number, round in enumerate(deal_shoe(seed)[:45], start=1):
        cards = {"player": [str(c) for c in round.player_cards]}
        cards["banker"] = [str(c) for c in round.banker_cards]
        answer = post_round(client, number, "t1", f"s{seed}", **cards)
        assert answer.status_code == 201
        served_alike(responses.WriteResultSchema, answer.data)
    shoe = f"/v1/tables/t1/shoes/s{seed}"
    voided = client.post(f"{shoe}/rounds/7/void", headers=AUTH)
    served_alike(responses.WriteResultSchema, voided.data)
    for path, schema in [
        ("/roads", responses.RoadsSchema),
        ("/roads?ask=B", responses.RoadsSchema),
        ("/roads?tail=drop", responses.RoadsSchema),
        ("/stats", responses.StatsResponseSchema),
        ("/probe", responses.ProbeResponseSchema),
        ("/odds", responses.OddsSchema),
        ("/rounds", responses.HistorySchema),
    ]:
        answer = client.get(shoe + path)
        assert answer.status_code == 200, path
        served_alike(schema, answer.data)
    for path, schema in [
        ("/v1/tables", lobbyschemas.TablesSchema),
        ("/v1/tables/t1", responses.TableSchema),
        ("/v1/good-roads", lobbyschemas.GoodRoadsSchema),
        ("/v1/patterns", lobbyschemas.PatternsSchema),
    ]:
        served_alike(schema, client.get(path).data)
