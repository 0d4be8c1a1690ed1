"""The jobs of a process: what runs beside its requests on its own, started from one place,
:func:`start_jobs`, never from a view.

A worker's jobs, each started once per process (a second call does nothing):

- the GRIP publisher of the event stream (``ROADS_GRIP_URL``, :mod:`api.live.publisher`);
- the frame builder (:mod:`api.live.framer`), which stands by until the process serves frames
  (a viewer, or the frame publisher, reads its frame feed);
- the frame publisher (``ROADS_GRIP_URL`` or ``ROADS_NCHAN_URL``, :mod:`api.live.framepublisher`);
- the drift evaluator, with the integrity watch on (:mod:`api.live.drift`);
- the picture painters (``ROADS_RENDERERS``: warmed now, not at the first picture);
- the demo feeder (``ROADS_DEMO``, :mod:`api.demo`).

:func:`stop_jobs` stops them, and the process's readers, where services are dropped in a process
that goes on (the tests' apps).

Every process runs the leased ones (:mod:`api.storage.leases`); one process of the deployment
at a time does each one's work.

Who starts them: under gunicorn its ``post_worker_init``, in each worker (``gunicorn.conf.py``:
the master preloads the app, and a thread it started would not survive the fork); anywhere else
(the tests' client, ``flask run``) the app's first request in the process (:func:`api.create_app`),
which is never served by a process about to fork. The process's readers (the version watch, the
event hub, the frame feed and its broadcaster) are no jobs: each starts when first read, as a
cache does. The recorder is a process of its own (:mod:`api.record.run`), kept by gunicorn's
master from its ``when_ready`` (:mod:`api.record.supervisor`).
"""

from __future__ import annotations

from typing import Protocol

from api.demo import DemoFeeder
from api.services import Services


class Job(Protocol):
    def start(self) -> None:
        """Start the job in this process, unless it runs here already."""

    def stop(self) -> None:
        """Stop the job in this process."""


def jobs_of(services: Services, demo: DemoFeeder | None = None) -> list[Job]:
    """This process's jobs (see the module doc), in the order they start."""
    jobs: list[Job | None] = [
        services.publisher,
        services.framer,
        services.frame_publisher,
        services.drift if services.writer.watch is not None else None,
        services.painters,
        demo,
    ]
    return [job for job in jobs if job is not None]


def start_jobs(services: Services, demo: DemoFeeder | None = None) -> None:
    """Start every job of this process that is not running yet (idempotent: a worker's hook
    and every request may call it)."""
    for job in jobs_of(services, demo):
        job.start()


def stop_jobs(services: Services, demo: DemoFeeder | None = None) -> None:
    """Stop every job of this process, and its readers (the version watch, the event hub, the
    frame feed and its broadcaster): for services dropped in a process that goes on (an app a
    test made). Each reader is a thread woken by every write: readers left running make every
    later write in the process wake them all."""
    for job in jobs_of(services, demo):
        job.stop()
    services.versions.stop()
    services.events.stop()
    services.frames.stop()
    services.broadcaster.drain()
