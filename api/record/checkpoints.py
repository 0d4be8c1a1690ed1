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
SubjectPublicKeyInfo, which the verifier reads). No key: no checkpoints (said once in the log);
a key set that cannot be used: no recorder (it never records unsigned).

The latest checkpoint is checked before the next is chained on it (:meth:`Checkpointer.
chained_on`); a recorder taking the lease signs, with its first checkpoint, the heads of what
was recorded since the store's latest (:func:`recorded_since`), so heads a killed holder never
signed are not lost.
"""

from __future__ import annotations

import base64
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.config import Settings
from api.record.checkpointstore import CheckpointStore, DamagedStore, JsonLinesStore
from api.record.ledger import Head, stamp
from roads.chain import CHECKPOINT_FORMAT, GENESIS, checkpoint_bytes, checkpoint_hash
from roads.signedheads import key_id, signature_holds

# Heads recorded this long before the store's latest checkpoint was signed are signed again
# when a recorder takes the lease: the database's clock and the signer's may differ, and a
# holder that lost the lease mid-batch may commit after the next one signed. Signing a head
# again is harmless; missing one leaves its shoe uncovered.
CATCH_UP_MARGIN = timedelta(minutes=5)

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
        self.key_id = key_id(key.public_key())
        self.store = store
        self.every = every_seconds
        self._pending: dict[tuple[str, str], Head] = {}
        self._last = time.monotonic()
        self._lock = threading.Lock()
        self._rotated_from: str | None = None

    def advanced(self, heads: Iterable[Head]) -> None:
        """Heads a committed batch advanced: of one chain's, the later write's (greater
        ``number``) is kept; of two of the same write, the one already pending (the heads read
        back from the database by a catch-up never replace those the ledger computed)."""
        with self._lock:
            for head in heads:
                have = self._pending.get((head.table, head.shoe))
                if have is None or head.number > have.number:
                    self._pending[(head.table, head.shoe)] = head

    def maybe(
        self,
        *,
        now: float | None = None,
        force: bool = False,
        catch_up: Callable[[datetime], Iterable[Head]] | None = None,
    ) -> dict[str, Any] | None:
        """Sign and append a checkpoint when one is due (``force``: now) and a head advanced;
        the checkpoint made, if any. ``catch_up``: heads recorded since a time (a new lease
        holder's :func:`recorded_since`), added first, from :meth:`unsigned_since`. A
        checkpoint the store refuses, or a latest one that it cannot chain on
        (:meth:`chained_on`), keeps its heads pending (tried again when next due)."""
        now = time.monotonic() if now is None else now
        if not force and now - self._last < self.every:
            return None
        self._last = now
        if catch_up is not None:
            self.advanced(catch_up(self.unsigned_since()))
        with self._lock:
            heads, self._pending = self._pending, {}
        if not heads:
            return None
        try:
            latest = self.chained_on()
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

    def chained_on(self) -> dict[str, Any] | None:
        """The store's latest checkpoint, once it is fit to chain on: shaped as a checkpoint
        (the store checks) and, when it names this recorder's key, signed by it. One naming
        another key is taken as the last of a rotated key (this key cannot check it; the
        verifier, given both public keys, does), said once in the log. Raises
        :class:`DamagedStore` (or ``OSError``) otherwise: nothing is chained on a line an
        intruder wrote."""
        latest = self.store.latest()
        if latest is None:
            return None
        if latest["key"] == self.key_id:
            if not signature_holds(latest, self.key.public_key()):
                raise DamagedStore(
                    f"the store's latest checkpoint ({latest['seq']}) names this recorder's key"
                    " but its signature does not verify (altered or forged)"
                )
        elif self._rotated_from != latest["key"]:
            self._rotated_from = latest["key"]
            log.warning(
                "the store's latest checkpoint (%d) was signed by key %s, not this recorder's"
                " (%s): chained on as a key rotation",
                latest["seq"],
                latest["key"],
                self.key_id,
            )
        return latest

    def unsigned_since(self) -> datetime:
        """From when the record's writes may not be signed yet: the store's latest checkpoint's
        time less :data:`CATCH_UP_MARGIN` (the beginning before the first checkpoint)."""
        latest = self.chained_on()
        if latest is None:
            return datetime.min.replace(tzinfo=UTC)
        try:
            at = datetime.strptime(latest["at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        except (TypeError, ValueError):
            seq = latest["seq"]
            raise DamagedStore(f"the store's latest checkpoint ({seq}) has no time") from None
        return at - CATCH_UP_MARGIN

    @classmethod
    def of(cls, settings: Settings, store: CheckpointStore | None) -> Checkpointer | None:
        """The settings' checkpointer, or ``None`` without ``ROADS_CHECKPOINT_KEY`` (said in the
        log). Fails closed: a key set but unreadable, not an Ed25519 private key, or without a
        store raises :class:`CheckpointKeyError` (the recorder then does not start) rather
        than record unsigned."""
        if settings.checkpoint_key is None:
            log.info("no ROADS_CHECKPOINT_KEY: the record's heads are not signed")
            return None
        if store is None:
            raise CheckpointKeyError("ROADS_CHECKPOINT_KEY is set without ROADS_CHECKPOINT_DIR")
        return cls(load_private_key(settings.checkpoint_key), store, settings.checkpoint_seconds)


def recorded_since(conn: psycopg.Connection, since: datetime) -> list[Head]:
    """The heads of every chain with a write recorded at or after ``since`` (the database's
    ``recorded_at``, indexed), read from ``record_writes``: what a recorder taking the lease
    signs, for the heads its predecessor committed but never signed (it was killed, or lost the
    lease). Once per lease taken."""
    rows = conn.execute(
        "SELECT w.table_id, w.shoe, w.hash, w.number,"
        " CASE WHEN w.shoe = '' THEN NULL ELSE (SELECT count(*) FROM record_writes c"
        "  WHERE c.table_id = w.table_id AND c.shoe = w.shoe AND c.number <= w.number) END"
        " FROM (SELECT DISTINCT ON (table_id, shoe) table_id, shoe, hash, number"
        "  FROM record_writes WHERE recorded_at >= %s ORDER BY table_id, shoe, number DESC) w",
        (since,),
    ).fetchall()
    return [Head(table, shoe, head, number, writes) for table, shoe, head, number, writes in rows]


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
