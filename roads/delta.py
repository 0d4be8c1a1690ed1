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

from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from roads.document import Ends, ends_of
from roads.round import Round
from roads.scorecard import Scorecard
from roads.smallparts import SmallParts, small_ops

Operation = dict[str, Any]


def diff(before: Any, after: Any) -> list[Operation]:
    """The operations that turn the JSON value ``before`` into ``after`` (neither is changed,
    and the operations share no list or object with either: a document a scorecard handed out
    shares its parts with the one it keeps, :mod:`roads.document`)."""
    operations: list[Operation] = []
    _diff(before, after, "", operations)
    for operation in operations:
        if isinstance(operation.get("value"), dict | list):
            operation["value"] = deepcopy(operation["value"])
    return operations


def replace_all(after: Any) -> list[Operation]:
    """The whole document anew, as one ``replace`` of the root (a new shoe); the operation
    shares nothing with ``after``."""
    return [{"op": "replace", "path": "", "value": deepcopy(after)}]


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


@dataclass(frozen=True, slots=True)
class Tails:
    """What the patch of a round needs to know of a scorecard before it: how far each growing
    list of its document reached (:data:`roads.document.Ends`) and its small parts as they were
    (:class:`roads.smallparts.SmallParts`, which the scorecard keeps: taken in O(1) when it was
    asked for in that state already, without building the document)."""

    ends: Ends
    small: SmallParts

    @classmethod
    def of(cls, card: Scorecard) -> Tails:
        return cls(ends_of(card.big_road, card.derived, len(card)), card.small_parts())


def round_patch(before: Tails, card: Scorecard, round: Round) -> list[Operation]:
    """The patch of one round: from the document of a scorecard whose :class:`Tails` were
    ``before`` to the document of ``card``, that scorecard after :meth:`Scorecard.add` of
    ``round`` (void or not). Built from what the round added (:func:`roads.document.growth_of`)
    and the small parts' leaves that moved (:func:`roads.smallparts.small_ops`), in O(change);
    it equals :func:`diff` of the two documents (the tests hold it to that)."""
    operations = card.growth(before.ends, round).ops()
    small_ops(before.small, card.small_parts(), operations)
    return operations
