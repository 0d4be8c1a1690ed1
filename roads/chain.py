"""The record's tamper-evident chain: each recorded write carries
``hash = SHA-256(prev_hash || canonical bytes of the write)``.

The canonical bytes of a write are its JSON object with the keys sorted, no whitespace, text
as UTF-8 (not ``\\u`` escapes), and without its own ``hash`` and ``prev_hash``: any program
that parses a line of an export and prints it again this way gets the bytes that were hashed.
A shoe's writes form one chain in the order they were recorded; the first write of a shoe is
chained to the head of the table's previous shoe (a table's first shoe to :data:`GENESIS`), so
a shoe removed from between two others breaks the next one's first link.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "00" * 32  # the prev_hash of a table's first write: 32 zero bytes, in hex
LINK_FIELDS = ("prev_hash", "hash")


def canonical(write: dict[str, Any]) -> bytes:
    """The bytes of ``write`` that are hashed (its link fields left out)."""
    body = {key: value for key, value in write.items() if key not in LINK_FIELDS}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link(prev_hash: str, write: dict[str, Any]) -> str:
    """The hash (hex) of ``write`` chained after ``prev_hash`` (hex)."""
    return hashlib.sha256(bytes.fromhex(prev_hash) + canonical(write)).hexdigest()


def linked(prev_hash: str, write: dict[str, Any]) -> dict[str, Any]:
    """``write`` with its link fields, as a line of an export carries it."""
    return {**write, "prev_hash": prev_hash, "hash": link(prev_hash, write)}
