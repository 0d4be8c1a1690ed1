"""The version channel, subscribed: each process's version watch (:mod:`api.live.versions`)
reads every committed write's version message (:mod:`api.codecs.versionmessage`) through a
:class:`VersionSubscription` of its own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import redis

from api.codecs.versionmessage import VersionMessage

SUBSCRIBED: Literal["subscribed"] = "subscribed"


class VersionSubscription:
    """A subscription to the version channel on a connection of its own."""

    def __init__(self, client: redis.Redis, channel: str) -> None:
        self._pubsub = client.pubsub()
        self._pubsub.subscribe(channel)

    def next(self) -> VersionMessage | Literal["subscribed"] | None:
        """The next message (:data:`SUBSCRIBED` once the subscription is confirmed; ``None``
        for anything else, a health check's answer), waited for however long it takes. A lost
        connection, or :meth:`interrupt`, ends the wait with an error."""
        # timeout=None: wait in the read itself, whatever the client's socket timeout (8.1).
        message = self._pubsub.get_message(timeout=None)
        if message is None:
            return None
        if message["type"] == "subscribe":
            return SUBSCRIBED
        if message["type"] == "message":
            return VersionMessage.decode(message["data"])
        return None

    def interrupt(self) -> None:
        """End a wait in :meth:`next` from another thread."""
        connection = self._pubsub.connection
        if connection is not None:
            connection.disconnect()

    def close(self) -> None:
        self._pubsub.close()


class VersionFeed:
    """Subscriptions to the deployment's version channel (``connect`` makes a client)."""

    def __init__(self, connect: Callable[[], redis.Redis], channel: str) -> None:
        self._connect = connect
        self.channel = channel

    def subscribe(self) -> VersionSubscription:
        return VersionSubscription(self._connect(), self.channel)
