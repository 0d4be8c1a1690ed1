"""Which built-in Good Roads a Big Road matches, by its state: an automaton over the road's last
columns, each state's answer worked out once.

Every built-in pattern states its :class:`~roads.patterns.Reach`: its test reads only the last
``columns`` columns and makes no difference between lengths of ``cap`` or more. Whether it
matches is then a function of a small state of the road: its last side and the capped lengths of
its last few columns (the columns' sides alternate, so the last one says them all). The patterns
fall in :data:`GROUPS` by reach, each group with one state: (8 columns, lengths capped at 2) and
(4 columns, capped at 4). A state's matched patterns, a bit mask over the patterns, are worked
out by the patterns' own tests on the state's road the first time the state is met, and kept: a
group has at most ``2 * (cap ** (columns + 1) - 1) / (cap - 1)`` states, 1,700 for both. A cell
moves the road to its next state, read off the last columns in O(1), so which patterns match now
costs a lookup per group, and since when each has held steps back only as far as it has held.

A pattern whose reach fits no group (none of the built-in ones) is tested on the road itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from roads.patterns import PATTERNS, Pattern, Reach
from roads.shoe import MAX_ROUNDS

GROUPS: tuple[tuple[int, int], ...] = ((8, 2), (4, 4))  # (columns, cap) of each group's state
# _CAPPED[g][length]: a length as group g's state holds it (lengths up to a shoe's rounds).
_CAPPED = tuple(tuple(min(n, cap) for n in range(MAX_ROUNDS + 2)) for _, cap in GROUPS)
_OTHER = {"B": "P", "P": "B"}

# The last side ("" for an empty road), the capped lengths of the last columns.
State = tuple[str, tuple[int, ...]]


def group_of(reach: Reach | None) -> int | None:
    """The first group whose state holds all a pattern of this reach reads (``None``: none)."""
    for index, (columns, cap) in enumerate(GROUPS):
        if reach is not None and reach.columns <= columns and reach.cap <= cap:
            return index
    return None


def state_road(state: State) -> tuple[list[str], list[int]]:
    """The road a state stands for: its columns' sides (alternating, ending with the last
    side) and their capped lengths."""
    last, lengths = state
    count = len(lengths)
    sides = [last if (count - 1 - index) % 2 == 0 else _OTHER[last] for index in range(count)]
    return sides, list(lengths)


class PatternStates:
    """The patterns a road matches, by state, for a fixed tuple of patterns."""

    def __init__(self, patterns: Sequence[Pattern]) -> None:
        self.patterns = tuple(patterns)
        groups = [group_of(pattern.reach) for pattern in self.patterns]
        self._members = [
            [i for i, group in enumerate(groups) if group == index] for index in range(len(GROUPS))
        ]
        self._tested = [i for i, group in enumerate(groups) if group is None]
        self._answers: list[dict[State, int]] = [{} for _ in GROUPS]
        self._ordered: dict[int, tuple[Pattern, ...]] = {}

    def mask(self, sides: Sequence[str], lengths: Sequence[int]) -> int:
        """The patterns the road matches now, as a bit mask (bit ``i``: ``patterns[i]``)."""
        last, found = sides[-1] if sides else "", 0
        for index, (columns, _) in enumerate(GROUPS):
            capped = _CAPPED[index]
            state = (last, tuple(map(capped.__getitem__, lengths[-columns:])))
            answer = self._answers[index].get(state)
            if answer is None:
                answer = self._answers[index][state] = self._answer(index, state)
            found |= answer
        return found | self._tested_mask(sides, lengths) if self._tested else found

    def _answer(self, group: int, state: State) -> int:
        sides, lengths = state_road(state)
        found = 0
        for i in self._members[group]:
            if self.patterns[i].test(sides, lengths):
                found |= 1 << i
        return found

    def _tested_mask(self, sides: Sequence[str], lengths: Sequence[int]) -> int:
        found = 0
        for i in self._tested:
            if self.patterns[i].test(sides, lengths):
                found |= 1 << i
        return found

    def matching(self, sides: Sequence[str], lengths: Sequence[int]) -> tuple[Pattern, ...]:
        """The patterns the road matches now, in their order."""
        mask = self.mask(sides, lengths)
        found = self._ordered.get(mask)
        if found is None:
            patterns = self.patterns
            found = tuple(patterns[i] for i in range(len(patterns)) if mask >> i & 1)
            self._ordered[mask] = found
        return found

    def since(self, sides: Sequence[str], lengths: Sequence[int]) -> dict[str, int]:
        """Each pattern the road matches now, by id, with how many cells ago its current
        uninterrupted match began (0: with the latest cell), as :func:`roads.goodroads.since`
        finds it: stepping back one cell at a time while it still held."""
        mask = self.mask(sides, lengths)
        open_ = mask
        backs: dict[int, int] = {}
        sides, lengths = list(sides), list(lengths)
        back = 0
        while open_:
            if lengths[-1] > 1:
                lengths[-1] -= 1
            else:
                sides.pop()
                lengths.pop()
            held = self.mask(sides, lengths) if lengths else 0
            ended = open_ & ~held
            for i in _bits(ended):
                backs[i] = back
            open_ &= held
            back += 1
        return {self.patterns[i].id: backs[i] for i in _bits(mask)}


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    found = []
    index = 0
    while mask:
        if mask & 1:
            found.append(index)
        mask >>= 1
        index += 1
    return found


#: The built-in patterns' states (:data:`roads.patterns.PATTERNS`).
BUILT_IN = PatternStates(PATTERNS)
