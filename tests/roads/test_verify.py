"""``python -m roads.verify``: an export's chain holds, and an edited, removed, reordered or
inserted line breaks it at that line."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from roads.chain import GENESIS, canonical, link, linked
from roads.verify import verify, writes_of


def chain(count: int, prev: str = GENESIS) -> list[dict]:
    lines = []
    for number in range(1, count + 1):
        write = {
            "table": "t1",
            "number": number,
            "kind": "round",
            "shoe": "s1",
            "round": number,
            "record": {"result": "BPT"[number % 3], "note": "ü"},
        }
        lines.append(linked(prev, write))
        prev = lines[-1]["hash"]
    return lines


def ndjson(lines: list[dict]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def run(tmp_path, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / "export.ndjson"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "roads.verify", str(path)], capture_output=True, text=True
    )


def test_the_hash_is_sha256_of_the_previous_hash_and_the_canonical_bytes():
    import hashlib

    write = {"b": 1, "a": "é", "hash": "x", "prev_hash": "y"}
    assert canonical(write) == '{"a":"é","b":1}'.encode()
    expected = hashlib.sha256(bytes(32) + '{"a":"é","b":1}'.encode()).hexdigest()
    assert link(GENESIS, write) == expected


def test_a_whole_chain_holds_and_its_head_is_printed(tmp_path):
    lines = chain(5)
    done = run(tmp_path, ndjson(lines))
    assert done.returncode == 0, done.stderr
    assert lines[-1]["hash"] in done.stdout and "5 writes" in done.stdout


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        ("edit", 3),
        ("remove", 3),
        ("reorder", 2),
        # A line slipped in, chained after line 2: the line after it no longer follows.
        ("insert", 4),
    ],
)
def test_a_damaged_chain_is_refused_naming_the_first_broken_line(tmp_path, damage, line):
    lines = chain(5)
    if damage == "edit":
        lines[2]["record"]["result"] = "B" if lines[2]["record"]["result"] != "B" else "P"
    elif damage == "remove":
        del lines[2]
    elif damage == "reorder":
        lines[1], lines[2] = lines[2], lines[1]
    else:
        lines.insert(2, linked(lines[1]["hash"], {"table": "t1", "number": 99, "kind": "void"}))
    done = run(tmp_path, ndjson(lines))
    assert done.returncode == 1
    assert f"line {line}" in done.stderr


def test_a_csv_export_is_checked_the_same_way():
    lines = chain(3)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["number", "write", "prev_hash", "hash"])
    for line in lines:
        body = {k: v for k, v in line.items() if k not in ("hash", "prev_hash")}
        writer.writerow([line["number"], json.dumps(body), line["prev_hash"], line["hash"]])
    text = out.getvalue()
    assert verify(writes_of(text)).holds
    broken = text.replace('""round"": 2', '""round"": 7')
    assert broken != text
    verdict = verify(writes_of(broken))
    assert not verdict.holds and verdict.broken == 3  # the header is line 1


def test_a_file_that_is_no_export_exits_2(tmp_path):
    assert run(tmp_path, "not json\n").returncode == 2


# ``--checkpoint CP --public-key KEY``: the export against heads signed with a key the database
# never sees (roads.signedheads). The checkpoints here are signed as api/record/checkpoints.py
# signs them: Ed25519 over roads.chain.checkpoint_bytes.


def key_files(tmp_path, name="cp"):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    public = tmp_path / f"{name}.pub"
    public.write_bytes(
        key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    )
    return key, public


def signed_checkpoint(key, heads, seq=1, prev=GENESIS):
    import base64
    import hashlib

    from cryptography.hazmat.primitives import serialization

    from roads.chain import checkpoint_bytes

    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    body = {
        "format": "roads-checkpoint/1",
        "seq": seq,
        "at": "2024-01-01T00:00:00.000Z",
        "prev": prev,
        "key": hashlib.sha256(raw).hexdigest()[:16],
        "heads": heads,
    }
    return {**body, "sig": base64.b64encode(key.sign(checkpoint_bytes(body))).decode()}


def head_of(lines, upto):
    return {
        "table": "t1",
        "shoe": "s1",
        "head": lines[upto - 1]["hash"],
        "number": upto,
        "writes": upto,
    }


def run_signed(tmp_path, lines, checkpoints, public, *extra):
    export = tmp_path / "export.ndjson"
    export.write_text(ndjson(lines), encoding="utf-8")
    cps = tmp_path / "checkpoints.jsonl"
    cps.write_text("".join(json.dumps(c) + "\n" for c in checkpoints))
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "roads.verify",
            str(export),
            "--checkpoint",
            str(cps),
            "--public-key",
            str(public),
            *extra,
        ],
        capture_output=True,
        text=True,
    )


def rewritten(lines, at):
    """The chain with line ``at`` (1-based) edited and it and every later line re-hashed: what
    an administrator of the database can do."""
    writes = [{k: v for k, v in line.items() if k not in ("prev_hash", "hash")} for line in lines]
    writes[at - 1]["record"] = {**writes[at - 1]["record"], "result": "P"}
    prev, out = lines[0]["prev_hash"], []
    for write in writes:
        out.append(linked(prev, write))
        prev = out[-1]["hash"]
    return out


def test_an_export_that_reaches_its_signed_heads_passes(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    first = signed_checkpoint(key, [head_of(lines, 3)])
    from roads.chain import checkpoint_hash

    second = signed_checkpoint(key, [head_of(lines, 6)], seq=2, prev=checkpoint_hash(first))
    done = run_signed(tmp_path, lines, [first, second], public)
    assert done.returncode == 0, done.stderr
    assert "signed heads reached: 2" in done.stdout


def test_a_rewrite_of_the_shoe_and_every_later_head_is_caught_naming_the_shoe(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    checkpoint = signed_checkpoint(key, [head_of(lines, 4)])
    forged = rewritten(lines, 2)
    assert run(tmp_path, ndjson(forged)).returncode == 0  # the chain alone cannot tell
    done = run_signed(tmp_path, forged, [checkpoint], public)
    assert done.returncode == 1
    assert "shoe s1 of table t1" in done.stderr and "rewritten" in done.stderr


def test_writes_removed_from_the_end_after_a_checkpoint_are_caught(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    done = run_signed(tmp_path, lines[:4], [signed_checkpoint(key, [head_of(lines, 6)])], public)
    assert done.returncode == 1 and "writes were removed" in done.stderr


def test_a_signed_head_at_another_place_in_the_export_is_caught(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    head = {**head_of(lines, 4), "writes": 3}
    done = run_signed(tmp_path, lines, [signed_checkpoint(key, [head])], public)
    assert done.returncode == 1 and "the export has it as write 4" in done.stderr


def test_an_altered_or_forged_checkpoint_is_refused(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(4)
    forged = rewritten(lines, 2)
    checkpoint = signed_checkpoint(key, [head_of(lines, 4)])
    checkpoint["heads"][0]["head"] = forged[3]["hash"]  # the administrator edits the head too
    done = run_signed(tmp_path, forged, [checkpoint], public)
    assert done.returncode == 1 and "signature does not verify" in done.stderr
    other, _ = key_files(tmp_path, "other")  # signed by a key not given: never trusted
    done = run_signed(tmp_path, forged, [signed_checkpoint(other, [head_of(forged, 4)])], public)
    assert done.returncode == 3 and "no checkpoint signed by the key" in done.stderr


def test_a_shoe_no_checkpoint_covers_exits_3(tmp_path):
    key, public = key_files(tmp_path)
    other_shoe = {**head_of(chain(2), 2), "shoe": "s9"}
    done = run_signed(tmp_path, chain(3), [signed_checkpoint(key, [other_shoe])], public)
    assert done.returncode == 3


def test_unreadable_checkpoints_or_keys_exit_2(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(2)
    checkpoint = signed_checkpoint(key, [head_of(lines, 2)])
    bad_key = tmp_path / "bad.pub"
    bad_key.write_text("not a key")
    assert run_signed(tmp_path, lines, [checkpoint], bad_key).returncode == 2
    export = tmp_path / "e.ndjson"
    export.write_text(ndjson(lines))
    for args in (
        ["--checkpoint", str(tmp_path / "none.jsonl"), "--public-key", str(public)],
        ["--checkpoint", str(export)],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "roads.verify", str(export), *args],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 2, done.stderr


# The checkpoint file is trusted for nothing: a whole store's seq runs 1..n, each prev the hash
# of the one before it. Four checkpoints, the second the only one covering the shoe.


def store_of(key, lines):
    from roads.chain import checkpoint_hash

    other = {**head_of(chain(2), 2), "shoe": "s9"}
    made, prev = [], GENESIS
    for seq in range(1, 5):
        heads = [head_of(lines, 4)] if seq == 2 else [other]
        made.append(signed_checkpoint(key, heads, seq=seq, prev=prev))
        prev = checkpoint_hash(made[-1])
    return made


def forged_after(tmp_path, before, lines, upto):
    """A checkpoint signed by another key, chained after ``before``, signing ``lines``' head."""
    from roads.chain import checkpoint_hash

    other, _ = key_files(tmp_path, "other")
    return signed_checkpoint(
        other, [head_of(lines, upto)], seq=before["seq"] + 1, prev=checkpoint_hash(before)
    )


def test_a_whole_store_passes_and_a_rewrite_it_covers_is_caught(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    store = store_of(key, lines)
    assert run_signed(tmp_path, lines, store, public).returncode == 0
    done = run_signed(tmp_path, rewritten(lines, 2), store, public)
    assert done.returncode == 1 and "shoe s1 of table t1" in done.stderr


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        # The checkpoint covering the rewritten shoe deleted: not "not covered yet" (3).
        (lambda s, _: [s[0], s[2], s[3]], "checkpoint(s) 2 missing before checkpoint 3"),
        (
            lambda s, _: [s[0], s[2], s[1], s[3]],
            "checkpoint 3 comes before checkpoint 2: reordered",
        ),
        (lambda s, _: s[1:], "starts at checkpoint 2, not 1: checkpoint(s) 1 missing"),
        # Signed by another key, chained after checkpoint 1 and slipped in before the second.
        (lambda s, forged: [s[0], forged, *s[1:]], "checkpoint 2 comes after checkpoint 2"),
        (lambda s, forged: [s[0], forged, *s[2:]], "checkpoint 3 does not chain to checkpoint 2"),
    ],
    ids=["deleted", "reordered", "head-cut", "forged-inserted", "forged-replaced"],
)
def test_a_store_deleted_reordered_or_forged_into_is_refused_by_seq(tmp_path, damage, said):
    key, public = key_files(tmp_path)
    lines = chain(6)
    store = store_of(key, lines)
    forged = forged_after(tmp_path, store[0], rewritten(lines, 2), 4)
    done = run_signed(tmp_path, rewritten(lines, 2), damage(store, forged), public)
    assert done.returncode == 1, done.stderr
    assert "checkpoints refused" in done.stderr and said in done.stderr


def test_a_copy_starting_later_is_checked_only_with_partial(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    store = store_of(key, lines)
    assert run_signed(tmp_path, lines, store[1:], public).returncode == 1
    assert run_signed(tmp_path, lines, store[1:], public, "--partial").returncode == 0
    # A copy from seq 3 proves nothing of the checkpoint 2 that covered the shoe: not covered.
    assert run_signed(tmp_path, rewritten(lines, 2), store[2:], public, "--partial").returncode == 3
    gap = run_signed(tmp_path, lines, [store[1], store[3]], public, "--partial")
    assert gap.returncode == 1 and "checkpoint(s) 3 missing" in gap.stderr


def test_checkpoints_cut_from_the_end_are_caught_only_against_a_latest_known_apart(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    store = store_of(key, lines)
    latest = tmp_path / "latest.json"
    latest.write_text(json.dumps(store[3]))  # as GET /v1/checkpoints/latest answered it
    assert run_signed(tmp_path, lines, store[:3], public).returncode == 0  # undetectable alone
    done = run_signed(tmp_path, lines, store[:3], public, "--latest", str(latest))
    assert done.returncode == 1
    assert "ends at checkpoint 3, the latest given is 4" in done.stderr
    assert run_signed(tmp_path, lines, store, public, "--latest", str(latest)).returncode == 0
    other, _ = key_files(tmp_path, "other")
    latest.write_text(json.dumps(signed_checkpoint(other, [], seq=9)))
    done = run_signed(tmp_path, lines, store, public, "--latest", str(latest))
    assert done.returncode == 1 and "not signed by a given key" in done.stderr


def test_a_checkpoint_by_another_key_keeps_its_place_but_proves_nothing(tmp_path):
    key, public = key_files(tmp_path)
    lines = chain(6)
    store = store_of(key, lines)
    forged = forged_after(tmp_path, store[3], rewritten(lines, 2), 6)
    done = run_signed(tmp_path, rewritten(lines, 2), [*store, forged], public)
    assert done.returncode == 1 and "shoe s1 of table t1" in done.stderr


def test_a_checkpoint_whose_head_is_of_the_wrong_kinds_is_malformed():
    """A damaged store line names what is wrong (the endpoint's 503), never passes as a checkpoint
    whose dump would fail later."""
    from roads.signedheads import malformed

    good = {"table": "t", "shoe": "s1", "head": "00" * 32, "number": 3, "writes": 3}
    line = {"format": "roads-checkpoint/1", "seq": 1, "prev": "0" * 64, "key": "k", "sig": "s"}
    assert malformed({**line, "heads": [good]}) == ""
    assert malformed({**line, "heads": [{k: v for k, v in good.items() if k != "writes"}]}) == ""
    for bad in ({"number": "abc"}, {"writes": True}, {"table": 7}, {"head": None}):
        assert "a head is not" in malformed({**line, "heads": [{**good, **bad}]}), bad
