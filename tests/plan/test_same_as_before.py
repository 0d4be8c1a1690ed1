"""Every write's plan is what it was at 48eb24d (issue 44, item 3): the same shoes, with voids and
corrections, planned here and by that commit's code give the same record, state bytes, events
(type, data, patch JSON), lobby update (summary, shape, matched, runs, edges, events, watch) and
roads document after every step.

The reference is 48eb24d's tree from ``git archive`` (the suite runs on a full clone), one process
for the module that replays cases (:mod:`tests.plan.planreplay`) over JSON lines. The odds' floats
(a patch's ``odds``, a tile's ``edge``, the watch's chances) are worked out another way since,
exactly: they are held to a relative 1e-12, the edges written with 6 decimals to one unit in the
last place; everything else byte for byte (JSON text that differs only in such floats must still
be the text orjson writes, keys in the same order).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round
from roads.simulator import deal_shoe
from tests.plan import planreplay
from tests.plan.planreplay import replay, round_json
from tests.strategies import dealt_shoes

REFERENCE = "48eb24d"
# The variants the reference has (the later presets price bets it never knew).
REFERENCE_VARIANTS = ("standard", "no_commission", "speed")
ROOT = Path(__file__).resolve().parents[2]
REL = 1e-12
SIX_DECIMALS = re.compile(r"-?\d+\.\d{6}")


class Reference:
    """The reference tree's replaying process."""

    def __init__(self, tree: Path) -> None:
        shutil.copy(planreplay.__file__, tree / "planreplay.py")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.process = subprocess.Popen(
            [sys.executable, "planreplay.py"],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        hello = json.loads(self.process.stdout.readline())
        assert Path(hello["roads"]).is_relative_to(tree), hello

    def send(self, case: dict[str, Any]) -> None:
        """Start replaying ``case`` (the answer: :meth:`answer`), while this process works."""
        self.process.stdin.write(json.dumps(case) + "\n")
        self.process.stdin.flush()

    def answer(self) -> Any:
        return json.loads(self.process.stdout.readline())

    def stop(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, 9)
            self.process.wait()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    tree = tmp_path_factory.mktemp("reference")
    archive = subprocess.run(
        ["git", "archive", "--format=tar", REFERENCE], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    served = Reference(tree)
    yield served
    served.stop()


# -- comparing: floats numerically, everything else exactly ---------------------------------


def differences(ours: Any, theirs: Any, where: str = "") -> list[str]:
    """Where ``ours`` differs from ``theirs`` beyond the odds' rounding (empty: the same)."""
    if isinstance(ours, str) and isinstance(theirs, str):
        return _text_differences(ours, theirs, where)
    if type(ours) is not type(theirs):
        return [f"{where}: {ours!r} != {theirs!r}"]
    if isinstance(ours, float):
        close = math.isclose(ours, theirs, rel_tol=REL)
        return [] if close else [f"{where}: {ours!r} != {theirs!r}"]
    if isinstance(ours, dict):
        if list(ours) != list(theirs):
            return [f"{where}: keys {list(ours)} != {list(theirs)}"]
        return [d for key in ours for d in differences(ours[key], theirs[key], f"{where}/{key}")]
    if isinstance(ours, list):
        if len(ours) != len(theirs):
            return [f"{where}: {len(ours)} items != {len(theirs)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(ours, theirs, strict=True))
            for d in differences(a, b, f"{where}/{i}")
        ]
    return [] if ours == theirs else [f"{where}: {ours!r} != {theirs!r}"]


def _text_differences(ours: str, theirs: str, where: str) -> list[str]:
    """Text: the same bytes; or JSON written by orjson that differs in floats alone; or
    ``name=value,...`` / ``a,b,...`` lists that differ in floats alone."""
    if ours == theirs:
        return []
    if ours[:1] in "{[" and theirs[:1] in "{[":
        a, b = orjson.loads(ours), orjson.loads(theirs)
        if orjson.dumps(a).decode() != ours:
            return [f"{where}: not the JSON text orjson writes: {ours!r}"]
        return differences(a, b, f"{where}(json)")
    a, b = re.split(r"([,=])", ours), re.split(r"([,=])", theirs)
    if len(a) != len(b):
        return [f"{where}: {ours!r} != {theirs!r}"]
    return [
        f"{where}: {ours!r} != {theirs!r}"
        for x, y in zip(a, b, strict=True)
        if not _same_token(x, y)
    ]


def _same_token(ours: str, theirs: str) -> bool:
    if ours == theirs:
        return True
    try:
        a, b = float(ours), float(theirs)
    except ValueError:
        return False
    if SIX_DECIMALS.fullmatch(ours) and SIX_DECIMALS.fullmatch(theirs):
        return abs(a - b) <= 1.5e-6  # one unit in the 6th decimal
    written = repr(a) == ours and repr(b) == theirs  # each as Python writes a float
    return written and math.isclose(a, b, rel_tol=REL)


def test_the_comparison_tells_the_odds_rounding_from_a_difference():
    assert not differences({"odds": {"tie": 0.1}}, {"odds": {"tie": 0.1 + 1e-17}})
    assert differences({"odds": {"tie": 0.1}}, {"odds": {"tie": 0.1 + 1e-9}})
    assert not differences("player=0.987601,tie=0.856400", "player=0.987600,tie=0.856400")
    assert differences("player=0.987602,tie=0.856400", "player=0.987600,tie=0.856400")
    assert differences("player=0.98760", "player=0.987600")  # another format
    assert not differences("0.1,0.25", "0.10000000000000002,0.25")
    assert differences("0.10,0.25", "0.1,0.25")
    assert differences('{"a":1,"b":2}', '{"b":2,"a":1}')  # key order is the bytes
    assert differences('{"a": 1}', '{"a":1}')  # not orjson's text
    assert differences({"rounds": 1}, {"rounds": 1.0})
    assert differences("big_road=+", "big_road=-")


# -- the cases ------------------------------------------------------------------------------


@st.composite
def cases(draw) -> dict[str, Any]:
    """A shoe's appends (some rounds void, some bases read back from bytes), with voids and
    corrections of earlier rounds between them."""
    rounds = draw(dealt_shoes(max_voids=3))
    length = draw(st.integers(1, len(rounds)))
    reloads = set(draw(st.lists(st.integers(0, length - 1), max_size=4)))
    other = deal_shoe(draw(st.integers(0, 2**32)))
    replacement = st.one_of(
        st.sampled_from(other).map(round_json),
        st.sampled_from("BPT").map(lambda result: round_json(Round.from_result(result))),
    )
    rewrites = draw(
        st.lists(
            st.tuples(
                st.integers(1, length),
                st.sampled_from(["void", "correction"]),
                st.integers(0, 200),
                replacement,
            ),
            max_size=3,
        )
    )
    steps: list[dict[str, Any]] = []
    for index, round in enumerate(rounds[:length]):
        steps.append({"do": "append", "round": round_json(round), "reload": index in reloads})
        for after, kind, target, new in rewrites:
            if after == index + 1:
                step = {"do": kind, "number": 1 + target % after}
                steps.append(step if kind == "void" else {**step, "round": new})
    figures = draw(st.sampled_from([None, [80, 40], [60, 1]]))
    return {
        "variant": draw(st.sampled_from(REFERENCE_VARIANTS)),
        "figures": figures,
        "watch": draw(st.booleans()),
        "steps": steps,
    }


@settings(max_examples=40, deadline=None)
@given(cases())
def test_every_write_plans_what_it_planned_before(reference, case):
    reference.send(case)
    try:
        ours = replay(case)
    finally:
        theirs = reference.answer()  # read whatever happened here: the next case's is next
    assert not (isinstance(theirs, dict) and "failed" in theirs), theirs
    assert len(ours) == len(theirs)
    for number, (step, mine, old) in enumerate(zip(case["steps"], ours, theirs, strict=True)):
        # Since issue 46 an appended round's record names the pay table it was priced under:
        # the one difference from the reference (a rewrite keeps what its record had).
        if "write" in mine:
            named = mine["write"]["record"].pop("paytable", None)
            assert named == (case["variant"] if step["do"] == "append" else None)
        found = differences(mine, old)
        assert not found, f"step {number} ({step['do']}): " + "; ".join(found[:5])
