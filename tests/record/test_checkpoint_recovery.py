"""The signed checkpoints when things go wrong: a store whose latest line is damaged (the
recorder records on, signs nothing, says so and keeps its heads; the endpoint's answer:
tests/http/test_latest_checkpoint.py), and a recorder killed before its checkpoint (the next
lease holder signs what it left)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import pytest
from prometheus_client import REGISTRY

from api.record.checkpoints import Checkpointer, keygen, load_private_key
from api.record.checkpointstore import JsonLinesStore
from api.record.ledger import Head
from roads import Round
from roads.chain import checkpoint_hash
from tests.record.conftest import record_all
from tests.record.test_checkpoints import H1, _all, trusted_by


@pytest.fixture
def key_pair(tmp_path):
    private, public = tmp_path / "cp.key", tmp_path / "cp.pub"
    keygen(str(private), str(public))
    return private, public


def failures(cause):
    return REGISTRY.get_sample_value("roads_checkpoint_failures_total", {"cause": cause}) or 0


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@pytest.fixture
def recorder_log():
    handler, logger = Lines(), logging.getLogger("roads.recorder")
    logger.addHandler(handler)
    yield handler.lines
    logger.removeHandler(handler)


def post_rounds(parts, shoe, results, table="cp"):
    for number, result in enumerate(results, 1):
        assert parts.writer.append(table, shoe, number, Round(result)).changed


def signed_heads(store, table="cp"):
    return {h["shoe"]: h for cp in _all(store) for h in cp["heads"] if h["table"] == table}


# A latest line damaged three ways, and what the recorder says of each.
DAMAGED = [
    (lambda line: b'{"format": "roads-checkpoint/1", "seq": 2, "pre', "is not JSON"),
    (lambda line: line.replace(b'"seq":1', b'"seq":"1"'), "seq is not a whole number"),
    # Our own key's id, another head: the signature does not verify.
    (lambda line: line.replace(b'"number":1', b'"number":2'), "does not verify"),
]


@pytest.mark.parametrize(("damage", "said"), DAMAGED, ids=["not-json", "malformed", "altered"])
def test_a_damaged_latest_checkpoint_stops_signing_visibly_and_keeps_the_heads(
    parts, recorder, key_pair, tmp_path, recorder_log, damage, said
):
    store = JsonLinesStore(tmp_path / "cps")
    recorder.checkpoints = Checkpointer(load_private_key(key_pair[0]), store, every_seconds=0)
    recorder.checkpoints.advanced([Head("t", "s", H1, 1, 1)])
    record_all(recorder)  # the lease taken, checkpoint 1 signed
    good = store.path.read_bytes()
    assert _all(store)[0]["seq"] == 1
    store.path.write_bytes(good + damage(good.rstrip(b"\n")) + b"\n")
    cause = "damaged"
    before = failures(cause)
    post_rounds(parts, "s1", "BPB")
    record_all(recorder)  # no exception: the recorder records on, signs nothing
    assert recorder.checkpoint(force=True) is None
    assert failures(cause) >= before + 2
    assert any(said in line and "no checkpoint made" in line for line in recorder_log)
    assert not any("secret" in line or str(tmp_path) in line for line in recorder_log)
    store.path.write_bytes(good)  # an operator repairs the store: the pending heads are signed
    made = recorder.checkpoint(force=True)
    assert made["seq"] == 2 and made["prev"] == checkpoint_hash(_all(store)[0])
    assert signed_heads(store)["s1"]["writes"] == 3


def test_heads_a_killed_recorder_never_signed_are_signed_by_the_next_holder(
    record_parts, pg, key_pair, tmp_path
):
    """The first holder records a shoe and the one it closes, then dies without SIGTERM before
    its next checkpoint (its pending heads gone with it); the next holder, taking the lease,
    signs the heads recorded since the store's latest checkpoint."""
    store = JsonLinesStore(tmp_path / "cps")
    first_process, second_process = record_parts(), record_parts()
    first, second = first_process.recorder, second_process.recorder
    first.lease_ms = 300
    first.checkpoints = Checkpointer(load_private_key(key_pair[0]), store, every_seconds=3600)
    post_rounds(first_process, "s0", "BP")
    record_all(first)
    assert first.checkpoint(force=True)["seq"] == 1  # the store's latest: s0 covered
    post_rounds(first_process, "s1", "BPBT")
    post_rounds(first_process, "s2", "P")  # s1 closes
    record_all(first)
    assert set(signed_heads(store)) == {"s0"}
    del first  # killed: never stopped, its pending heads lost
    time.sleep(0.5)  # its lease lapses
    second.checkpoints = Checkpointer(load_private_key(key_pair[0]), store, every_seconds=0)
    second.step()
    heads = signed_heads(store)
    (head,) = pg.execute(
        "SELECT head FROM record_shoes WHERE table_id = 'cp' AND shoe = 's1'"
    ).fetchone()
    (number,) = pg.execute(
        "SELECT max(number) FROM record_writes WHERE table_id = 'cp' AND shoe = 's1'"
    ).fetchone()
    assert heads["s1"] == {"table": "cp", "shoe": "s1", "head": head, "number": number, "writes": 4}
    assert heads["s2"]["writes"] == 1
    good, problem = trusted_by(key_pair[1], _all(store))
    assert problem == "" and [cp["seq"] for cp in good] == [1, 2]


def test_a_recorder_process_killed_before_its_checkpoint_leaves_no_shoe_uncovered(
    backend, parts, database_url, pg, key_pair, tmp_path
):
    """``python -m api.record.run`` records a shoe and the one that closes it, and is killed
    (SIGKILL) before its first checkpoint is due; the next recorder signs them."""
    store = JsonLinesStore(tmp_path / "cps")
    env = {
        **os.environ,
        "REDIS_URL": backend.url,
        "ROADS_DATABASE_URL": database_url,
        "ROADS_CHECKPOINT_KEY": str(key_pair[0]),
        "ROADS_CHECKPOINT_DIR": str(store.path.parent),
        "ROADS_CHECKPOINT_SECONDS": "3600",
        # The first's lease, which the second waits out: a second, not the default five (each
        # renews it every pass, a tenth of a second apart when idle).
        "ROADS_RECORD_LEASE_MS": "1000",
    }
    env.pop("ROADS_DEMO", None)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)

    def until(done, what):
        for _ in range(300):
            if done():
                return
            time.sleep(0.1)
        raise AssertionError(f"waited in vain for {what}")

    first = subprocess.Popen([sys.executable, "-m", "api.record.run"], env=env)
    try:
        post_rounds(parts, "s1", "BPBT")
        post_rounds(parts, "s2", "P")
        query = "SELECT count(*) FROM record_shoes WHERE table_id = 'cp'"
        until(lambda: pg.execute(query).fetchone()[0] == 2, "the record")
    finally:
        first.kill()
        first.wait()
    assert store.latest() is None  # nothing signed: its heads were in its memory only
    second = subprocess.Popen(
        [sys.executable, "-m", "api.record.run"], env={**env, "ROADS_CHECKPOINT_SECONDS": "1"}
    )
    try:
        until(lambda: store.latest() is not None, "a checkpoint")  # after the lease lapses
    finally:
        second.terminate()
        second.wait(timeout=30)
    head, writes = pg.execute(
        "SELECT head, writes FROM record_shoes WHERE table_id = 'cp' AND shoe = 's1'"
    ).fetchone()
    assert writes == 4 and signed_heads(store)["s1"]["head"] == head
