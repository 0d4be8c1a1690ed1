"""The group commit (api.storage.coalesce): each caller gets its own reply, calls made during a
round trip go together in the next one, an error reaches every caller of its batch."""

import threading

import pytest

from api.storage.coalesce import Coalescer, at_once


class Recorder:
    """A ``send`` that records its batches and can be held in flight until released."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.entered = threading.Semaphore(0)
        self.hold = threading.Event()
        self.hold.set()
        self.fail_on: set[int] = set()

    def __call__(self, items):
        self.batches.append(list(items))
        self.entered.release()
        assert self.hold.wait(10)
        if self.fail_on & set(items):
            raise ConnectionError("lost")
        return [item * 10 for item in items]


def call_in_threads(coalescer: Coalescer, items) -> tuple[dict, list[threading.Thread]]:
    outcomes: dict = {}

    def run(item):
        try:
            outcomes[item] = coalescer.call(item)
        except Exception as error:  # recorded for the assertions
            outcomes[item] = error

    threads = [threading.Thread(target=run, args=(item,)) for item in items]
    for thread in threads:
        thread.start()
    return outcomes, threads


def join(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(10)
        assert not thread.is_alive(), "a caller never got its reply"


def wait_queued(coalescer: Coalescer, count: int) -> None:
    for _ in range(1000):
        if coalescer.waiting >= count:
            return
        threading.Event().wait(0.005)
    raise AssertionError(f"{count} callers never queued")


def one_in_flight() -> tuple[Recorder, Coalescer, dict, list[threading.Thread]]:
    """A coalescer whose first call (item 1) is held in flight."""
    send = Recorder()
    coalescer = Coalescer(send)
    send.hold.clear()
    outcomes, threads = call_in_threads(coalescer, [1])
    assert send.entered.acquire(timeout=10)
    return send, coalescer, outcomes, threads


def test_a_call_alone_goes_at_once_by_itself():
    send = Recorder()
    coalescer = Coalescer(send)
    assert coalescer.call(3) == 30
    assert coalescer.call(4) == 40
    assert send.batches == [[3], [4]]


def test_calls_made_during_a_round_trip_go_together_in_the_next_each_with_its_reply():
    send, coalescer, first, first_threads = one_in_flight()  # 1 is in flight, alone
    waiting, threads = call_in_threads(coalescer, range(2, 12))
    wait_queued(coalescer, 10)
    send.hold.set()
    join(first_threads + threads)
    assert first == {1: 10}
    assert waiting == {item: item * 10 for item in range(2, 12)}
    assert send.batches[0] == [1]
    assert sorted(send.batches[1]) == list(range(2, 12))
    assert len(send.batches) == 2


def test_the_lead_passes_on_so_nobody_waits_behind_more_than_one_round_trip():
    send, coalescer, _, threads = one_in_flight()
    second, second_threads = call_in_threads(coalescer, [2, 3])
    wait_queued(coalescer, 2)
    send.hold.set()
    assert send.entered.acquire(timeout=10)  # [2, 3] went, led by one of them
    join(threads + second_threads)
    send.hold.clear()
    third, third_threads = call_in_threads(coalescer, [4])
    assert send.entered.acquire(timeout=10)  # nothing in flight: 4 leads at once
    send.hold.set()
    join(third_threads)
    assert second == {2: 20, 3: 30} and third == {4: 40}
    assert [sorted(batch) for batch in send.batches] == [[1], [2, 3], [4]]


def test_an_error_reaches_every_caller_of_its_batch_and_no_other():
    send, coalescer, first, threads = one_in_flight()
    send.fail_on = {2}
    failing, failing_threads = call_in_threads(coalescer, [2, 3])
    wait_queued(coalescer, 2)
    send.hold.set()
    join(threads + failing_threads)
    assert first == {1: 10}
    assert all(isinstance(failing[item], ConnectionError) for item in (2, 3))
    send.fail_on = set()
    assert coalescer.call(5) == 50  # the next batch goes on as usual


def test_a_wrong_number_of_replies_is_an_error_not_a_mixup():
    coalescer = Coalescer(lambda items: [])
    with pytest.raises(RuntimeError, match="0 replies to 1 items"):
        coalescer.call(1)
    assert Coalescer(lambda items: [item for item in items]).call(2) == 2


def test_many_callers_at_once_each_get_their_own_reply():
    coalescer = Coalescer(lambda items: [item * 10 for item in items])
    outcomes, threads = call_in_threads(coalescer, range(200))
    join(threads)
    assert outcomes == {item: item * 10 for item in range(200)}


def test_at_once_makes_the_calls_together_and_returns_their_results_in_order():
    together = threading.Barrier(3, timeout=5)  # passes only if all three wait at the same time

    def call(value):
        together.wait()
        return value * 2

    assert at_once([lambda v=v: call(v) for v in (1, 2, 3)]) == [2, 4, 6]
    assert at_once([]) == []


def test_at_once_raises_the_first_error_after_every_call_ended():
    ended = []

    def fails(message):
        ended.append(message)
        raise ValueError(message)

    def slow():
        threading.Event().wait(0.1)
        ended.append("slow")
        return 1

    with pytest.raises(ValueError, match="first"):
        at_once([slow, lambda: fails("first"), lambda: fails("second")])
    assert sorted(ended) == ["first", "second", "slow"]
