"""The feed benchmark's probe: one viewer of the service's lobby frames, in the benchmark's own
process, that keeps the tiles by applying each frame and notes, for each frame's cursor, the
frame's id time and the rounds it brought (each table's ``rounds_played`` it raised). With them,
every viewer's arrival of a frame (noted by cursor, :mod:`benchmarks.sse_load`) gives the
staleness of each change it carried: arrival - the change's commit (the dealer's POST).
"""

from __future__ import annotations

import http.client
import json
import threading
from typing import NamedTuple

from api.codecs.frames import apply


class Seen(NamedTuple):
    id_ms: int  # the frame's id time: when it was added to the frames stream
    rounds: list[tuple[str, int]]  # (table, round) the frame brought


class Probe:
    """Reads ``/v1/events`` on ``port`` in a thread (:meth:`start`, :meth:`stop`)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.frames: dict[int, Seen] = {}  # cursor -> what that frame held
        self.tiles: dict[str, dict] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)

    def start(self) -> Probe:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _read(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", "/v1/events", headers={"Accept": "text/event-stream"})
        answer = connection.getresponse()
        fields: dict[str, str] = {}
        while not self._stop.is_set():
            line = answer.readline()
            if not line:
                break
            line = line.decode().rstrip("\n")
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
                continue
            if "data" in fields and "id" in fields:
                self._take(fields["id"], fields["data"])
            fields = {}
        connection.close()

    def _take(self, frame_id: str, data: str) -> None:
        frame = json.loads(data)
        before = {table: tile["rounds_played"] for table, tile in self.tiles.items()}
        apply(self.tiles, frame)
        rounds = []
        if not frame.get("full"):
            for table in frame["tables"]:
                tile = self.tiles.get(table)
                if tile is not None:
                    played = tile["rounds_played"]
                    start = before.get(table, 0)
                    rounds += [(table, n) for n in range(start + 1, played + 1)]
        self.frames[frame["cursor"]] = Seen(int(frame_id.split("-")[0]), rounds)
