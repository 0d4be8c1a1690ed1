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
