"""A process's jobs start from one place (api/jobs.py): which jobs a process has follows its
settings; an app starts none of them when it is made (gunicorn's master makes it, then forks),
and all of them at its first request, once; a view starts none of its own."""

from __future__ import annotations

import pytest

from api.demo import DemoFeeder
from api.jobs import jobs_of, start_jobs
from tests.api_helpers import post_round
from tests.conftest import make_app
from tests.grip_tokens import GRIP_KEY


def test_which_jobs_a_process_has_follows_its_settings(redis_server, redis_client):
    plain = make_app(redis_server.url).extensions["roads"]
    assert jobs_of(plain) == [plain.framer, plain.drift, plain.painters]
    unwatched = make_app(redis_server.url, integrity=False).extensions["roads"]
    assert jobs_of(unwatched) == [unwatched.framer, unwatched.painters]
    fanned = make_app(
        redis_server.url, grip_urls=("http://127.0.0.1:9",), grip_key=GRIP_KEY, integrity=False
    ).extensions["roads"]
    assert jobs_of(fanned) == [
        fanned.publisher,
        fanned.framer,
        fanned.frame_publisher,
        fanned.painters,
    ]
    demo = DemoFeeder(unwatched)
    assert jobs_of(unwatched, demo)[-1] is demo


@pytest.mark.parametrize("first", ["/livez", "/v1/tables", "/v1/events?tables=a"])
def test_an_app_starts_its_jobs_at_its_first_request_not_when_it_is_made(
    redis_server, redis_client, first
):
    app = make_app(
        redis_server.url, grip_urls=("http://127.0.0.1:9",), grip_key=GRIP_KEY, sse_heartbeat=0.1
    )
    services = app.extensions["roads"]
    leased = [services.publisher, services.framer, services.frame_publisher, services.drift]
    assert not any(job.running() for job in leased)  # made: no thread (a fork may follow)
    answer = app.test_client().get(first, buffered=False)
    answer.close()
    assert all(job.running() for job in leased)
    holders = [job.holder for job in leased]
    start_jobs(services)  # again (a worker's hook, the next request): nothing new starts
    assert [job.holder for job in leased] == holders


def test_a_write_with_the_watch_on_finds_the_drift_evaluator_running(redis_server, redis_client):
    app = make_app(redis_server.url)
    assert post_round(app.test_client(), 1, result="B").status_code == 201
    assert app.extensions["roads"].drift.running()
