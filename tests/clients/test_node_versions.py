"""The JavaScript client's own tests (``node --test clients/js/test/``) on each Node major
version its package.json promises, where that version can be had here (tests/clients/nodes.py:
the machine's node, and Debian's Node 18 unpacked beside it). As root (scripts/test, CI) every
version can be had; a version that cannot be had fails, saying why, never skipped or passed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.clients.nodes import Unavailable, node_of_major

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGE = ROOT / "clients" / "js" / "package.json"
MAJORS = (18, 20)  # the oldest the package allows, and the current LTS line here


@pytest.mark.parametrize("major", MAJORS, ids=[f"node{major}" for major in MAJORS])
def test_the_clients_tests_pass_on(major):
    try:
        node = node_of_major(major)
    except Unavailable as why:  # a version the package promises, untested: a failure
        pytest.fail(f"{why} (scripts/test, as root, gets every version)")
    assert node.major == major, node
    ran = node.run("--test", "clients/js/test/", cwd=ROOT)
    summary = f"{node.where} {node.version}:\n{ran.stdout[-3000:]}{ran.stderr[-2000:]}"
    assert ran.returncode == 0, summary
    passed = re.search(r"^# pass (\d+)$", ran.stdout, re.MULTILINE)
    failed = re.search(r"^# fail (\d+)$", ran.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) > 0 and failed and failed.group(1) == "0", summary


def test_the_package_promises_the_oldest_node_tested():
    engines = json.loads(PACKAGE.read_text())["engines"]["node"]
    assert re.fullmatch(r">=\s*(\d+)(\.0)*", engines), engines
    assert int(re.search(r"\d+", engines).group()) == min(MAJORS)
