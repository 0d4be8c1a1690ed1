"""The load benchmark's Redis backend's append-only files: every node's rewritten now, and the
rewrites the nodes have made counted (a rewrite during a run shows in its p99)."""

from __future__ import annotations

import contextlib
import time

from redis.exceptions import ResponseError

from api.config import Settings
from api.storage.clients import connect


@contextlib.contextmanager
def every_node(settings: Settings):
    """A client of each Redis node of the backend (one for a single server), closed after."""
    client = connect(settings)
    try:
        if settings.cluster:
            yield [client.get_redis_connection(node) for node in client.get_nodes()]
        else:
            yield [client]
    finally:
        client.close()


def rewrite_now(settings: Settings) -> None:
    """Have every node rewrite its append-only file now and wait until all are done, so each
    mixed run starts from the same state whatever the runs before it wrote: a rewrite during the
    run is then one that run's own writes caused."""
    with every_node(settings) as nodes:
        for node in nodes:
            try:
                node.bgrewriteaof()
            except ResponseError as error:  # one the writes set off: waited for below
                if "already in progress" not in str(error):
                    raise
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            every = [node.info("persistence") for node in nodes]
            if not any(i["aof_rewrite_in_progress"] or i["aof_rewrite_scheduled"] for i in every):
                return
            time.sleep(0.1)
    raise SystemExit("the append-only file rewrites did not finish in 60 s")


def aof_rewrites(settings: Settings) -> int:
    """How many append-only file rewrites the backend's nodes have made, all in all. A rewrite
    forks Redis and writes the whole dataset: on this 2-core machine it takes CPU from the
    service for a moment, which shows in the run's p99."""
    with every_node(settings) as nodes:
        return sum(node.info("persistence")["aof_rewrites"] for node in nodes)
