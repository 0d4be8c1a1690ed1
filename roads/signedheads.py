"""An export checked against signed checkpoints (``roads-checkpoint/1``, :mod:`roads.chain`):
what ``python -m roads.verify FILE --checkpoint CP --public-key KEY`` does after the chain.

A chain that holds proves only that no line was changed *without* the lines after it: whoever
can write the database can recompute a shoe and every later hash. A checkpoint signed by a key
the database never sees states a shoe's head; the export must reach it: the line whose ``hash``
is the signed ``head`` is in the export, its ``number`` the signed one, at the signed position
(``writes``). A shoe rewritten after a checkpoint signed its head fails here, by name.

``CP`` is a store's JSON-lines file (every checkpoint, in order) or one checkpoint (as ``GET
/v1/checkpoints/latest`` answers). The file is trusted for nothing: its ``seq`` must run 1, 2,
... n with no gap or repeat and each ``prev`` must be the hash of the checkpoint before it (the
first's 64 zeros), so a checkpoint deleted, reordered, inserted or cut from the file's head is
refused, by its ``seq``; a copy that starts later is checked only when told (``partial``), and
then proves nothing of the checkpoints before it. Checkpoints cut from the file's *end* leave a
whole sequence: only a checkpoint known apart from the file (:func:`reaches`) shows them. Every
checkpoint signed by a given key must verify; one signed by another key is set aside, never
trusted (it keeps its place in the sequence). The public key is PEM (SubjectPublicKeyInfo, as
``python -m api.record.checkpoints keygen`` writes it). ``cryptography`` is imported here, on
use, and by nothing else of :mod:`roads`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roads.chain import CHECKPOINT_FORMAT, GENESIS, checkpoint_bytes, checkpoint_hash

HEX64 = re.compile(r"[0-9a-f]{64}")


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


def key_id(public: Any) -> str:
    """An Ed25519 public key's id, as checkpoints state it: the first 16 hex digits of SHA-256
    of its raw 32 bytes (the signer and the verifier both call this)."""
    from cryptography.hazmat.primitives import serialization

    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


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
        keys[key_id(key)] = key
    return keys


def malformed(checkpoint: Any) -> str:
    """Why ``checkpoint`` is not shaped as a ``roads-checkpoint/1`` (``""`` when it is): its
    fields only, not its signature (:func:`signature_holds`)."""
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != CHECKPOINT_FORMAT:
        return f"not a {CHECKPOINT_FORMAT}"
    seq, prev = checkpoint.get("seq"), checkpoint.get("prev")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return "its seq is not a whole number from 1"
    if not isinstance(prev, str) or not HEX64.fullmatch(prev):
        return "its prev is not 64 hex digits"
    if not isinstance(checkpoint.get("key"), str) or not isinstance(checkpoint.get("sig"), str):
        return "it has no key id or no signature"
    heads = checkpoint.get("heads")
    if not isinstance(heads, list) or not all(isinstance(h, dict) for h in heads):
        return "its heads are not a list of objects"
    if not all(_head_shaped(head) for head in heads):
        return "a head is not {table, shoe, head, number[, writes]} of the right kinds"
    return ""


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _head_shaped(head: dict) -> bool:
    """A signed head: text ``table``, ``shoe`` and ``head``, a whole ``number``, and ``writes``
    whole when present (a table's own chain has none)."""
    texts = all(isinstance(head.get(name), str) for name in ("table", "shoe", "head"))
    return texts and _whole(head.get("number")) and ("writes" not in head or _whole(head["writes"]))


def signature_holds(checkpoint: dict[str, Any], key: Any) -> bool:
    """Whether ``key`` (an Ed25519 public key) signed ``checkpoint``'s signed bytes."""
    from cryptography.exceptions import InvalidSignature

    try:
        key.verify(
            base64.b64decode(checkpoint.get("sig", ""), validate=True),
            checkpoint_bytes(checkpoint),
        )
    except (InvalidSignature, binascii.Error, TypeError, ValueError):
        return False
    return True


def checkpoints_of(text: str) -> list[dict[str, Any]]:
    """The checkpoints of a file: one JSON object, or one a line, each shaped as a checkpoint."""
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    parsed: list[tuple[int, Any]] = []
    if isinstance(whole, dict):
        parsed.append((1, whole))
    else:
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                parsed.append((number, json.loads(line)))
            except ValueError:
                raise BadCheckpoint(f"checkpoint line {number} is not JSON") from None
    if not parsed:
        raise BadCheckpoint("the checkpoint file holds no checkpoint")
    for number, checkpoint in parsed:
        problem = malformed(checkpoint)
        if problem:
            raise BadCheckpoint(f"checkpoint line {number}: {problem}")
    return [checkpoint for _, checkpoint in parsed]


def trusted(
    checkpoints: list[dict[str, Any]], keys: dict[str, Any], *, partial: bool = False
) -> tuple[list[dict], str]:
    """The checkpoints signed by one of ``keys`` (each signature checked), and a problem (``""``
    when none). The file is a store's whole sequence: ``seq`` 1, 2, ... n with no gap or
    repeat, the first's ``prev`` 64 zeros and every other's the hash of the one before it
    (one signed by a key not given is set aside, never trusted, but keeps its place in the
    sequence). ``partial``: a copy may start at any ``seq`` k, its first ``prev`` taken as given
    (then nothing is proved of checkpoints before k)."""
    good: list[dict] = []
    before: dict | None = None
    for at, checkpoint in enumerate(checkpoints):
        seq = checkpoint["seq"]
        key = keys.get(checkpoint["key"])
        if key is not None and not signature_holds(checkpoint, key):
            return good, f"checkpoint {seq}: its signature does not verify (altered or forged)"
        later = {c["seq"] for c in checkpoints[at + 1 :]}
        problem = _out_of_place(checkpoint, before, partial, later)
        if problem:
            return good, problem
        if key is not None:
            good.append(checkpoint)
        before = checkpoint
    return good, ""


def _out_of_place(
    checkpoint: dict[str, Any], before: dict | None, partial: bool, later: set[int]
) -> str:
    seq = checkpoint["seq"]
    if before is None:
        if partial:
            return ""
        if seq != 1:
            return (
                f"the file starts at checkpoint {seq}, not 1: checkpoint(s) {_span(1, seq - 1)}"
                " missing (the head of the file cut; --partial checks a copy that starts later)"
            )
        if checkpoint["prev"] != GENESIS:
            return "checkpoint 1 does not start a sequence (its prev is not 64 zeros)"
        return ""
    if seq <= before["seq"]:
        return f"checkpoint {seq} comes after checkpoint {before['seq']}: reordered or repeated"
    if seq != before["seq"] + 1:
        missing = before["seq"] + 1
        if missing in later:
            return f"checkpoint {seq} comes before checkpoint {missing}: reordered"
        return f"checkpoint(s) {_span(missing, seq - 1)} missing before checkpoint {seq} (deleted)"
    if checkpoint["prev"] != checkpoint_hash(before):
        return (
            f"checkpoint {seq} does not chain to checkpoint {seq - 1} (prev): one of them was"
            " replaced, altered or inserted"
        )
    return ""


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def reaches(checkpoints: list[dict[str, Any]], latest: Any, keys: dict[str, Any]) -> str:
    """Whether the file holds ``latest``, a checkpoint known apart from it (``GET
    /v1/checkpoints/latest``, a copy kept elsewhere): the one thing that shows checkpoints cut
    from the end of the file. ``""`` when it does; else why not."""
    problem = malformed(latest)
    if problem:
        return f"the latest checkpoint given is {problem}"
    key = keys.get(latest["key"])
    if key is None or not signature_holds(latest, key):
        return "the latest checkpoint given is not signed by a given key"
    seq, last = latest["seq"], checkpoints[-1]["seq"]
    if seq > last:
        return (
            f"the file ends at checkpoint {last}, the latest given is {seq}: checkpoint(s)"
            f" {_span(last + 1, seq)} removed from its end (or the file is an older copy)"
        )
    at = seq - checkpoints[0]["seq"]
    if at < 0 or checkpoint_hash(checkpoints[at]) != checkpoint_hash(latest):
        return f"the file's checkpoint {seq} is not the latest given (replaced, or not in it)"
    return ""


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
