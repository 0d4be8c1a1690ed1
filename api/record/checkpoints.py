"""The record's signed checkpoints: every ``ROADS_CHECKPOINT_SECONDS`` the recorder signs the
chain heads it advanced since its last checkpoint, with an Ed25519 key the database never sees,
and appends the signed checkpoint to a store kept apart from PostgreSQL
(:mod:`api.record.checkpointstore`). Whoever can write the database can rewrite a shoe and every
later head consistently; they cannot sign, so ``python -m roads.verify FILE --checkpoint CP
--public-key KEY`` catches the rewrite of any shoe a checkpoint covers.

A checkpoint (``roads-checkpoint/1``; ``docs/security.md`` states it in full):

- ``format``; ``seq`` (1, 2, ... in its store); ``at`` (UTC, to the millisecond);
- ``prev``: SHA-256 (hex) of the previous checkpoint's signed bytes (:func:`roads.chain.
  checkpoint_hash`; 64 zeros before the first), so checkpoints chain too;
- ``key``: the signing key's id, the first 16 hex digits of SHA-256 of its raw public key;
- ``heads``: each chain head advanced, sorted by table and shoe: ``{table, shoe, head, number}``
  (``number``: the table's log number of the write whose hash ``head`` is) and, for a shoe,
  ``writes`` (the shoe's recorded writes up to that head); the table's own chain has ``shoe``
  ``""``;
- ``sig``: base64 of the Ed25519 signature of the signed bytes (:func:`roads.chain.
  checkpoint_bytes`: the canonical JSON of the rest).

The private key is a file (``ROADS_CHECKPOINT_KEY``): PEM, PKCS8, unencrypted, as ``python -m
api.record.checkpoints keygen PRIVATE PUBLIC`` writes it (the public key beside it as PEM
SubjectPublicKeyInfo, which the verifier reads). No key: no checkpoints (said once in the log).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from api.config import Settings
from api.record.checkpointstore import CheckpointStore, JsonLinesStore
from api.record.ledger import Head, stamp
from roads.chain import CHECKPOINT_FORMAT, GENESIS, checkpoint_bytes, checkpoint_hash

log = logging.getLogger("roads.checkpoints")


class CheckpointKeyError(ValueError):
    """The signing key cannot be read (the message names neither the file's contents nor the
    key)."""


def load_private_key(path: str | os.PathLike) -> Ed25519PrivateKey:
    """The Ed25519 private key in the file at ``path`` (PEM PKCS8, unencrypted)."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CheckpointKeyError(
            f"ROADS_CHECKPOINT_KEY cannot be read ({error.strerror})"
        ) from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise CheckpointKeyError("ROADS_CHECKPOINT_KEY is not a PEM PKCS8 private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointKeyError("ROADS_CHECKPOINT_KEY is not an Ed25519 key")
    return key


def key_id(public: Ed25519PublicKey) -> str:
    """A key's id as checkpoints state it: SHA-256 of its raw 32 bytes, first 16 hex digits."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def head_entry(head: Head) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "table": head.table,
        "shoe": head.shoe,
        "head": head.head,
        "number": head.number,
    }
    if head.writes is not None:
        entry["writes"] = head.writes
    return entry


def signed(
    key: Ed25519PrivateKey,
    heads: Iterable[Head],
    *,
    seq: int,
    prev: str,
    at_ms: int,
) -> dict[str, Any]:
    """A checkpoint of ``heads`` (see the module doc), signed by ``key``."""
    body: dict[str, Any] = {
        "format": CHECKPOINT_FORMAT,
        "seq": seq,
        "at": stamp(at_ms),
        "prev": prev,
        "key": key_id(key.public_key()),
        "heads": [head_entry(h) for h in sorted(heads, key=lambda h: (h.table, h.shoe))],
    }
    signature = key.sign(checkpoint_bytes(body))
    return {**body, "sig": base64.b64encode(signature).decode()}


class Checkpointer:
    """Collects the heads the recorder advanced and signs them when due (the lease holder's
    recorder calls :meth:`advanced` after each committed batch and :meth:`maybe` each pass)."""

    def __init__(
        self, key: Ed25519PrivateKey, store: CheckpointStore, every_seconds: float
    ) -> None:
        self.key = key
        self.store = store
        self.every = every_seconds
        self._pending: dict[tuple[str, str], Head] = {}
        self._last = time.monotonic()
        self._lock = threading.Lock()

    def advanced(self, heads: Iterable[Head]) -> None:
        """Heads a committed batch advanced (a later one of the same chain replaces one)."""
        with self._lock:
            for head in heads:
                self._pending[(head.table, head.shoe)] = head

    def maybe(self, *, now: float | None = None, force: bool = False) -> dict[str, Any] | None:
        """Sign and append a checkpoint when one is due (``force``: now) and a head advanced;
        the checkpoint made, if any. A checkpoint the store refuses keeps its heads pending."""
        now = time.monotonic() if now is None else now
        if not force and now - self._last < self.every:
            return None
        self._last = now
        with self._lock:
            heads, self._pending = self._pending, {}
        if not heads:
            return None
        try:
            latest = self.store.latest()
            seq, prev = (latest["seq"] + 1, checkpoint_hash(latest)) if latest else (1, GENESIS)
            checkpoint = signed(
                self.key, heads.values(), seq=seq, prev=prev, at_ms=int(time.time() * 1000)
            )
            self.store.append(checkpoint)
        except Exception:
            with self._lock:  # signed again, with what came since, at the next pass
                self._pending = {**heads, **self._pending}
            raise
        return checkpoint

    @classmethod
    def of(cls, settings: Settings, store: CheckpointStore | None) -> Checkpointer | None:
        """The settings' checkpointer, or ``None`` (said once in the log) without a key or a
        store, or with a key that cannot be read."""
        if settings.checkpoint_key is None:
            log.info("no ROADS_CHECKPOINT_KEY: the record's heads are not signed")
            return None
        if store is None:
            log.error("ROADS_CHECKPOINT_KEY without ROADS_CHECKPOINT_DIR: no checkpoints made")
            return None
        try:
            key = load_private_key(settings.checkpoint_key)
        except CheckpointKeyError as error:
            log.error("no checkpoints made: %s", error)
            return None
        return cls(key, store, settings.checkpoint_seconds)


def store_of(settings: Settings) -> CheckpointStore | None:
    """The settings' checkpoint store (``ROADS_CHECKPOINT_DIR``), or ``None``."""
    return JsonLinesStore(settings.checkpoint_dir) if settings.checkpoint_dir else None


def keygen(private_path: str, public_path: str) -> None:
    """A new Ed25519 key pair: the private key PEM PKCS8 (mode 0600), the public PEM SPKI."""
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(private)
    Path(public_path).write_bytes(public)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3 or args[0] != "keygen":
        print("usage: python -m api.record.checkpoints keygen PRIVATE PUBLIC", file=sys.stderr)
        return 2
    try:
        keygen(args[1], args[2])
    except FileExistsError:
        print("the private key's file exists already: not overwritten", file=sys.stderr)
        return 1
    print(f"wrote the private key to {args[1]} (keep it off the database host)")
    print(f"wrote the public key to {args[2]} (hand it to whoever verifies exports)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
