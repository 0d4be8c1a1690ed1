"""gunicorn's settings for the roads service, one door of a deployment (:mod:`api.doors`).

Read by path, as :mod:`api.doors` runs it (``gunicorn -c <site-packages>/api/gunicornconf.py
api.wsgi:app``), or through the repository's ``gunicorn.conf.py``, which executes this file
(``gunicorn -c gunicorn.conf.py wsgi:app``). By path, not as ``-c python:api.gunicornconf``:
importing it as a module would import the ``api`` package, and with it Flask, redis-py and
the rest, before gevent patches them below.

Workers are gevent workers (:class:`api.worker.Worker`: gunicorn's ``gevent_pywsgi`` worker with
an idle timeout). The live event feed (``/v1/events``) holds every lobby client's connection
open, and under gevent an idle client is a parked greenlet (a few KB), not a thread or a
process. gevent's monkey-patching is done here, first, before the app is imported in the master
(``preload_app``), so every socket, lock, queue and background thread the app makes is
cooperative. Everything else the service does is short (Redis round trips, JSON, pictures).

Slow clients: a request's head (line and headers) must arrive within ``ROADS_HEAD_TIMEOUT``
seconds (10) and its body within ``ROADS_BODY_TIMEOUT`` (30) of the head's end, or the connection
closes (a 408 once any of it came); the worker takes both from the app's settings
(:class:`api.config.Settings`, read from the environment), so a slowloris cannot hold the
``worker_connections`` slots. ``ROADS_KEEPALIVE`` bounds the wait for a keep-alive connection's
next request; none of the three bounds an answer (an event stream lasts as long as it lasts).

Which door this master is (``ROADS_DOOR``: ``both``, the default, ``ingest`` or ``public``)
sets its listener, its workers and their priority (:func:`api.doors.door_of`: ``ROADS_BIND``,
``ROADS_WORKERS`` and ``ROADS_NICE`` for the public or the single door, ``ROADS_INGEST_BIND``
and ``ROADS_INGEST_WORKERS`` for the ingest door, always at normal priority), whether it keeps
the recorder's process (the ingest or the single door, unless ``ROADS_RECORDER=0``) and whether
its workers run the jobs (every door but ingest: :mod:`api.doors` says why). Every other value
can be overridden from the environment too (``ROADS_WORKER_CONNECTIONS``, ``ROADS_KEEPALIVE``,
``ROADS_WORKER_CLASS``: ``gevent`` for gunicorn's own gevent worker, or ``gthread`` to run
without gevent, with ``ROADS_THREADS`` threads, where each SSE client then holds a thread).
With no ``REDIS_URL`` the service runs on an embedded in-process Redis, which only one process
can share: one door of one worker then.
"""

import os
import shutil
import sys
import tempfile

worker_class = os.environ.get("ROADS_WORKER_CLASS", "api.worker.Worker")
if worker_class not in ("gthread", "sync"):
    from gevent import monkey

    monkey.patch_all()

# prometheus-client's multiprocess mode: every worker writes its counts to files in a private
# directory, which a scrape adds up. It must be set before anything imports prometheus-client,
# and the master removes it on exit (on_exit). Its name holds the master's pid, so one left by a
# master that could not clean up (killed with SIGKILL) is removed by the next master to start.
# An operator's own PROMETHEUS_MULTIPROC_DIR is kept. gunicorn executes this file again on
# SIGHUP: the directory made the first time is remembered in the environment (ROADS_METRICS_MADE),
# so the master still removes it at exit.
_metrics_dir = os.environ.get("ROADS_METRICS_MADE") or None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _metrics_dir = tempfile.mkdtemp(prefix=f"roads-metrics-{os.getpid()}-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = os.environ["ROADS_METRICS_MADE"] = _metrics_dir

from api.config import ConfigError  # noqa: E402  (after the metrics directory is set)
from api.doors import door_of  # noqa: E402
from api.logs import gunicorn_logging  # noqa: E402
from api.metrics import process_exited, remove_orphaned_directories  # noqa: E402

if _metrics_dir is not None:
    remove_orphaned_directories(tempfile.gettempdir(), "roads-metrics-")

# This master's door: its listener, workers, priority and jobs (a setting it cannot use stops
# the start, naming it).
try:
    _door = door_of(os.environ)
except ConfigError as error:
    if _metrics_dir is not None:
        shutil.rmtree(_metrics_dir, ignore_errors=True)
    sys.exit(f"roads: cannot start: {error}")
bind = _door.bind
workers = _door.workers
worker_connections = int(os.environ.get("ROADS_WORKER_CONNECTIONS", "4000"))
threads = int(os.environ.get("ROADS_THREADS", "8"))
# Import the app (and everything it imports) once in the master; workers fork from it. Redis
# connection pools are made lazily in each worker, never shared across the fork.
preload_app = True
timeout = 30
graceful_timeout = 10
keepalive = int(os.environ.get("ROADS_KEEPALIVE", "5"))  # seconds an idle connection stays
# The access log is the app's own (api.http.traffic: JSON, with route and request id;
# ROADS_ACCESS_LOG=0 turns it off); gunicorn's own lines are JSON too.
accesslog = None
errorlog = "-"
logconfig_dict = gunicorn_logging()
# gunicorn's control socket (gunicornc) is one path per user by default, which instances on one
# host would share (the first to exit removes the others'); nothing here uses it.
control_socket_disable = True


# With ROADS_DATABASE_URL: the recorder in a process of its own beside the workers, kept by a
# supervisor that outlives a SIGHUP's re-reading of this file (api.record.supervisor); once a
# deployment, so in the door that keeps it (the ingest door, or the single one).
_recorder = None
if os.environ.get("ROADS_DATABASE_URL") and _door.recorder:
    from api.record.supervisor import recorder_process

    _recorder = recorder_process()


def when_ready(server):
    """The master's one job: the recorder's process, started once the master is listening (the
    workers' jobs start in each worker: post_worker_init)."""
    if _recorder is not None:
        _recorder.start()


def on_reload(server):
    """On SIGHUP, before the new workers fork: the master reads the key file again, so they and
    any worker forked later start with the keys of the last file that read (a file that no
    longer reads keeps the keys in force: api.http.keyring)."""
    from api.http.keyring import reload_keys

    reload_keys()


def on_exit(server):
    """The recorder stops, and the metrics directory made at start goes with the master (a
    worker exiting keeps it)."""
    if _recorder is not None:
        _recorder.stop()
    if _metrics_dir is not None:
        shutil.rmtree(_metrics_dir, ignore_errors=True)


def worker_exit(server, worker):
    """In the worker, as it ends (a SIGTERM's drain done): the access log's queued lines are
    written, every one (api.accesslog)."""
    from api.accesslog import process_log

    process_log().close()


def child_exit(server, worker):
    """A worker's live gauges (event-stream clients) leave the scrape with it."""
    process_exited(worker.pid)


def post_worker_init(worker):
    """Lower the worker's CPU priority by the door's nice (the public door's 10 by default, so
    that a flood of readers waits behind the ingest door's workers on the same host); then
    start the worker's jobs (api.jobs: the GRIP publishers, the frame builder, the drift
    evaluator, the picture painters, the demo feeder) inside the worker, as it boots (threads do
    not survive the fork), in every door but ingest (api.doors says why)."""
    if _door.nice:
        os.nice(_door.nice)
    services = worker.wsgi.extensions.get("roads")  # absent in the benchmarks' bare app
    if services is not None and _door.jobs:
        from api.jobs import start_jobs

        start_jobs(services, worker.wsgi.extensions.get("roads.demo"))
