"""Where signed checkpoints are kept, apart from PostgreSQL: a :class:`CheckpointStore`.

The embedded default is :class:`JsonLinesStore`, an append-only JSON-lines file
(``checkpoints.jsonl``) in ``ROADS_CHECKPOINT_DIR``: one checkpoint a line, in the order they
were signed, each line written by one ``write`` of a file opened for appending and synced
before the next pass goes on. Another store (an object-store prefix, one object a checkpoint
named by its sequence number) needs only the two methods of the protocol.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Protocol

from roads.chain import canonical_json
from roads.signedheads import malformed

FILE_NAME = "checkpoints.jsonl"
TAIL = 1 << 16  # bytes read from the end at a time to find the last line


class DamagedStore(ValueError):
    """The store's newest entry is not a checkpoint the recorder can chain on (the message
    names what is wrong, never the store's contents)."""


class CheckpointStore(Protocol):
    """Appends signed checkpoints and hands back the newest."""

    def append(self, checkpoint: dict[str, Any]) -> None:
        """Keep ``checkpoint`` after every one before it (raises ``OSError`` when it cannot)."""

    def latest(self) -> dict[str, Any] | None:
        """The newest checkpoint kept, or ``None`` before the first (raises ``OSError`` when the
        store cannot be read, :class:`DamagedStore` when its newest is not shaped as a
        checkpoint)."""


class JsonLinesStore:
    """Checkpoints as the lines of ``DIRECTORY/checkpoints.jsonl`` (see the module doc)."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.path = Path(directory) / FILE_NAME

    def append(self, checkpoint: dict[str, Any]) -> None:
        line = canonical_json(checkpoint) + b"\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)

    def latest(self) -> dict[str, Any] | None:
        """The last whole line, read from the end (the file grows for ever: never read whole)."""
        try:
            with open(self.path, "rb") as file:
                end = file.seek(0, os.SEEK_END)
                tail = b""
                while end > 0:
                    start = max(0, end - TAIL)
                    file.seek(start)
                    tail = file.read(end - start) + tail
                    end = start
                    lines = tail.rstrip(b"\n").split(b"\n")
                    if len(lines) > 1 or start == 0:
                        return _checkpoint(lines[-1].strip())
        except FileNotFoundError:
            return None
        return None


def _checkpoint(line: bytes) -> dict[str, Any] | None:
    if not line:
        return None
    try:
        found = json.loads(line)
    except ValueError:
        raise DamagedStore(f"the last line of {FILE_NAME} is not JSON") from None
    problem = malformed(found)
    if problem:
        raise DamagedStore(f"the last line of {FILE_NAME}: {problem}")
    return found
