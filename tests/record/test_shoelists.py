"""A table's shoe listings kept a few seconds a process: one record read serves every table view
in that time, none is older than that, and what a read raises is never kept."""

from __future__ import annotations

import threading

import pytest

from api.record.shoelists import ShoeListings


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def counted(answers: list):
    """A read that answers each of ``answers`` in turn (raising one that is an exception)."""
    calls = []

    def read():
        calls.append(1)
        answer = answers[len(calls) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer

    return read, calls


def test_a_listing_serves_for_its_seconds_then_is_read_again():
    clock = Clock()
    listings = ShoeListings(seconds=5, clock=clock)
    read, calls = counted([(["s1"], None), (["s2", "s1"], None)])
    assert listings.get("alpha", 20, None, read) == (["s1"], None)
    clock.now = 4.9
    assert listings.get("alpha", 20, None, read) == (["s1"], None)
    assert len(calls) == 1
    clock.now = 5.1
    assert listings.get("alpha", 20, None, read) == (["s2", "s1"], None)
    assert len(calls) == 2


def test_each_table_and_page_size_is_its_own_listing_and_later_pages_are_never_kept():
    listings = ShoeListings(clock=Clock())
    read, calls = counted([1, 2, 3, 4, 5, 6])
    answers = [
        listings.get("alpha", 20, None, read),
        listings.get("bravo", 20, None, read),
        listings.get("alpha", 10, None, read),
        listings.get("alpha", 20, "c1", read),  # a later page: read each time
        listings.get("alpha", 20, "c1", read),
        listings.get("alpha", 50, None, read),  # longer than the lobby's page: read each time
        listings.get("alpha", 20, None, read),
    ]
    assert answers == [1, 2, 3, 4, 5, 6, 1] and len(calls) == 6


def test_views_asking_while_a_listing_is_read_wait_for_it_and_read_nothing():
    listings = ShoeListings(clock=Clock())
    reading, release = threading.Event(), threading.Event()
    calls = []

    def read():
        calls.append(1)
        reading.set()
        release.wait(5)
        return (["s1"], None)

    first = threading.Thread(target=listings.get, args=("alpha", 20, None, read))
    first.start()
    assert reading.wait(5)
    answers = []
    others = [
        threading.Thread(target=lambda: answers.append(listings.get("alpha", 20, None, read)))
        for _ in range(3)
    ]
    for other in others:
        other.start()
    release.set()
    for thread in [first, *others]:
        thread.join(5)
    assert answers == [(["s1"], None)] * 3 and len(calls) == 1


def test_what_a_read_raises_is_not_kept():
    listings = ShoeListings(clock=Clock())
    read, calls = counted([RuntimeError("record busy"), (["s1"], None)])
    with pytest.raises(RuntimeError):
        listings.get("alpha", 20, None, read)
    assert listings.get("alpha", 20, None, read) == (["s1"], None) and len(calls) == 2


def test_at_most_so_many_listings_are_kept():
    listings = ShoeListings(most=2, clock=Clock())
    read, calls = counted(list(range(10)))
    for table in ("a", "b", "c"):
        listings.get(table, 20, None, read)
    listings.get("a", 20, None, read)  # the least recently used left first: read again
    assert len(calls) == 4
