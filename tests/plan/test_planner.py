"""A write's plan (api.plan.planner), pure: no Redis. Planning round after round equals the
batch scorecard, each plan's road patch turns the document before it into the one after, and a
consumer's event source adds its events to every plan."""

import json

import jsonpatch
import pytest
from hypothesis import given, settings

import api.plan.planner
from api.codecs.feedevents import encode_patch
from api.codecs.lobbyupdate import LobbyUpdate
from api.plan.plan import Base
from api.plan.planner import plan_append, plan_rewrite
from api.plan.roadevents import document, next_version
from roads import RoadsError, Round, Scorecard
from roads.delta import diff, replace_all
from roads.shoe import ShoeHead
from tests.roads.reference_document import reference_document
from tests.strategies import dealt_shoes


def planned(rounds: list[Round]):
    """Every plan of appending ``rounds`` one by one to a new shoe s1 of table t1."""
    scorecard, plans = Scorecard(), []
    for count, round in enumerate(rounds):
        base = Base(ShoeHead("s1", count, "s1" if count else None), count, "standard", scorecard)
        plans.append(plan_append("t1", "s1", count + 1, round, base))
    return plans


@settings(max_examples=30, deadline=None)
@given(dealt_shoes(max_voids=0))
def test_planning_round_after_round_equals_the_batch_and_patches_rebuild_the_document(rounds):
    served = None
    for number, plan in enumerate(planned(rounds), start=1):
        batch = Scorecard.from_rounds(rounds[:number])
        assert plan.state == batch.to_bytes()
        assert plan.version == number and plan.record["round"] == number
        kinds = [kind for kind, _, _ in plan.events]
        assert kinds == (["shoe", "round"] if number == 1 else ["round"])
        patch = json.loads(plan.events[-1][2])
        assert patch["base_version"] == (None if number == 1 else number - 1)
        served = jsonpatch.apply_patch(served or {}, patch["patch"])
        assert served == document("t1", "s1", number, batch)


def test_the_lobby_update_travels_with_the_plan():
    plan = planned([Round("B"), Round("B")])[-1]
    update = LobbyUpdate.decode(plan.lobby.encode())
    summary = json.loads(update.summary)
    assert (summary["shoe"], summary["version"], summary["recent"]) == ("s1", 2, ["B", "B"])
    assert [event[0] for event in update.events] == ["round"]
    assert "big_road=+" in update.runs  # the Banker run grew


def test_a_round_the_shoe_cannot_hold_leaves_its_scorecard_unchanged():
    scorecard = Scorecard.from_rounds([Round.from_cards(["AS", "AS"], ["9H", "KD"])] * 4)
    before = scorecard.to_bytes()
    base = Base(ShoeHead("s1", 4, "s1"), 4, "standard", scorecard)
    with pytest.raises(RoadsError):  # a ninth Ace of Spades
        plan_append("t1", "s1", 5, Round.from_cards(["AS", "2C"], ["9H", "KD"]), base)
    assert scorecard.to_bytes() == before


def test_a_void_is_planned_from_the_shoe_s_rounds():
    rounds = [Round("B"), Round("P"), Round("B")]
    plan = plan_rewrite(
        "void", "t1", "s1", 2, rounds, rounds[1].voided(), version=3, variant="standard"
    )
    assert plan.head is None and plan.base_version == 3 and plan.void
    expected = Scorecard.from_rounds([rounds[0], rounds[1].voided(), rounds[2]])
    assert plan.state == expected.to_bytes()
    ((kind, data, patch),) = plan.events
    assert kind == "void" and data["round"] == 2 and json.loads(patch)["base_version"] == 3


def test_a_consumer_adds_its_events_to_every_plan_with_one_function(monkeypatch):
    def watch(change):
        return [("watch", {"table": change.table, "round": change.number}, "")]

    sources = (*api.plan.planner.EVENT_SOURCES, watch)
    monkeypatch.setattr(api.plan.planner, "EVENT_SOURCES", sources)
    plan = planned([Round("P")])[0]
    assert [kind for kind, _, _ in plan.events] == ["shoe", "round", "watch"]
    assert [kind for kind, _, _ in plan.lobby.events] == ["shoe", "round", "watch"]


@settings(max_examples=20, deadline=None)
@given(dealt_shoes(max_voids=3))
def test_each_round_s_event_is_the_one_built_from_the_documents_built_whole(rounds):
    """The patch JSON of every round event equals, byte for byte, the one made from the diff of
    the two documents built whole (the former way; the odds are the event's own)."""
    reference = None
    for number, plan in enumerate(planned(rounds), start=1):
        batch = Scorecard.from_rounds(rounds[:number])
        after = {"table": "t1", "shoe": "s1", "version": number, **reference_document(batch)}
        kind, _, patch = plan.events[-1]
        odds = json.loads(patch).get("odds")
        if reference is None:
            expected = encode_patch(None, replace_all(after), odds)
        else:
            # the diff starts with the version, which next_version puts first itself
            expected = next_version(number, diff(reference, after)[1:], odds)
        assert (kind, patch) == ("round", expected)
        reference = after
