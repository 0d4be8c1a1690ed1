"""Calls that many requests of one process make at once, sent together (group commit).

Every write, every cache look-up and, on Redis Cluster, every lobby step is a round trip to one
Redis node. Under load a worker has many of them waiting on one node at once; a
:class:`Coalescer` (one per node, see :mod:`api.storage.transport`) sends all the items waiting
when it is free in one pipeline, and each caller gets the reply to its own item. Nobody waits
for a timer: a call made while nothing is in flight goes at once, alone; calls made during a
round trip go together in the next one.

Who sends: the first caller while nothing is in flight leads. A leader sends one batch (its own
item and whatever queued before it) and then passes the lead to the oldest caller still
waiting, whose item heads the next batch; so every caller waits for at most the round trip in
flight and its own, however long the queue stays full.

A request that writes to several nodes (a batch of rounds of tables all over a Redis Cluster)
sends to them all at once with :func:`at_once`: its wait is then the slowest node's round trip,
not the sum of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def at_once(calls: Sequence[Callable[[], Result]]) -> list[Result]:
    """The results of ``calls``, made at the same time: each but the first in a thread of its
    own (a greenlet under gevent), the first in the caller's. If any raises, the first error (in
    the order of ``calls``) is raised once every call has ended."""
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException | None] = [None] * len(calls)

    def run(position: int) -> None:
        try:
            results[position] = calls[position]()
        except BaseException as error:  # handed to the caller below
            errors[position] = error

    threads = [threading.Thread(target=run, args=(position,)) for position in range(1, len(calls))]
    for thread in threads:
        thread.start()
    if calls:
        run(0)
    for thread in threads:
        thread.join()
    for error in errors:
        if error is not None:
            raise error
    return results


class _Ticket(Generic[Item]):
    """One caller's item, and then its reply (or error), or the lead."""

    __slots__ = ("error", "item", "lead", "ready", "reply")

    def __init__(self, item: Item) -> None:
        self.item = item
        self.ready = threading.Event()
        self.lead = False
        self.reply: Any = None
        self.error: BaseException | None = None


class Coalescer(Generic[Item]):
    """Runs ``send`` on batches of the items that callers of :meth:`call` pass, in the order they
    came. ``send`` returns one reply per item, in order; an exception it raises is raised to
    every caller of that batch (an interruption of the leader's call, the process ending, too).
    """

    def __init__(self, send: Callable[[Sequence[Item]], Sequence[Any]]) -> None:
        self._send = send
        self._lock = threading.Lock()
        self._waiting: list[_Ticket[Item]] = []
        self._busy = False  # a leader is sending, or has been named

    @property
    def waiting(self) -> int:
        """How many calls wait for the next batch."""
        with self._lock:
            return len(self._waiting)

    def call(self, item: Item) -> Any:
        """Send ``item`` (with whatever else is waiting) and return its reply."""
        ticket = _Ticket(item)
        with self._lock:
            self._waiting.append(ticket)
            ticket.lead = not self._busy
            self._busy = True
        if not ticket.lead:
            ticket.ready.wait()
        if ticket.lead:
            self._lead()
        if ticket.error is not None:
            raise ticket.error
        return ticket.reply

    def _lead(self) -> None:
        with self._lock:
            batch, self._waiting = self._waiting, []
        try:
            replies = list(self._send([ticket.item for ticket in batch]))
            if len(replies) != len(batch):
                raise RuntimeError(f"{len(replies)} replies to {len(batch)} items")
            for ticket, reply in zip(batch, replies, strict=True):
                ticket.reply = reply
        except BaseException as error:  # every caller of the batch gets it
            for ticket in batch:
                ticket.error = error
        finally:
            with self._lock:
                following = self._waiting[0] if self._waiting else None
                if following is None:
                    self._busy = False
                else:
                    following.lead = True
            for ticket in batch:
                ticket.lead = False
                ticket.ready.set()
            if following is not None:
                following.ready.set()
