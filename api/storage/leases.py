"""Leases: how one process of the deployment at a time does a job that every process could do
(the GRIP publisher, the frame builder, the frame publisher, the drift evaluator, the recorder).

A lease is a Redis key holding its holder's name, set only while nobody else holds it, with a
TTL the holder renews (:func:`take`, the ``LEASE`` script): a holder that dies is replaced once
its TTL has passed. Each process runs a :class:`Candidate` for the job, a thread of its own
that takes the lease under a name unique to the process and that start (:func:`holder_name`),
and works only while it holds it. Taking a lease answers one of :data:`ELSEWHERE` (another
holds it), :data:`RENEWED` and :data:`TAKEN`: a candidate that has just taken it must not trust
what it knew while it did not hold it (another holder may have moved on meanwhile).
"""

from __future__ import annotations

import os
import threading
import uuid

import redis

from api.storage.luascript import Script
from api.storage.processthread import ProcessThread
from api.storage.transport import Transport

# Called by :func:`take`, and by :func:`take_on` on a connection of its own.
LEASE = Script(__package__, "lease.lua")

# What taking a lease answers.
ELSEWHERE, RENEWED, TAKEN = 0, 1, 2


def take(transport: Transport, lease: str, holder: str, ttl_ms: int) -> int:
    """Take the lease ``lease`` for ``holder``, or renew it, for ``ttl_ms``: :data:`TAKEN`,
    :data:`RENEWED`, or :data:`ELSEWHERE` while another holder has it."""
    return transport.script(LEASE, lease_key=lease, holder=holder, ttl_ms=ttl_ms)


def take_on(client: redis.Redis, lease: str, holder: str, ttl_ms: int) -> int:
    """:func:`take`, on ``client``, a connection of its own (the GRIP publisher's session)."""
    return LEASE.run(client, lease_key=lease, holder=holder, ttl_ms=ttl_ms)


def holder_name() -> str:
    """host:pid:random, unique to this process and this start of its thread."""
    return f"{os.uname().nodename}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Candidate:
    """A process's candidate for a leased job; a subclass does the work in :meth:`_run` while
    :meth:`stopping` is false, and drops in :meth:`forget` what a start must not inherit."""

    def __init__(self, name: str) -> None:
        self.holder = ""
        self._stop = threading.Event()
        self._thread = ProcessThread(self._run, name)
        self._afresh()

    def start(self) -> None:
        """Start this process's thread (once: a second call does nothing)."""
        self._thread.ensure_running(self._afresh)

    def stop(self) -> None:
        self._stop.set()

    def running(self) -> bool:
        """Whether this process's thread was started and has not ended."""
        return self._thread.running()

    def stopping(self) -> bool:
        return self._stop.is_set()

    def forget(self) -> None:
        """Drop what the last holder knew (a subclass's state while it held the lease)."""

    def _afresh(self) -> None:
        self.holder = holder_name()
        self._stop = threading.Event()
        self.forget()

    def _run(self) -> None:
        raise NotImplementedError
