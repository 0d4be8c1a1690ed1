"""The roads document kept as rounds are added (roads.document) and the small parts worked out once
a state (roads.smallparts), held to the document as it was built whole before they existed: the
same JSON text (keys in the same order, the same types), after any mix of rounds, voids,
corrections, copies, previews and reloads; and a document handed out never changes afterwards.
The reference (tests.roads.reference_document) is the former ``Scorecard.as_dict``."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round, Scorecard
from roads.delta import Tails, round_patch
from roads.simulator import deal_shoe
from tests.roads.reference_document import reference_document, text
from tests.strategies import edited, reported_rounds, tails


def test_a_worked_shoe_s_document_is_the_one_built_whole_after_every_round():
    card = Scorecard()
    for round in deal_shoe(3):
        card.add(round)
        assert text(card.as_dict()) == text(reference_document(card))
        assert text(card.probe()) == text(reference_document(card)["probe"])
        assert text(card.streaks()) == text(reference_document(card)["streaks"])
        assert text(card.stats()) == text(reference_document(card)["stats"])
        assert text(card.next_cells()) == text(reference_document(card)["next_cells"])


def test_a_tie_gives_the_latest_cell_a_new_count_and_leaves_the_document_handed_out_alone():
    card = Scorecard.from_rounds("BBP")
    before = card.as_dict()
    card.add("T")
    after = card.as_dict()
    assert before["big_road"]["columns"][1][0]["ties"] == 0
    assert after["big_road"]["columns"][1][0]["ties"] == 1
    assert len(before["bead_plate"]) == 3 and len(after["bead_plate"]) == 4


def test_the_single_parts_are_their_caller_s_to_change():
    card = Scorecard.from_rounds("BBPPT")
    card.as_dict()
    card.streaks()["big_road"]["current"]["length"] = 99  # as a caller may
    card.stats()["counts"]["tie"] = 99
    card.probe()["B"]["big_eye_boy"] = "green"
    card.next_cells()["B"]["big_road"][0] = 99
    assert text(card.as_dict()) == text(reference_document(card))


def test_a_preview_leaves_the_kept_document_as_it_was():
    card = Scorecard.from_rounds("BPPBB")
    before = text(card.as_dict())
    preview = card.preview("B")
    assert text(preview.as_dict()) == text(reference_document(preview))
    card.add("P")
    assert text(preview.as_dict()) == text(reference_document(preview))
    assert text(card.as_dict()) == text(reference_document(card)) != before


rounds = reported_rounds
steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), rounds),
        st.tuples(st.just("add"), rounds),
        st.tuples(st.just("add"), rounds),
        st.tuples(st.just("read"), st.just(None)),
        st.tuples(st.just("void"), st.integers(1, 60)),
        st.tuples(st.just("replace"), st.integers(1, 60), rounds),
        st.tuples(st.just("copy"), st.booleans()),
        st.tuples(st.just("reload"), st.just(None)),
    ),
    max_size=120,
)


@settings(max_examples=200, deadline=None)
@given(steps, tails)
def test_the_kept_document_is_the_one_built_whole_and_documents_handed_out_never_change(
    steps, tail
):
    card = Scorecard(tail=tail)
    handed: list[tuple[dict, str]] = []
    for step in steps:
        if step[0] == "add":
            card.add(step[1])
        elif step[0] == "read":
            document = card.as_dict()
            handed.append((document, text(document)))
            assert handed[-1][1] == text(reference_document(card))
        elif step[0] == "copy":
            other = card.copy()
            other.add("B")  # the one left behind must not see it
            if step[1]:
                card = other
        else:
            card = edited(card, step)
    assert text(card.as_dict()) == text(reference_document(card))
    for document, then in handed:
        assert text(document) == then


def test_a_document_is_not_built_again_when_only_its_small_parts_moved():
    card = Scorecard.from_rounds(deal_shoe(11)[:40])
    first = card.as_dict()
    card.add(Round("B").voided())
    second = card.as_dict()
    assert second["bead_plate"] is first["bead_plate"]  # nothing grew: shared, never copied
    assert second["stats"]["void_rounds"] == first["stats"]["void_rounds"] + 1
    kept = copy.deepcopy(second)
    card.add("P")
    assert second == kept


def apply_in_place(document, patch):
    """A bare RFC 6902 client for the operations a round's patch holds (``add`` at a list's end,
    ``replace``): it changes ``document`` in place and takes the values as they come, uncopied
    (unlike the jsonpatch library, which copies them)."""
    for operation in patch:
        *parents, last = operation["path"].split("/")[1:]
        target = document
        for token in parents:
            target = target[int(token)] if isinstance(target, list) else target[token]
        if last == "-":
            target.append(operation["value"])
        else:
            target[int(last) if isinstance(target, list) else last] = operation["value"]


def test_patches_applied_in_place_to_a_client_s_own_document_leave_the_scorecard_s_alone():
    card = Scorecard()
    held = copy.deepcopy(card.as_dict())  # the client's own
    handed = []
    for round in [*deal_shoe(9), Round("T"), Round("T"), Round("P")]:
        before = Tails.of(card)
        card.add(round)
        apply_in_place(held, round_patch(before, card, round))
        document = card.as_dict()
        handed.append((document, text(document)))
        assert text(held) == text(document) == text(reference_document(card))
    assert all(text(document) == then for document, then in handed)


def test_a_long_shoe_s_statistics_are_the_ones_built_whole():
    card = Scorecard()
    for index in range(400):  # past the rounds whose percentages are kept ready-made
        card.add("BBPTPBBBBBBBP"[index % 13])
        if index % 37 == 0 or index > 150:
            assert text(card.stats()) == text(reference_document(card)["stats"])
    assert text(card.as_dict()) == text(reference_document(card))


def _kept_lists(card: Scorecard) -> list[int]:
    kept = card._kept
    roads = [*map(id, kept.road_marks), *map(id, kept.road_columns)]
    return [id(kept.beads), id(kept.columns), *roads]


def test_a_dropped_document_costs_no_copy_and_a_held_one_is_copied_away_from():
    # The kept lists grow in place once the document they went out in is gone; while a caller
    # holds it, they are copied before they grow (and the held document stays as it was).
    card = Scorecard.from_rounds("BBPPBPBPBBBPPPBPB")
    card.as_dict()  # dropped at once
    before = _kept_lists(card)
    card.add("B")
    assert _kept_lists(card) == before
    held = card.as_dict()
    then = text(held)
    card.add("P")
    assert set(_kept_lists(card)).isdisjoint(_kept_lists_of(held))
    assert text(held) == then


def _kept_lists_of(document: dict) -> list[int]:
    roads = ("big_eye_boy", "small_road", "cockroach_road")
    return [
        id(document["bead_plate"]),
        id(document["big_road"]["columns"]),
        *(id(document[road]["marks"]) for road in roads),
        *(id(document[road]["columns"]) for road in roads),
    ]


def test_held_counts_the_holders_beside_the_attribute():
    from roads.document import _held

    class Slot:
        __slots__ = ("items",)

    # Each answer is taken before its assert: pytest's rewritten asserts keep what they read.
    slot = Slot()
    slot.items = []
    alone = _held(slot.items)
    other = slot.items
    shared = _held(slot.items)
    del other
    dropped = _held(slot.items)
    assert (alone, shared, dropped) == (False, True, False)


def test_without_a_reference_count_every_lent_list_is_copied(monkeypatch):
    # Where the interpreter keeps no count, a kept document copies what it lent, as it always did.
    import roads.document

    monkeypatch.setattr(roads.document, "_count", None)
    card = Scorecard.from_rounds("BBPPBPBPBBBPPPBPB")
    card.as_dict()  # dropped at once, but nothing can tell
    before = _kept_lists(card)
    card.add("B")
    assert set(_kept_lists(card)).isdisjoint(before)
