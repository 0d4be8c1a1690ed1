"""The record's signed checkpoints: what is signed and how, the store they are appended to, and the
recorder signing the heads it advanced (``GET /v1/checkpoints/latest``:
tests/http/test_latest_checkpoint.py)."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.record import checkpoints
from api.record.checkpoints import (
    Checkpointer,
    CheckpointKeyError,
    keygen,
    load_private_key,
    signed,
)
from api.record.checkpointstore import JsonLinesStore
from api.record.ledger import Head
from roads import Round, signedheads
from roads.chain import GENESIS, canonical_json, checkpoint_bytes, checkpoint_hash
from tests.record.conftest import record_all

H1, H2 = "ab" * 32, "cd" * 32


@pytest.fixture
def key_pair(tmp_path):
    private, public = tmp_path / "cp.key", tmp_path / "cp.pub"
    keygen(str(private), str(public))
    return private, public


def trusted_by(public_path, found):
    return signedheads.trusted(found, signedheads.public_keys([public_path.read_bytes()]))


def test_a_checkpoint_is_signed_over_its_canonical_bytes_and_verifies(key_pair):
    private, public = key_pair
    key = load_private_key(private)
    heads = [Head("t2", "s1", H2, 9, 4), Head("t1", "", H1, 3, None)]
    checkpoint = signed(key, heads, seq=1, prev=GENESIS, at_ms=1_700_000_000_123)
    assert checkpoint["format"] == "roads-checkpoint/1"
    assert checkpoint["at"] == "2023-11-14T22:13:20.123Z"
    assert checkpoint["heads"] == [  # sorted by table, shoe; a table's own chain has no writes
        {"table": "t1", "shoe": "", "head": H1, "number": 3},
        {"table": "t2", "shoe": "s1", "head": H2, "number": 9, "writes": 4},
    ]
    assert len(base64.b64decode(checkpoint["sig"])) == 64
    key.public_key().verify(base64.b64decode(checkpoint["sig"]), checkpoint_bytes(checkpoint))
    good, problem = trusted_by(public, [checkpoint])
    assert problem == "" and good == [checkpoint]


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c["heads"][0].update(head=H2),
        lambda c: c["heads"][0].update(writes=5),
        lambda c: c.update(seq=2),
        lambda c: c.update(at="2023-11-14T22:13:21.123Z"),
        lambda c: c.update(sig=base64.b64encode(bytes(64)).decode()),
    ],
)
def test_any_change_to_a_signed_checkpoint_is_refused(key_pair, change):
    private, public = key_pair
    checkpoint = signed(
        load_private_key(private), [Head("t", "s", H1, 1, 1)], seq=1, prev=GENESIS, at_ms=0
    )
    change(checkpoint)
    good, problem = trusted_by(public, [checkpoint])
    assert good == [] and "signature does not verify" in problem


def test_a_checkpoint_signed_by_another_key_is_set_aside_not_trusted(key_pair):
    _, public = key_pair
    forged = signed(Ed25519PrivateKey.generate(), [], seq=1, prev=GENESIS, at_ms=0)
    assert trusted_by(public, [forged]) == ([], "")


def test_the_checkpointer_signs_what_advanced_when_due_and_chains_its_checkpoints(
    key_pair, tmp_path
):
    store = JsonLinesStore(tmp_path / "cps")
    signer = Checkpointer(load_private_key(key_pair[0]), store, every_seconds=60)
    assert signer.maybe(force=True) is None  # nothing advanced: nothing signed
    signer.advanced([Head("t", "s1", H1, 1, 1)])
    signer.advanced([Head("t", "s1", H2, 2, 2)])  # a later head of the same chain replaces it
    assert signer.maybe() is None  # not due yet
    # 61, not 60: (last + 60) - last may round to just under 60 for some clock readings.
    first = signer.maybe(now=signer._last + 61)
    assert first["seq"] == 1 and first["prev"] == GENESIS
    assert first["heads"] == [{"table": "t", "shoe": "s1", "head": H2, "number": 2, "writes": 2}]
    signer.advanced([Head("t", "", H1, 3, None)])
    second = signer.maybe(force=True)
    assert second["seq"] == 2 and second["prev"] == checkpoint_hash(first)
    assert store.latest() == second
    lines = store.path.read_text().splitlines()
    assert len(lines) == 2
    good, problem = trusted_by(key_pair[1], signedheads.checkpoints_of("\n".join(lines)))
    assert problem == "" and len(good) == 2


def test_checkpoints_that_do_not_chain_are_refused(key_pair):
    key = load_private_key(key_pair[0])
    first = signed(key, [], seq=1, prev=GENESIS, at_ms=0)
    second = signed(key, [], seq=2, prev=GENESIS, at_ms=1)  # signed, but not after ``first``
    _, problem = trusted_by(key_pair[1], [first, second])
    assert "does not chain to checkpoint 1" in problem


def test_a_store_that_fails_keeps_the_heads_for_the_next_checkpoint(key_pair, tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    signer = Checkpointer(load_private_key(key_pair[0]), JsonLinesStore(blocker), 0)
    signer.advanced([Head("t", "s", H1, 1, 1)])
    with pytest.raises(OSError):
        signer.maybe(force=True)
    signer.store = JsonLinesStore(tmp_path / "ok")
    assert signer.maybe(force=True)["heads"][0]["head"] == H1


def test_the_store_finds_its_last_line_past_many_reads_from_the_end(tmp_path):
    store = JsonLinesStore(tmp_path)
    shape = {"format": "roads-checkpoint/1", "prev": GENESIS, "key": "k", "sig": "s", "heads": []}
    for seq in range(1, 40):
        store.append({**shape, "seq": seq, "pad": "x" * 5000})  # ~200 KB: several tail reads
    assert store.latest()["seq"] == 39
    last = canonical_json({**shape, "seq": 39, "pad": "x" * 5000})
    assert store.path.read_bytes().endswith(b"\n" + last + b"\n")  # canonical, one a line
    assert JsonLinesStore(tmp_path / "none").latest() is None


def test_keygen_writes_a_private_key_only_its_owner_reads_and_never_overwrites(tmp_path):
    private, public = tmp_path / "k", tmp_path / "k.pub"
    assert checkpoints.main(["keygen", str(private), str(public)]) == 0
    assert os.stat(private).st_mode & 0o777 == 0o600
    assert b"BEGIN PUBLIC KEY" in public.read_bytes()
    before = private.read_bytes()
    assert checkpoints.main(["keygen", str(private), str(public)]) == 1
    assert private.read_bytes() == before
    assert checkpoints.main(["keygen"]) == 2


def test_without_a_key_no_checkpoints_and_a_key_that_cannot_be_used_is_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    from api.config import Settings

    store = JsonLinesStore(tmp_path)
    assert Checkpointer.of(Settings(), store) is None
    secret = tmp_path / "bad.key"
    secret.write_text("not a key but secret-looking-text")
    other = tmp_path / "ec.key"
    other.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    for path, said in (
        (secret, "not a PEM"),
        (tmp_path / "missing", "cannot be read"),
        (other, "not an Ed25519 key"),
    ):
        with pytest.raises(CheckpointKeyError) as refused:
            Checkpointer.of(Settings(checkpoint_key=str(path)), store)
        assert said in str(refused.value) and "ROADS_CHECKPOINT_KEY" in str(refused.value)
        assert "secret-looking-text" not in str(refused.value) and str(tmp_path) not in str(
            refused.value
        )
    with pytest.raises(CheckpointKeyError, match="without ROADS_CHECKPOINT_DIR"):
        Checkpointer.of(Settings(checkpoint_key=str(other)), None)


def test_the_recorder_does_not_start_with_a_key_it_cannot_use(backend, database_url, tmp_path):
    secret = tmp_path / "bad.key"
    secret.write_text("not a key but secret-looking-text")
    env = {
        **os.environ,
        "REDIS_URL": backend.url,
        "ROADS_DATABASE_URL": database_url,
        "ROADS_CHECKPOINT_KEY": str(secret),
        "ROADS_CHECKPOINT_DIR": str(tmp_path / "cps"),
    }
    env.pop("ROADS_DEMO", None)
    done = subprocess.run(
        [sys.executable, "-m", "api.record.run"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "ROADS_CHECKPOINT_KEY" in done.stderr and "does not start" in done.stderr
    assert "secret-looking-text" not in done.stderr + done.stdout


def test_the_recorder_signs_the_heads_it_recorded(parts, recorder, pg, key_pair, tmp_path):
    store = JsonLinesStore(tmp_path / "cps")
    recorder.checkpoints = Checkpointer(load_private_key(key_pair[0]), store, every_seconds=0)
    for number, result in enumerate("BPBT", 1):
        assert parts.writer.append("cp", "s1", number, Round(result)).changed
    record_all(recorder)
    latest = store.latest()
    assert latest is not None
    head, writes = pg.execute(
        "SELECT head, writes FROM record_shoes WHERE table_id = 'cp' AND shoe = 's1'"
    ).fetchone()
    (number,) = pg.execute(
        "SELECT max(number) FROM record_writes WHERE table_id = 'cp' AND shoe = 's1'"
    ).fetchone()
    signed_heads = [h for cp in _all(store) for h in cp["heads"] if h["shoe"] == "s1"]
    assert signed_heads[-1] == {
        "table": "cp",
        "shoe": "s1",
        "head": head,
        "number": number,
        "writes": writes,
    }
    assert writes == 4


def _all(store):
    return signedheads.checkpoints_of(store.path.read_text())


def test_a_latest_checkpoint_by_a_rotated_key_is_chained_on(key_pair, tmp_path):
    store = JsonLinesStore(tmp_path)
    old = Checkpointer(Ed25519PrivateKey.generate(), store, every_seconds=0)
    old.advanced([Head("t", "s", H1, 1, 1)])
    first = old.maybe(force=True)
    new = Checkpointer(load_private_key(key_pair[0]), store, every_seconds=0)
    new.advanced([Head("t", "s", H2, 2, 2)])
    second = new.maybe(force=True)
    assert second["seq"] == 2 and second["prev"] == checkpoint_hash(first)
    assert second["key"] != first["key"]


def test_a_head_read_back_never_replaces_a_later_one_pending(key_pair, tmp_path):
    signer = Checkpointer(load_private_key(key_pair[0]), JsonLinesStore(tmp_path), 0)
    signer.advanced([Head("t", "s", H2, 5, 3)])
    signer.advanced([Head("t", "s", H1, 4, 2), Head("t", "s", H1, 5, 3)])  # older, same write
    assert signer.maybe(force=True)["heads"][0]["head"] == H2
