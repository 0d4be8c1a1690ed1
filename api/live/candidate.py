"""What every deployment-wide job shares (the GRIP publisher, the recorder, the frame builder):
each process runs a candidate, and the candidate holding the job's lease in Redis does the work.
A candidate has a thread of its own, started on first use in each process (again after a fork),
and a holder name unique to that process and start, which is what it takes the lease as."""

from __future__ import annotations

import os
import threading
import uuid

from api.live.reconnecting import ProcessThread


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
