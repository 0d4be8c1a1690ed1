"""gunicorn settings for the roads service (read by ``gunicorn -c gunicorn.conf.py wsgi:app``).

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

Every value can be overridden from the environment (``ROADS_BIND``, ``ROADS_WORKERS``,
``ROADS_WORKER_CONNECTIONS``, ``ROADS_KEEPALIVE``, ``ROADS_NICE`` (a lower CPU priority for the
workers), ``ROADS_WORKER_CLASS``: ``gevent`` for
gunicorn's own gevent worker, or ``gthread`` to run without gevent, with ``ROADS_THREADS``
threads, where each SSE client then holds a thread). With no ``REDIS_URL`` the service runs on an
embedded in-process Redis, which only one process can share: one worker then.
"""

import multiprocessing
import os
import shutil
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

from api.logs import gunicorn_logging  # noqa: E402  (after the metrics directory is set)
from api.metrics import process_exited, remove_orphaned_directories  # noqa: E402

if _metrics_dir is not None:
    remove_orphaned_directories(tempfile.gettempdir(), "roads-metrics-")

bind = os.environ.get("ROADS_BIND", "127.0.0.1:8000")
worker_connections = int(os.environ.get("ROADS_WORKER_CONNECTIONS", "4000"))
threads = int(os.environ.get("ROADS_THREADS", "8"))
_embedded = not (os.environ.get("REDIS_URL") or os.environ.get("ROADS_REDIS_URL"))
workers = 1 if _embedded else int(os.environ.get("ROADS_WORKERS", multiprocessing.cpu_count()))
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
# supervisor that outlives a SIGHUP's re-reading of this file (api.record.supervisor).
_recorder = None
if os.environ.get("ROADS_DATABASE_URL") and not _embedded:
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
    """Start the worker's jobs (api.jobs: the GRIP publishers, the frame builder, the drift
    evaluator, the picture painters, the demo feeder) inside the worker, as it boots (threads do
    not survive the fork); with ``ROADS_NICE``, lower the worker's CPU priority (an instance that
    serves the public, beside an ingest instance on the same host: see docs/operations.md)."""
    nice = int(os.environ.get("ROADS_NICE", "0"))
    if nice:
        os.nice(nice)
    services = worker.wsgi.extensions.get("roads")  # absent in the benchmarks' bare app
    if services is not None:
        from api.jobs import start_jobs

        start_jobs(services, worker.wsgi.extensions.get("roads.demo"))
