"""The recorder's supervisor starts a recorder that keeps dying at once ever more slowly (up to a
minute), and one that had been running again after a second."""

from api.record.supervisor import FIRST_WAIT, LONGEST_WAIT, SETTLED_SECONDS, next_wait


def test_a_recorder_that_keeps_dying_at_once_is_started_ever_more_slowly():
    waits, wait = [], FIRST_WAIT / 2
    for _ in range(10):
        wait = next_wait(wait, ran_seconds=0.2)
        waits.append(wait)
    assert waits[:4] == [1.0, 2.0, 4.0, 8.0]
    assert waits[-1] == LONGEST_WAIT and max(waits) == LONGEST_WAIT


def test_a_recorder_that_had_been_running_is_started_again_after_a_second():
    assert next_wait(LONGEST_WAIT, ran_seconds=SETTLED_SECONDS) == FIRST_WAIT
    assert next_wait(FIRST_WAIT / 2, ran_seconds=3600) == FIRST_WAIT
