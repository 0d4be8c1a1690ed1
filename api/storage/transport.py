"""One way to run commands on the Redis node that owns a key: every read and write of the storage
layer goes through :class:`Transport`, and nothing above it knows whether it runs on one server
or on a Redis Cluster.

- **Group commit.** Calls made at once to one node share one pipeline (:mod:`.coalesce`): under
  load a worker has several writes in flight, and a round trip's fixed cost in the client is then
  paid once for all of them. A call made while nothing is in flight to that node goes at once.
- **Held links.** Each node's batcher sends on a connection it holds (:class:`.nodelink.NodeLink`),
  not one borrowed from the pool for every pipeline; ``ROADS_TRANSPORT=pipeline`` uses
  redis-py's stock pipelines instead (:class:`.nodelink.PoolLink`).
- **Scripts by SHA.** After a ``NOSCRIPT`` every script is loaded and the pipeline sent again.
- **Replicas.** A write that must reach ``ROADS_WRITE_REPLICAS`` replicas carries ``WAIT`` last,
  on a connection whose timeout outlasts the wait.
- **Fail-over.** On a cluster, a failed round trip makes the client learn the cluster's shape
  again, and a read is made once more through the cluster client's own routing.

:attr:`Transport.hook` is the seam for tests and instruments: when set, every round trip to a
node is handed to it as ``hook(commands, send)``, and what it returns is the replies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

import redis

from api.config import Settings
from api.storage.clients import RedisClients, after_fork
from api.storage.coalesce import Coalescer, at_once
from api.storage.failures import NotReplicated
from api.storage.luascript import SCRIPTS, Script, located
from api.storage.nodelink import Commands, NodeLink, PoolLink

Entry = TypeVar("Entry")
Fill = Callable[[Any], None]  # queues commands on a pipeline
Hook = Callable[[Sequence[tuple[Any, ...]], Callable[[Sequence[tuple[Any, ...]]], list]], list]


class Transport:
    """The service's connection to Redis in this process (clients made on first use, and again
    in a forked child)."""

    def __init__(self, settings: Settings, clients: RedisClients) -> None:
        self.settings = settings
        self.cluster = settings.cluster
        self.hook: Hook | None = None
        self._clients = clients
        self._link = PoolLink if settings.transport == "pipeline" else NodeLink
        self._forget()
        after_fork(self, Transport._forget)

    def _forget(self) -> None:
        self._client: redis.Redis | None = None
        self._blocking: redis.Redis | None = None
        # {(node, wait): the batcher of the pipelines to that node}
        self._batchers: dict[tuple[str, bool], Coalescer] = {}

    @property
    def cross_slot(self) -> bool:
        """Whether one script may touch keys of any slot (one Redis server, not a cluster)."""
        return not self.cluster

    def _plain(self) -> redis.Redis:
        """The client for plain commands (its own routing on a cluster)."""
        if self._client is None:
            self._client = self._clients.plain()
        return self._client

    def blocking_client(self) -> redis.Redis:
        """A client whose socket timeout outlasts blocking reads and ``WAIT`` (per process)."""
        if self._blocking is None:
            self._blocking = self._clients.blocking()
        return self._blocking

    # -- plain commands, routed by the client ------------------------------------------------

    def command(self, *args: Any) -> Any:
        """The reply to one command (shaped by redis-py: ``HGETALL`` a dict, ``HMGET`` a list)."""
        return self._hooked([args], lambda commands: [self._plain().execute_command(*args)])[0]

    def multi(self, commands: Sequence[tuple[Any, ...]], *, atomic: bool = True) -> list:
        """The replies to ``commands`` on one slot, sent together; as one transaction
        (``MULTI``/``EXEC``) when ``atomic``."""

        def send(queued: Sequence[tuple[Any, ...]]) -> list:
            pipe = self._plain().pipeline(transaction=atomic)
            for command in queued:
                pipe.execute_command(*command)
            return pipe.execute()

        return self._hooked(commands, send)

    def script(self, script: Script, **named: Any) -> Any:
        """The reply of ``script`` run alone (loaded first if the server does not know it), its
        keys and arguments by the names its header binds."""
        keys, args = script.call(named)
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        return self._hooked([command], lambda _: [script.run_call(self._plain(), keys, args)])[0]

    def ping(self) -> bool:
        return bool(self.command("PING"))

    def _hooked(
        self, commands: Sequence[tuple[Any, ...]], send: Callable[[Sequence[tuple]], list]
    ) -> list:
        return self.hook(commands, send) if self.hook is not None else send(commands)

    def waiting(self) -> int:
        """How many calls wait behind a round trip in flight, over every node."""
        return sum(batcher.waiting for batcher in list(self._batchers.values()))

    # -- one node ---------------------------------------------------------------------------

    def pipeline(self, slot_key: str, fill: Fill, *, wait: bool = True) -> list:
        """The replies to the commands ``fill`` queues on a pipeline to the master of
        ``slot_key``, shared with whatever else is in flight to that node, with the count of
        ``WAIT`` last when writes must reach replicas (unless not to ``wait``)."""
        client = self._sender(wait)
        node = self._node_of(client, slot_key)
        # Keyed by the node as the client that sends sees it: once that client learns that a
        # master moved, the slot's writes go to a new batcher, with a link to the new master.
        key = (node.name if node else "", wait)
        batcher = self._batchers.get(key)
        if batcher is None:
            link = self._link(client.get_redis_connection(node) if node else client)
            replicas = self.settings.write_replicas if wait else 0
            send = partial(self._send, link=link, replicas=replicas)
            batcher = self._batchers.setdefault(key, Coalescer(send))
        return batcher.call((slot_key, fill))

    def send_one(self, slot_key: str, fill: Fill, routed: Callable[[redis.Redis], Any]) -> Any:
        """The reply to the one command ``fill`` queues (a read, or a cache write): sent like the
        writes but without ``WAIT``. On a cluster, should that fail because the cluster changed
        shape, the command is made once more as ``routed(client)``, through the cluster
        client's own routing, which follows the change."""
        try:
            return self.pipeline(slot_key, fill, wait=False)[0]
        except redis.ConnectionError:
            if not self.cluster:
                raise
            return routed(self._plain())

    def confirm_replicated(self, slot_key: str) -> None:
        """Before answering a repeated write as done: make sure what is stored reached the
        replicas. A marker write on the table's slot is sent and waited for; replication is in
        order, so once a replica has it, it has every earlier write of that master too."""
        wanted = self.settings.write_replicas
        if not wanted:
            return
        replies = self.pipeline(
            slot_key, lambda commands: commands.execute_command("HINCRBY", slot_key, "syncs", 1)
        )
        if replies[-1] < wanted:
            raise NotReplicated(replies[-1], wanted)

    def check_replicated(self, replicas: int) -> None:
        """Raise :class:`NotReplicated` if a write's ``WAIT`` count is short."""
        wanted = self.settings.write_replicas
        if wanted and replicas < wanted:
            raise NotReplicated(replicas, wanted)

    # -- every node -------------------------------------------------------------------------

    def on_each_node(
        self,
        entries: Sequence[Entry],
        slot_key: Callable[[Entry], str],
        fill: Callable[[list[Entry]], Fill],
        *,
        wait: bool = True,
    ) -> list[tuple[list[Entry], list]]:
        """``entries`` grouped by the node that holds each one's ``slot_key``, and for each group
        the replies to what ``fill(group)`` queues on a pipeline to that node: every node's
        pipeline sent at once, so the caller waits for the slowest node, not for each in turn."""
        client = self._sender(wait)
        by_node: dict[str, list[Entry]] = {}
        for entry in entries:
            node = self._node_of(client, slot_key(entry))
            by_node.setdefault(node.name if node else "", []).append(entry)
        groups = list(by_node.values())
        sends = [
            partial(self.pipeline, slot_key(group[0]), fill(group), wait=wait) for group in groups
        ]
        return list(zip(groups, at_once(sends), strict=True))

    def _node_of(self, client: redis.Redis, slot_key: str) -> Any:
        """The Redis Cluster node that holds ``slot_key`` as ``client`` sees it now (``None`` for
        one Redis server). Told by the settings, as the clients are made: redis-py's
        ``RedisCluster`` derives from a ``typing.Protocol``, so an ``isinstance`` against it
        takes Python's slow protocol check, for every command a commit routes."""
        return client.get_node_from_key(slot_key) if self.cluster else None

    # -- sending ----------------------------------------------------------------------------

    def _sender(self, wait: bool) -> redis.Redis:
        """The client the pipelines go through; for those that ``wait`` for replicas (``WAIT``
        counts the writes of its own connection), one whose timeout outlasts the wait."""
        if wait and self.settings.write_replicas:
            return self.blocking_client()
        return self._plain()

    def _send(
        self, calls: Sequence[tuple[str, Fill]], *, link: NodeLink | PoolLink, replicas: int
    ) -> list[list]:
        """One pipeline on ``link`` holding the commands of every call, ``(slot key, fill)``,
        with ``WAIT`` for ``replicas`` last when there are any; each call's replies, the
        ``WAIT`` count last. After a ``NOSCRIPT`` the scripts are loaded and the pipeline is sent
        again, once."""
        commands = Commands()
        counts = []
        for _, fill in calls:
            queued = len(commands)
            fill(commands)
            counts.append(len(commands) - queued)
        if replicas:
            commands.execute_command("WAIT", replicas, self.settings.write_wait_ms)
        try:
            replies = self._round_trip(link, commands.queued)
        except redis.exceptions.NoScriptError:
            for script in SCRIPTS:  # on every master of a cluster
                self._plain().script_load(script.source)
            replies = self._round_trip(link, commands.queued)
        waited = [replies[-1]] if replicas else []
        each, start = [], 0
        for count in counts:
            each.append(replies[start : start + count] + waited)
            start += count
        return each

    def _round_trip(self, link: NodeLink | PoolLink, commands: Sequence[tuple[Any, ...]]) -> list:
        """The replies of one round trip to ``link``'s node; on a cluster, a failure of the node
        makes the clients learn the cluster's shape again."""
        try:
            if self.hook is not None:
                return self.hook(commands, link.execute)
            return link.execute(commands)
        except redis.exceptions.NoScriptError:
            raise
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError) as error:
            if self.cluster:
                for client in (self._client, self._blocking):
                    if client is not None:  # made on first use: the clients in use
                        client.nodes_manager.initialize()
                raise redis.ConnectionError("a Redis Cluster master moved; retry") from None
            if isinstance(error, redis.ResponseError):
                raise located(error) from None  # a script's error names its file and line
            raise


def queue_each(steps: Sequence[Callable[[Any], None]]) -> Callable[[Any], None]:
    """What queues every step, in order, on one pipeline (the transport's ``fill``)."""

    def queue(commands: Any) -> None:
        for step in steps:
            step(commands)

    return queue
