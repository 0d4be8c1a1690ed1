"""Which Good Roads a Big Road matches now, and since when: each pattern's test reads the last
few columns, so matching is O(1) and done when asked, on the road as it stands. Finding since when
a match has held steps back through earlier cells (:func:`since`); :func:`good_roads_after` instead
carries the answer forward one cell, in O(1) per pattern, when the answer before that cell is known.

The built-in patterns (:data:`~roads.patterns.PATTERNS`, passed as that tuple) are matched by the
road's state (:mod:`roads.patternstates`): a lookup or two for all of them, each state's answer
worked out once by their tests. Other patterns (a player's own) are tested on the road.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from roads.patterns import PATTERNS, Pattern
from roads.patternstates import BUILT_IN


def matching(
    sides: Sequence[str], lengths: Sequence[int], patterns: Sequence[Pattern] = PATTERNS
) -> list[Pattern]:
    """The patterns the road matches now."""
    if patterns is PATTERNS:
        return list(BUILT_IN.matching(sides, lengths))
    return [pattern for pattern in patterns if pattern.test(sides, lengths)]


def since(pattern: Pattern, sides: Sequence[str], lengths: Sequence[int]) -> int | None:
    """How many Big Road cells ago the current uninterrupted match began: 0 means it began with
    the latest cell. ``None`` when the road does not match now.

    It steps back one cell at a time (the road as it stood before each earlier result) while the
    pattern still held, so it costs as many steps as the match is old.
    """
    sides, lengths = list(sides), list(lengths)
    if not pattern.test(sides, lengths):
        return None
    back = 0
    while True:
        if lengths[-1] > 1:
            lengths[-1] -= 1
        else:
            sides.pop()
            lengths.pop()
        if not lengths or not pattern.test(sides, lengths):
            return back
        back += 1


def good_roads_of(
    sides: Sequence[str],
    lengths: Sequence[int],
    cell_rounds: Sequence[int],
    patterns: Sequence[Pattern] = PATTERNS,
) -> list[dict[str, object]]:
    """The patterns a Big Road matches now, each with ``since_round``: the (1-based) round of the
    cell from which it has held without a break. ``cell_rounds`` holds the 0-based round index of
    every Big Road cell, in order."""
    if patterns is PATTERNS:
        backs = BUILT_IN.since(sides, lengths)
        return [
            {
                "pattern": pattern.id,
                "name": pattern.name,
                "since_round": cell_rounds[-1 - backs[pattern.id]] + 1,
            }
            for pattern in BUILT_IN.matching(sides, lengths)
        ]
    found: list[dict[str, object]] = []
    for pattern in matching(sides, lengths, patterns):
        back = since(pattern, sides, lengths)
        assert back is not None  # it matches
        found.append(
            {"pattern": pattern.id, "name": pattern.name, "since_round": cell_rounds[-1 - back] + 1}
        )
    return found


def good_roads_after(
    previous: Sequence[Mapping[str, object]],
    sides: Sequence[str],
    lengths: Sequence[int],
    cell_rounds: Sequence[int],
    patterns: Sequence[Pattern] = PATTERNS,
) -> list[dict[str, object]]:
    """:func:`good_roads_of` the road, given ``previous``: its answer for the same road without
    its latest cell. A pattern that held then and holds now has held without a break since the
    same round; one that holds now only began with the latest cell."""
    before = {found["pattern"]: found["since_round"] for found in previous}
    latest = cell_rounds[-1] + 1
    return [
        {"pattern": pattern.id, "name": pattern.name, "since_round": before.get(pattern.id, latest)}
        for pattern in matching(sides, lengths, patterns)
    ]


# The built-in patterns' last answer for a Big Road: (its cell count then, the answer as
# (pattern id, name, since_round) triples).
Known = tuple[int, tuple[tuple[str, str, int], ...]]


def good_roads_carried(
    known: Known | None, sides: Sequence[str], lengths: Sequence[int], cell_rounds: Sequence[int]
) -> tuple[list[dict[str, object]], Known]:
    """The built-in patterns the road matches now, and what to keep for the next call. Asked
    after every cell (a lobby asks after every round), the answer is carried forward from the
    last one (:func:`good_roads_after`); asked again with no new cell, it is the last one."""
    cells = len(cell_rounds)
    if known is not None and known[0] == cells:
        found = [{"pattern": p, "name": n, "since_round": r} for p, n, r in known[1]]
    elif known is not None and known[0] == cells - 1:
        previous = [{"pattern": p, "since_round": r} for p, _, r in known[1]]
        found = good_roads_after(previous, sides, lengths, cell_rounds)
    else:
        found = good_roads_of(sides, lengths, cell_rounds)
    kept = tuple((g["pattern"], g["name"], g["since_round"]) for g in found)
    return found, (cells, kept)  # type: ignore[return-value]
