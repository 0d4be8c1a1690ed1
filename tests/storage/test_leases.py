"""Leases (api/storage/leases.py) on the tests' Redis: one holder at a time, renewed by its holder,
taken by another once its TTL has passed; a process's candidate is one thread per process and
start (a second start does nothing), and a child forked from a process that ran it starts its
own (api/storage/processthread.py)."""

from __future__ import annotations

import os
import threading
import time

import pytest

from api.storage.leases import ELSEWHERE, RENEWED, TAKEN, Candidate, holder_name, take
from tests.layer_parts import build_parts

# Also run on a local Redis Cluster (see conftest.py).
pytestmark = pytest.mark.cluster


def test_one_holder_at_a_time_until_its_ttl_passes(backend, redis_client):
    transport = build_parts(backend).transport
    assert take(transport, "{lobby}:job", "a", 200) == TAKEN
    assert take(transport, "{lobby}:job", "a", 200) == RENEWED
    assert take(transport, "{lobby}:job", "b", 200) == ELSEWHERE
    assert 0 < redis_client.pttl("{lobby}:job") <= 200
    time.sleep(0.3)  # a holder that stopped renewing
    assert take(transport, "{lobby}:job", "b", 200) == TAKEN
    assert take(transport, "{lobby}:other", "a", 200) == TAKEN  # each lease its own key


def test_a_holder_name_is_the_process_and_one_start_of_it():
    host, pid, start = holder_name().split(":")
    assert host == os.uname().nodename and pid == str(os.getpid()) and start
    assert holder_name() != holder_name()


class Counter(Candidate):
    """A candidate whose work is counting passes, until it is stopped."""

    def __init__(self) -> None:
        self.passes = 0
        self.forgotten = 0
        self.started = threading.Event()
        super().__init__("counter")

    def forget(self) -> None:
        self.forgotten += 1

    def _run(self) -> None:
        self.started.set()
        while not self.stopping():
            self.passes += 1
            self._stop.wait(0.01)


def test_a_candidate_runs_one_thread_a_process_under_one_name_a_start():
    candidate = Counter()
    made_as = candidate.holder
    assert not candidate.running() and candidate.forgotten == 1
    candidate.start()
    assert candidate.started.wait(2) and candidate.running()
    started_as = candidate.holder
    assert started_as != made_as and candidate.forgotten == 2  # a start forgets the last holder
    candidate.start()  # again: nothing new
    assert candidate.holder == started_as and candidate.forgotten == 2
    candidate.stop()
    deadline = time.monotonic() + 2
    while candidate.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not candidate.running() and candidate.stopping()


def test_a_child_forked_after_a_start_starts_its_own_thread():
    candidate = Counter()
    candidate.start()
    assert candidate.started.wait(2)
    pid = os.fork()
    if pid == 0:  # the child: the thread did not survive the fork, and starts again here
        ok = not candidate.running()
        candidate.started.clear()
        candidate.start()
        ok = ok and candidate.started.wait(2) and candidate.running()
        ok = ok and candidate.holder.split(":")[1] == str(os.getpid())
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    candidate.stop()
    assert os.waitstatus_to_exitcode(status) == 0
