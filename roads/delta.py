"""How a roads document changes from one version to the next, as a JSON Patch (RFC 6902).

A client that holds a shoe's roads document (:meth:`roads.Scorecard.as_dict`, or the service's
``GET .../roads`` answer) keeps it current by applying each change's patch, with any RFC 6902
library, instead of fetching the document again.

Every list of the document grows at its end as rounds are added: the beads, the Big Road's
columns and the cells of its last column, each derived road's marks and columns. So the patch of
a round is small: a new bead or cell is an ``add`` at the list's end (``/-``), a tie is one
``replace`` of the latest cell's ``ties`` counter, a derived road gains at most one mark, and the
probe, streaks and statistics change where they changed. A list that got shorter or changed in
its middle (a void or a correction earlier in the shoe) is replaced whole; a new shoe may be one
``replace`` of the root.

The values of one place of a roads document keep their JSON type (a count stays a number, a flag
a boolean), which is what lets equal Python values stand for equal JSON values here.
"""

from __future__ import annotations

from typing import Any

Operation = dict[str, Any]


def diff(before: Any, after: Any) -> list[Operation]:
    """The operations that turn the JSON value ``before`` into ``after`` (neither is changed,
    and the operations share no list or object with ``before``)."""
    operations: list[Operation] = []
    _diff(before, after, "", operations)
    return operations


def replace_all(after: Any) -> list[Operation]:
    """The whole document anew, as one ``replace`` of the root (a new shoe)."""
    return [{"op": "replace", "path": "", "value": after}]


def _diff(before: Any, after: Any, path: str, operations: list[Operation]) -> None:
    if before == after and type(before) is type(after):
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                operations.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in after.items():
            where = f"{path}/{_escape(key)}"
            if key in before:
                _diff(before[key], value, where, operations)
            else:
                operations.append({"op": "add", "path": where, "value": value})
        return
    if isinstance(before, list) and isinstance(after, list) and len(after) >= len(before):
        for index, old in enumerate(before):  # after is at least as long
            _diff(old, after[index], f"{path}/{index}", operations)
        for value in after[len(before) :]:
            operations.append({"op": "add", "path": f"{path}/-", "value": value})
        return
    operations.append({"op": "replace", "path": path, "value": after})


def _escape(key: str) -> str:
    """A key as a JSON Pointer token (RFC 6901): ``~`` is ``~0`` and ``/`` is ``~1``."""
    return key.replace("~", "~0").replace("/", "~1")
