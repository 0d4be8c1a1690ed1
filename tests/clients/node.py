"""A Node.js process that runs the JavaScript client's functions for the tests: one process, fed a
JSON line per call (``{"call": name, "args": [...]}``), answering a JSON line per call."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

RUNNER = Path(__file__).with_name("runner.mjs")


class Node:
    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is not installed (scripts/test installs nodejs)")
        self.process = subprocess.Popen(
            [node, str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def call(self, name: str, *args: Any) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"call": name, "args": args}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "error" in answer:
            raise AssertionError(f"{name} failed in node: {answer['error']}")
        return answer["value"]

    def stop(self) -> None:
        self.process.stdin.close()  # type: ignore[union-attr]
        self.process.wait(timeout=10)
