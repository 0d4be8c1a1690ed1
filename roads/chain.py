"""The record's tamper-evident chain: each recorded write carries
``hash = SHA-256(prev_hash || canonical bytes of the write)``.

The canonical bytes of a write are its JSON object with the keys sorted, no whitespace, text
as UTF-8 (not ``\\u`` escapes), and without its own ``hash`` and ``prev_hash``: any program
that parses a line of an export and prints it again this way gets the bytes that were hashed.
A shoe's writes form one chain in the order they were recorded; the first write of a shoe is
chained to the head of the table's previous shoe (a table's first shoe to :data:`GENESIS`), so
a shoe removed from between two others breaks the next one's first link.

A write recorded with the name of the key that made it carries it as ``by`` (a write recorded
before keys had names has no ``by``, and its canonical bytes are what they were).

A signed checkpoint (``roads-checkpoint/1``, :mod:`roads.verify` checks one) is a JSON object
``{format, seq, at, prev, key, heads, sig}``: its signed bytes are its canonical bytes without
``sig`` (:func:`checkpoint_bytes`), ``sig`` the Ed25519 signature of them in base64, ``prev`` the
SHA-256 (hex) of the previous checkpoint's signed bytes (:data:`GENESIS` before the first), so
checkpoints chain too; ``docs/security.md`` states every field.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "00" * 32  # the prev_hash of a table's first write: 32 zero bytes, in hex
LINK_FIELDS = ("prev_hash", "hash")
CHECKPOINT_FORMAT = "roads-checkpoint/1"
SIGNATURE_FIELD = "sig"


def canonical_json(value: dict[str, Any]) -> bytes:
    """``value`` as canonical JSON: keys sorted, no whitespace, non-ASCII as UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def canonical(write: dict[str, Any]) -> bytes:
    """The bytes of ``write`` that are hashed (its link fields left out)."""
    return canonical_json({key: value for key, value in write.items() if key not in LINK_FIELDS})


def link(prev_hash: str, write: dict[str, Any]) -> str:
    """The hash (hex) of ``write`` chained after ``prev_hash`` (hex)."""
    return hashlib.sha256(bytes.fromhex(prev_hash) + canonical(write)).hexdigest()


def linked(prev_hash: str, write: dict[str, Any]) -> dict[str, Any]:
    """``write`` with its link fields, as a line of an export carries it."""
    return {**write, "prev_hash": prev_hash, "hash": link(prev_hash, write)}


def checkpoint_bytes(checkpoint: dict[str, Any]) -> bytes:
    """The bytes of a checkpoint that its key signs: its canonical JSON without ``sig``."""
    return canonical_json({k: v for k, v in checkpoint.items() if k != SIGNATURE_FIELD})


def checkpoint_hash(checkpoint: dict[str, Any]) -> str:
    """What the next checkpoint's ``prev`` states: SHA-256 (hex) of this one's signed bytes."""
    return hashlib.sha256(checkpoint_bytes(checkpoint)).hexdigest()
