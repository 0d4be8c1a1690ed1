"""Which round a shoe takes next (roads.shoe): the worked cases, and the rule as a property."""

from hypothesis import given
from hypothesis import strategies as st

from roads import ShoeHead, Verdict, check_append


def test_a_new_shoe_takes_round_one_and_opens():
    head = ShoeHead("s2", 0, "s1")  # s1 is current: s2's first round will close it
    assert head.opens and check_append(head, 1) is Verdict.NEXT


def test_a_new_table_takes_round_one():
    assert check_append(ShoeHead("s1", 0, None), 1) is Verdict.NEXT


def test_the_current_shoe_takes_its_next_round():
    assert check_append(ShoeHead("s1", 4, "s1"), 5) is Verdict.NEXT


def test_a_round_already_held_is_a_repeat():
    head = ShoeHead("s1", 4, "s1")
    assert check_append(head, 4) is Verdict.REPEAT
    assert check_append(head, 1) is Verdict.REPEAT


def test_a_round_past_the_next_is_a_gap():
    assert check_append(ShoeHead("s1", 4, "s1"), 6) is Verdict.GAP
    assert check_append(ShoeHead("s1", 0, None), 2) is Verdict.GAP


def test_a_shoe_another_one_replaced_is_closed():
    assert check_append(ShoeHead("s1", 4, "s2"), 5) is Verdict.CLOSED
    # ... but what it holds is still a repeat (a late retry gets its answer).
    assert check_append(ShoeHead("s1", 4, "s2"), 3) is Verdict.REPEAT


shoes = st.sampled_from(["s1", "s2", "s3"])


@given(shoes, st.integers(0, 90), st.one_of(st.none(), shoes), st.integers(1, 100))
def test_next_is_exactly_the_following_round_of_a_shoe_that_may_take_it(
    shoe, count, current, number
):
    verdict = check_append(ShoeHead(shoe, count, current), number)
    may_take = count == 0 or current in (None, shoe)
    assert (verdict is Verdict.NEXT) == (number == count + 1 and may_take)
    assert (verdict is Verdict.REPEAT) == (number <= count)
    assert (verdict is Verdict.GAP) == (number > count + 1)
