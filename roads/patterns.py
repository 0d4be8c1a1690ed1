"""Good Roads: patterns of the Big Road that lobbies list and notify about.

A pattern is judged on the Big Road's LOGICAL columns with ties ignored, as the road stands after
the latest round; the last column is the one in progress. In a pattern's name X is its side and
Y the other. The twelve named after the multi-table lobby's (seed 003; the definitions are this
product's, defaults as below, thresholds configurable):

- X Streak: the last column is X with length >= 4.
- X Ping Pong: the last 4 columns all have length 1, and the last column is X.
- X One-Two (one X, two Y): the last 4 columns alternate X of length 1 and Y of length 2; a Y
  column in progress with length 1 may end it.
- X Sandwich: the last 3 X columns each have length 1; Y columns may have any length.
- X Separated: the last 4 X columns alternate length 1 and length >= 2, in either order; Y
  columns may have any length.
- Change to X: the last column is X and the column before it is a Y streak of length >= 4.

Also: Double Jump (the last 4 columns all have length exactly 2; the last one may be in progress)
and Sticky Pairs (the last 3 columns all have length >= 2), and custom patterns written as
column-length expressions (:func:`parse_expression`).

Each check reads only the last few columns, so matching is O(1) and is done when asked, on the
road as it stands: it is always current without adding work to every round. Finding since when
a match has held steps back through earlier cells; :func:`good_roads_after` instead carries the
answer forward one cell, in O(1) per pattern, when the answer before that cell is known.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from roads.errors import RoadsError

SIDES = ("B", "P")
SIDE_NAMES = {"B": "Banker", "P": "Player"}

# A pattern test: (sides, lengths) of the logical columns -> whether the road matches now.
Test = Callable[[Sequence[str], Sequence[int]], bool]


class PatternError(RoadsError):
    """A custom pattern expression that cannot be read."""


@dataclass(frozen=True)
class Thresholds:
    """The numbers in the pattern definitions (the lobby's defaults)."""

    streak: int = 4
    ping_pong: int = 4
    one_two: int = 4
    sandwich: int = 3
    separated: int = 4
    change: int = 4
    double_jump: int = 4
    sticky_pairs: int = 3


@dataclass(frozen=True)
class Pattern:
    """A Good Road: its id, display name, one-line description and test."""

    id: str
    name: str
    description: str
    test: Test

    def matches(self, sides: Sequence[str], lengths: Sequence[int]) -> bool:
        return self.test(sides, lengths)


def _other(side: str) -> str:
    return "P" if side == "B" else "B"


def _last_of_side(sides: Sequence[str], lengths: Sequence[int], side: str, count: int) -> list[int]:
    """Lengths of the last ``count`` columns of ``side`` (oldest first), or fewer if absent."""
    found = [
        length
        for s, length in zip(sides[-2 * count :], lengths[-2 * count :], strict=True)
        if s == side
    ]
    return found[-count:]


def streak(side: str, t: Thresholds) -> Test:
    return lambda sides, lengths: bool(sides) and sides[-1] == side and lengths[-1] >= t.streak


def ping_pong(side: str, t: Thresholds) -> Test:
    n = t.ping_pong
    return lambda sides, lengths: (
        len(lengths) >= n and sides[-1] == side and all(length == 1 for length in lengths[-n:])
    )


def one_two(side: str, t: Thresholds) -> Test:
    n = t.one_two

    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        if len(lengths) < n:
            return False
        for index in range(len(lengths) - n, len(lengths)):
            if sides[index] == side:
                if lengths[index] != 1:
                    return False
            elif lengths[index] != 2 and not (index == len(lengths) - 1 and lengths[index] == 1):
                return False
        return True

    return test


def sandwich(side: str, t: Thresholds) -> Test:
    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        singles = _last_of_side(sides, lengths, side, t.sandwich)
        return len(singles) == t.sandwich and all(length == 1 for length in singles)

    return test


def separated(side: str, t: Thresholds) -> Test:
    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        own = _last_of_side(sides, lengths, side, t.separated)
        if len(own) < t.separated:
            return False
        shapes = [length == 1 for length in own]
        return all(a != b for a, b in pairwise(shapes))

    return test


def change_to(side: str, t: Thresholds) -> Test:
    return lambda sides, lengths: (
        len(lengths) >= 2 and sides[-1] == side and lengths[-2] >= t.change
    )


def double_jump(t: Thresholds) -> Test:
    n = t.double_jump
    return lambda sides, lengths: (
        len(lengths) >= n
        and all(length == 2 for length in lengths[-n:-1])
        and lengths[-1] in (1, 2)
    )


def sticky_pairs(t: Thresholds) -> Test:
    n = t.sticky_pairs
    return lambda sides, lengths: len(lengths) >= n and all(length >= 2 for length in lengths[-n:])


def build_patterns(t: Thresholds = Thresholds()) -> tuple[Pattern, ...]:
    """The named patterns with these thresholds, in the lobby's order."""
    patterns: list[Pattern] = []
    for side in SIDES:
        name, other = SIDE_NAMES[side], SIDE_NAMES[_other(side)]
        key = name.lower()
        patterns += [
            Pattern(
                f"{key}_streak",
                f"{name} Streak",
                f"the last column is {name} with {t.streak} or more in a row",
                streak(side, t),
            ),
            Pattern(
                f"{key}_ping_pong",
                f"{name} Ping Pong",
                f"the last {t.ping_pong} columns are single results, the last one {name}",
                ping_pong(side, t),
            ),
            Pattern(
                f"{key}_one_two",
                f"{name} One-Two",
                f"the last {t.one_two} columns alternate one {name} and two {other}",
                one_two(side, t),
            ),
            Pattern(
                f"{key}_sandwich",
                f"{name} Sandwich",
                f"the last {t.sandwich} {name} columns are single, between {other} columns",
                sandwich(side, t),
            ),
            Pattern(
                f"{key}_separated",
                f"{name} Separated",
                f"the last {t.separated} {name} columns alternate single and two or more",
                separated(side, t),
            ),
            Pattern(
                f"change_to_{key}",
                f"Change to {name}",
                f"{name} wins right after a {other} streak of {t.change} or more",
                change_to(side, t),
            ),
        ]
    order = [0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11]  # Banker and Player of each kind together
    patterns = [patterns[i] for i in order]
    patterns += [
        Pattern(
            "double_jump",
            "Double Jump",
            f"the last {t.double_jump} columns are two each (the last may be in progress)",
            double_jump(t),
        ),
        Pattern(
            "sticky_pairs",
            "Sticky Pairs",
            f"the last {t.sticky_pairs} columns are two or more each",
            sticky_pairs(t),
        ),
    ]
    return tuple(patterns)


PATTERNS: tuple[Pattern, ...] = build_patterns()
PATTERNS_BY_ID: dict[str, Pattern] = {pattern.id: pattern for pattern in PATTERNS}

_TERM = re.compile(r"([XY])([1-9][0-9]?)(\+?)")
MAX_TERMS = 12


def _written_form() -> str:
    """:data:`EXPRESSION_SYNTAX`: a first term, up to five more pairs of terms, then perhaps one
    more, X and Y alternating throughout (1 + 2 * 5 + 1 = :data:`MAX_TERMS` terms at most)."""
    x, y = (rf"[{side}{side.lower()}][1-9][0-9]?\+?" for side in "XY")
    pairs = (MAX_TERMS - 2) // 2
    return rf"^(?:{x}(?: {y} {x}){{0,{pairs}}}(?: {y})?|{y}(?: {x} {y}){{0,{pairs}}}(?: {x})?)$"


#: An expression as it is written on the wire: what :func:`parse_expression` reads, with terms
#: separated by single spaces. The same text is a Python and a JSON Schema (ECMA) regular
#: expression, so the API can state its grammar in its OpenAPI document.
EXPRESSION_SYNTAX = _written_form()


def parse_expression(text: str) -> Pattern:
    """A custom pattern from a column-length expression such as ``"X1 Y2 X1 Y2"``.

    Terms are separated by spaces; each is a side, ``X`` or ``Y``, then a column length from 1
    to 99, with ``+`` for "that many or more" (``X2+``). Consecutive terms must alternate X and Y
    (a change of winner is what starts a column). The expression matches when the last columns,
    one per term, have those lengths, for either assignment of Banker and Player to X and Y; the
    last column counts as it stands. Raises :class:`PatternError` naming the problem.
    """
    if not isinstance(text, str) or not text.strip():
        raise PatternError("a pattern expression is terms like 'X1 Y2 X1 Y2' (X2+ = 2 or more)")
    words = text.split()
    if len(words) > MAX_TERMS:
        raise PatternError(f"a pattern expression has at most {MAX_TERMS} terms, not {len(words)}")
    terms: list[tuple[str, int, bool]] = []
    for position, word in enumerate(words, start=1):
        match = _TERM.fullmatch(word.upper())
        if match is None:
            raise PatternError(
                f"term {position} {word!r} is not a column: write X or Y, a length 1-99 and "
                "optionally + (for example X1, Y2, X3+)"
            )
        side, length, more = match.groups()
        if terms and terms[-1][0] == side:
            raise PatternError(
                f"terms {position - 1} and {position} are both {side}: consecutive columns "
                "always change sides, so the terms must alternate X and Y"
            )
        terms.append((side, int(length), bool(more)))
    canonical = " ".join(f"{s}{n}{'+' if more else ''}" for s, n, more in terms)

    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        if len(lengths) < len(terms):
            return False
        window = lengths[-len(terms) :]
        return all(
            length >= n if more else length == n
            for (_, n, more), length in zip(terms, window, strict=True)
        )

    return Pattern(f"custom:{canonical}", canonical, f"the last columns read {canonical}", test)


def matching(
    sides: Sequence[str], lengths: Sequence[int], patterns: Sequence[Pattern] = PATTERNS
) -> list[Pattern]:
    """The patterns the road matches now."""
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
