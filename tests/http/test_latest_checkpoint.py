"""``GET /v1/checkpoints/latest``: the store's latest signed checkpoint as kept, to record readers
only; 404 before the first or without a store; 503 naming the fault when the store's latest line
is damaged (the recorder's side of a damaged store: tests/record/test_checkpoint_recovery.py)."""

from __future__ import annotations

import pytest

from api.record.checkpoints import Checkpointer, keygen, load_private_key
from api.record.ledger import Head

H1 = "ab" * 32


@pytest.fixture
def key_pair(tmp_path):
    private, public = tmp_path / "cp.key", tmp_path / "cp.pub"
    keygen(str(private), str(public))
    return private, public


def signed_one(app, key_pair) -> dict:
    """Checkpoint 1 of head ``H1``, appended to the app's store as the recorder would."""
    store = app.extensions["roads"].record.checkpoints
    signer = Checkpointer(load_private_key(key_pair[0]), store, 0)
    signer.advanced([Head("t", "s", H1, 1, 1)])
    return signer.maybe(force=True)


def test_the_latest_checkpoint_is_served_to_record_readers(record_apps, key_pair, tmp_path):
    app = record_apps(checkpoint_dir=str(tmp_path / "cps"), operator_keys=("op-key",))
    client = app.test_client()
    operator = {"X-API-Key": "op-key"}
    assert client.get("/v1/checkpoints/latest").status_code == 401
    missing = client.get("/v1/checkpoints/latest", headers=operator)
    assert missing.status_code == 404 and "no checkpoint" in missing.json["message"]
    made = signed_one(app, key_pair)
    answer = client.get("/v1/checkpoints/latest", headers=operator)
    assert answer.status_code == 200 and answer.json == made
    public = record_apps(checkpoint_dir=str(tmp_path / "cps"), public_record=True).test_client()
    assert public.get("/v1/checkpoints/latest").json == made


def test_without_a_store_there_is_no_checkpoint_to_serve(record_apps):
    client = record_apps(public_record=True).test_client()
    answer = client.get("/v1/checkpoints/latest")
    assert answer.status_code == 404 and "ROADS_CHECKPOINT_DIR" in answer.json["message"]


@pytest.mark.parametrize(
    ("damage", "said", "served"),
    [
        (lambda line: b'{"format": "roads-checkpoint/1", "seq": 2, "pre', "is not JSON", 503),
        (lambda line: line.replace(b'"seq":1', b'"seq":"1"'), "seq is not a whole number", 503),
        # Our own key's id, another head: the signature does not verify. The web worker holds
        # no key and serves it as kept; the verifier, with the public key, refuses it.
        (lambda line: line.replace(b'"number":1', b'"number":2'), "does not verify", 200),
    ],
    ids=["not-json", "malformed", "altered"],
)
def test_a_damaged_latest_checkpoint_is_named_until_it_is_repaired(
    record_apps, key_pair, tmp_path, damage, said, served
):
    app = record_apps(checkpoint_dir=str(tmp_path / "cps"), public_record=True)
    client = app.test_client()
    made = signed_one(app, key_pair)
    store = app.extensions["roads"].record.checkpoints
    good = store.path.read_bytes()
    store.path.write_bytes(good + damage(good.rstrip(b"\n")) + b"\n")
    answer = client.get("/v1/checkpoints/latest")
    assert answer.status_code == served, answer.json
    if served == 503:
        assert "damaged" in answer.json["message"] and said in answer.json["message"]
        assert "repairs" in answer.json["message"]
        assert str(tmp_path) not in answer.json["message"]
    else:
        assert answer.json["heads"][0]["number"] == 2  # as kept, not as signed
    store.path.write_bytes(good)  # an operator repairs the store
    assert client.get("/v1/checkpoints/latest").json == made
