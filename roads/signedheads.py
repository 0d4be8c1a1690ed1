"""An export checked against signed checkpoints (``roads-checkpoint/1``, :mod:`roads.chain`):
what ``python -m roads.verify FILE --checkpoint CP --public-key KEY`` does after the chain.

A chain that holds proves only that no line was changed *without* the lines after it: whoever
can write the database can recompute a shoe and every later hash. A checkpoint signed by a key
the database never sees states a shoe's head; the export must reach it: the line whose ``hash``
is the signed ``head`` is in the export, its ``number`` the signed one, at the signed position
(``writes``). A shoe rewritten after a checkpoint signed its head fails here, by name.

``CP`` is a store's JSON-lines file (every checkpoint, in order) or one checkpoint (as ``GET
/v1/checkpoints/latest`` answers). Every checkpoint signed by a given key must verify, and
consecutive ones (``seq`` one apart) must chain (``prev``); one signed by another key is set
aside, never trusted. The public key is PEM (SubjectPublicKeyInfo, as ``python -m
api.record.checkpoints keygen`` writes it). ``cryptography`` is imported here, on use, and by
nothing else of :mod:`roads`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roads.chain import CHECKPOINT_FORMAT, checkpoint_bytes, checkpoint_hash


class BadCheckpoint(ValueError):
    """A checkpoint file or a public key that cannot be read."""


@dataclass(frozen=True, slots=True)
class Coverage:
    """What the checkpoints say of an export: ``covered`` (signed heads of its shoe checked),
    ``problem`` (why it fails them, naming the shoe; ``""`` when it does not), ``ignored``
    (checkpoints signed by a key not given)."""

    covered: int
    problem: str = ""
    ignored: int = 0

    @property
    def holds(self) -> bool:
        return not self.problem


def public_keys(pems: Iterable[bytes]) -> dict[str, Any]:
    """Ed25519 public keys from PEM files' bytes, by their id (as checkpoints state it)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys: dict[str, Any] = {}
    for pem in pems:
        try:
            key = serialization.load_pem_public_key(pem)
        except (ValueError, TypeError):
            raise BadCheckpoint("the public key is not PEM (SubjectPublicKeyInfo)") from None
        if not isinstance(key, Ed25519PublicKey):
            raise BadCheckpoint("the public key is not an Ed25519 key")
        raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        keys[hashlib.sha256(raw).hexdigest()[:16]] = key
    return keys


def checkpoints_of(text: str) -> list[dict[str, Any]]:
    """The checkpoints of a file: one JSON object, or one a line."""
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            checkpoint = json.loads(line)
        except ValueError:
            raise BadCheckpoint(f"checkpoint line {number} is not JSON") from None
        if not isinstance(checkpoint, dict) or checkpoint.get("format") != CHECKPOINT_FORMAT:
            raise BadCheckpoint(f"checkpoint line {number} is not a {CHECKPOINT_FORMAT}")
        found.append(checkpoint)
    if not found:
        raise BadCheckpoint("the checkpoint file holds no checkpoint")
    return found


def trusted(checkpoints: list[dict[str, Any]], keys: dict[str, Any]) -> tuple[list[dict], str]:
    """The checkpoints signed by one of ``keys`` whose signatures verify, and a problem (``""``
    when none): a signature that does not verify, or two consecutive checkpoints that do not
    chain."""
    from cryptography.exceptions import InvalidSignature

    good: list[dict] = []
    before: dict | None = None
    for checkpoint in checkpoints:
        seq = checkpoint.get("seq")
        if checkpoint.get("format") != CHECKPOINT_FORMAT or not isinstance(seq, int):
            return good, "a checkpoint has no format or seq: not a checkpoint"
        key = keys.get(checkpoint.get("key"))
        if key is not None:
            try:
                key.verify(
                    base64.b64decode(checkpoint.get("sig", ""), validate=True),
                    checkpoint_bytes(checkpoint),
                )
            except (InvalidSignature, binascii.Error, TypeError, ValueError):
                return good, f"checkpoint {seq}: its signature does not verify (altered or forged)"
            good.append(checkpoint)
        follows = before is not None and seq == before["seq"] + 1
        if follows and checkpoint.get("prev") != checkpoint_hash(before):
            return good, f"checkpoint {seq} does not chain to checkpoint {seq - 1} (prev)"
        before = checkpoint
    return good, ""


def against(
    writes: list[tuple[int, dict[str, Any]]], checkpoints: list[dict[str, Any]]
) -> Coverage:
    """Whether the export's writes (its chain already checked) reach every head the (trusted)
    ``checkpoints`` signed for its shoe (see the module doc)."""
    if not writes:
        return Coverage(0)
    first = writes[0][1]
    table, shoe = first.get("table"), first.get("shoe", "")
    at = {write.get("hash"): (place, write) for place, (_, write) in enumerate(writes, 1)}
    covered = 0
    for checkpoint in checkpoints:
        for entry in checkpoint.get("heads", ()):
            if entry.get("table") != table or entry.get("shoe") != shoe:
                continue
            covered += 1
            problem = _reaches(at, entry, len(writes))
            if problem:
                name = f"shoe {shoe} of table {table}"
                return Coverage(covered, f"{name}: checkpoint {checkpoint['seq']} {problem}")
    return Coverage(covered)


def _reaches(at: dict, entry: dict[str, Any], count: int) -> str:
    signed_writes = entry.get("writes")
    found = at.get(entry.get("head"))
    if found is None:
        if isinstance(signed_writes, int) and signed_writes > count:
            return (
                f"signed its head at write {signed_writes}; the export has {count}: writes"
                " were removed (or the export is cut short)"
            )
        return (
            f"signed head {str(entry.get('head'))[:16]}... (write {signed_writes}, log number"
            f" {entry.get('number')}) is not in the export: the shoe was rewritten after it was"
            " signed"
        )
    place, write = found
    if write.get("number") != entry.get("number") or (
        signed_writes is not None and place != signed_writes
    ):
        return (
            f"signed its head as write {signed_writes} (log number {entry.get('number')}); the"
            f" export has it as write {place} (log number {write.get('number')})"
        )
    return ""
