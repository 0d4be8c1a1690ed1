"""Roads documents as JSON Patch deltas (roads.delta): the worked cases of a round's patch, and
the invariant that patches rebuild the document exactly, applied with an RFC 6902 library."""

import copy
import json

import jsonpatch
from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round, Scorecard
from roads.delta import Tails, diff, replace_all, round_patch
from roads.simulator import deal_shoe
from tests.roads.reference_document import reference_document, text
from tests.strategies import edited, reported_rounds


def canonical(document) -> str:
    return json.dumps(document, sort_keys=True)  # true and 1 stay apart, unlike ==


def applied(document, patch):
    return jsonpatch.apply_patch(document, patch)


def patch_of(results: str, then: str) -> list[dict]:
    card = Scorecard.from_rounds(results)
    before = card.as_dict()
    card.add(then)
    return diff(before, card.as_dict())


def paths(patch, op):
    return [operation["path"] for operation in patch if operation["op"] == op]


def test_a_banker_after_a_banker_adds_a_bead_and_a_cell_at_the_ends():
    patch = patch_of("PB", "B")
    assert "/bead_plate/-" in paths(patch, "add")
    assert "/big_road/columns/1/-" in paths(patch, "add")
    assert "/big_road/columns/-" not in paths(patch, "add")


def test_a_change_of_winner_adds_a_column():
    patch = patch_of("PB", "P")
    assert "/big_road/columns/-" in paths(patch, "add")


def test_a_tie_is_one_replace_of_the_latest_cells_counter():
    patch = patch_of("BPPB", "T")
    big_road = [op for op in patch if op["path"].startswith("/big_road")]
    assert big_road == [{"op": "replace", "path": "/big_road/columns/2/0/ties", "value": 1}]


def test_a_derived_road_gains_at_most_one_mark():
    for seed in (1, 2, 3):
        card = Scorecard()
        before = card.as_dict()
        for round in deal_shoe(seed):
            card.add(round)
            after = card.as_dict()
            patch = diff(before, after)
            for road in ("big_eye_boy", "small_road", "cockroach_road"):
                assert len([p for p in paths(patch, "add") if p == f"/{road}/marks/-"]) <= 1
            # nothing already drawn is drawn again: no list is replaced whole (a next cell is
            # a position, [col, row], not something drawn)
            assert all(
                not isinstance(op.get("value"), list)
                for op in patch
                if op["op"] == "replace" and not op["path"].startswith("/next_cells/")
            )
            before = after


def test_the_patch_shares_nothing_with_the_document_it_applies_to():
    card = Scorecard.from_rounds("BBPT")
    before = card.as_dict()
    kept = copy.deepcopy(before)
    card.add("P")
    patch = diff(before, card.as_dict())
    assert before == kept
    assert canonical(applied(before, patch)) == canonical(card.as_dict())


def test_a_new_shoe_is_one_replace_of_the_root():
    new = Scorecard.from_rounds("P").as_dict()
    assert canonical(
        applied(Scorecard.from_rounds("BBB").as_dict(), replace_all(new))
    ) == canonical(new)


# A shoe's life: rounds dealt, and now and then a void or a correction of an earlier round.
changes = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.sampled_from("BBBPPPT")),
        st.tuples(st.just("void"), st.integers(1, 40)),
        st.tuples(st.just("replace"), st.integers(1, 40), st.sampled_from("BPT")),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(changes, st.sampled_from(["stay", "drop"]))
def test_patches_rebuild_every_version_exactly(steps, tail):
    card = Scorecard(tail=tail)
    held = card.as_dict()  # what a client keeps, by patches alone
    for step in steps:
        if step[0] == "add":
            card.add(step[1])
        elif step[1] > len(card.rounds):
            continue
        elif step[0] == "void":
            card.void(step[1])
        else:
            card.replace(step[1], Round(step[2]))
        served = card.as_dict()
        held = applied(held, diff(held, served))
        assert canonical(held) == canonical(served)


rounds = reported_rounds


@settings(max_examples=150, deadline=None)
@given(st.lists(rounds, max_size=90), st.sampled_from(["stay", "drop"]))
def test_a_rounds_patch_built_from_the_tails_rebuilds_the_document(dealt, tail):
    card = Scorecard(tail=tail)
    held = card.as_dict()
    for round in dealt:
        before = Tails.of(card)
        card.add(round)
        patch = round_patch(before, card, round)
        held = applied(held, patch)
        assert canonical(held) == canonical(card.as_dict())


def test_a_rounds_patch_of_a_simulated_shoe_rebuilds_it_resumed_from_its_state():
    card = Scorecard()
    held = card.as_dict()
    for round in deal_shoe(7):
        card = Scorecard.from_bytes(card.to_bytes())  # as a write finds it: rounds still encoded
        before = Tails.of(card)
        card.add(round)
        held = applied(held, round_patch(before, card, round))
    assert canonical(held) == canonical(card.as_dict())


# The patch of a round as it was made before it was built from the round's growth: the diff of
# the two documents built whole (tests.roads.reference_document). Same operations, same order,
# same values and types: the same JSON text.
shoe_steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), rounds),
        st.tuples(st.just("add"), rounds),
        st.tuples(st.just("add"), rounds),
        st.tuples(st.just("read"), st.none()),
        st.tuples(st.just("reload"), st.none()),
        st.tuples(st.just("void"), st.integers(1, 60)),
        st.tuples(st.just("replace"), st.integers(1, 60), rounds),
    ),
    max_size=120,
)


@settings(max_examples=200, deadline=None)
@given(shoe_steps, st.sampled_from(["stay", "drop"]))
def test_a_rounds_patch_is_the_diff_of_the_documents_built_whole(steps, tail):
    card = Scorecard(tail=tail)
    for step in steps:
        if step[0] == "add":
            reference = reference_document(card)
            before = Tails.of(card)
            card.add(step[1])
            patch = round_patch(before, card, step[1])
            assert text(patch) == text(diff(reference, reference_document(card)))
        elif step[0] == "read":
            card.as_dict()  # the document kept from now on: the patch reuses its growth
        else:
            card = edited(card, step)


def test_a_simulated_shoe_s_patches_are_the_diffs_of_its_documents_built_whole():
    for seed in (5, 6):
        card = Scorecard()
        card.as_dict()
        for round in deal_shoe(seed):
            reference = reference_document(card)
            before = Tails.of(card)
            card.add(round)
            expected = diff(reference, reference_document(card))
            assert text(round_patch(before, card, round)) == text(expected)
