"""A Server-Sent Events client over a real socket (http.client), reading in a thread."""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
import time
from urllib.parse import urlsplit


class SSEClient:
    """Reads ``url``'s event stream into ``events`` (dicts: id, event, data) until closed."""

    def __init__(self, url: str, last_event_id: str | None = None) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.connection.request("GET", path, headers=headers)
        # The response takes the socket from the connection when the server will close it.
        self.socket = self.connection.sock
        self.response = self.connection.getresponse()
        self.events: list[dict] = []
        self.bytes_read = 0  # of the event stream (headers and chunk framing aside)
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        fields: dict[str, str] = {}
        try:
            for raw in self.response:
                self.bytes_read += len(raw)
                line = raw.decode().rstrip("\n")
                if line == "":
                    if "data" in fields:
                        self.events.append({**fields, "data": json.loads(fields["data"])})
                    fields = {}
                elif not line.startswith(":") and ": " in line:
                    name, value = line.split(": ", 1)
                    fields[name] = value
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed
            pass
        finally:
            self.ended.set()

    def wait_for(self, count: int, seconds: float = 15.0, kind: set[str] | None = None) -> list:
        """The events so far once ``count`` of them (of ``kind``) came, or after ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not self.ended.is_set():
            if len([e for e in self.events if kind is None or e["event"] in kind]) >= count:
                break
            time.sleep(0.05)
        return list(self.events)

    @property
    def last_id(self) -> str | None:
        with_ids = [e for e in self.events if "id" in e]
        return with_ids[-1]["id"] if with_ids else None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.shutdown(2)
        self.connection.close()
        self.ended.wait(5)


def sse_events(text: str) -> list[dict]:
    """The whole events (``id``, ``event``, ``data`` parsed) in a text/event-stream's text."""
    events = []
    for block in text.split("\n\n")[:-1]:
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields and "id" in fields:
            events.append({**fields, "data": json.loads(fields["data"])})
    return events
