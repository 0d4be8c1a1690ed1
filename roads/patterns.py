"""Good Roads: patterns of the Big Road that lobbies list and notify about, in two profiles.

A pattern is judged on the Big Road's LOGICAL columns with ties ignored, as the road stands after
the latest round; the last column is the one in progress. In a pattern's name X is its side and
Y the other.

**The classic profile** (``classic``): the twelve named after the multi-table lobby's (seed 003;
the definitions are this product's, defaults as below, thresholds configurable):

- X Streak: the last column is X with length >= 4.
- X Ping Pong: the last 4 columns all have length 1, and the last column is X.
- X One-Two (one X, two Y): the last 4 columns alternate X of length 1 and Y of length 2; a Y
  column in progress with length 1 may end it.
- X Sandwich: the last 3 X columns each have length 1; Y columns may have any length.
- X Separated: the last 4 X columns alternate length 1 and length >= 2, in either order; Y
  columns may have any length.
- Change to X: the last column is X and the column before it is a Y streak of length >= 4.

Also: Double Jump (the last 4 columns all have length exactly 2; the last one may be in progress)
and Sticky Pairs (the last 3 columns all have length >= 2).

**The Asian profile** (``asia``): the twelve good roads lobbies for Chinese-speaking players alert
on, each with its id (the name's pinyin) and its rule:

- 长庄 ``chang_zhuang`` / 长闲 ``chang_xian``: the last column is Banker (Player) with length >= 4.
- 单跳 ``dan_tiao``: the last 4 columns all have length 1 (B and P alternate, 4 times or more).
- 双跳 ``shuang_tiao``: the last 4 columns all have length exactly 2 (BB PP BB PP).
- 一厅两房 ``yi_ting_liang_fang``: the last 4 columns have lengths 1, 2, 1, 2 (BPP BPP, or
  PBB PBB: one side's single, the other side's pair, twice).
- 逢庄跳 ``feng_zhuang_tiao`` / 逢闲跳 ``feng_xian_tiao``: the last 3 Banker (Player) columns each
  have length 1; the other side's columns may have any length.
- 逢庄黐 ``feng_zhuang_chi`` / 逢闲黐 ``feng_xian_chi``: the last column is Banker (Player), and the
  2 Banker (Player) columns before it each have length >= 2.
- 拍拍黐 ``pai_pai_chi``: the last 2 columns both have length >= 2.
- 隔黐庄 ``ge_chi_zhuang`` / 隔黐闲 ``ge_chi_xian``: the last 4 Banker (Player) columns have lengths
  1, >= 2, 1, >= 2 (a single of that side turns into a column of two or more, twice); the other
  side's columns may have any length.

Every built-in pattern (:data:`PATTERNS`, both profiles) has an id of its own; :data:`PROFILES`
lists each profile's. A player's own patterns are column-length expressions
(:mod:`roads.expressions`); which patterns a road matches, and since when, is
:mod:`roads.goodroads`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

SIDES = ("B", "P")
SIDE_NAMES = {"B": "Banker", "P": "Player"}

# A pattern test: (sides, lengths) of the logical columns -> whether the road matches now.
Test = Callable[[Sequence[str], Sequence[int]], bool]


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
class Reach:
    """How much of a road a pattern's test reads: only the last ``columns`` columns, and no
    difference between lengths of ``cap`` or more. A road's state kept to that much is all the
    test needs, which keeps the chance of the pattern (:mod:`roads.rarity`) a small, exact sum."""

    columns: int
    cap: int


@dataclass(frozen=True)
class Pattern:
    """A Good Road: its id, display name, one-line description and test, and how much of the
    road the test reads (``None``: not stated)."""

    id: str
    name: str
    description: str
    test: Test
    reach: Reach | None = None

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
                Reach(1, t.streak),
            ),
            Pattern(
                f"{key}_ping_pong",
                f"{name} Ping Pong",
                f"the last {t.ping_pong} columns are single results, the last one {name}",
                ping_pong(side, t),
                Reach(t.ping_pong, 2),
            ),
            Pattern(
                f"{key}_one_two",
                f"{name} One-Two",
                f"the last {t.one_two} columns alternate one {name} and two {other}",
                one_two(side, t),
                Reach(t.one_two, 3),
            ),
            Pattern(
                f"{key}_sandwich",
                f"{name} Sandwich",
                f"the last {t.sandwich} {name} columns are single, between {other} columns",
                sandwich(side, t),
                Reach(2 * t.sandwich, 2),
            ),
            Pattern(
                f"{key}_separated",
                f"{name} Separated",
                f"the last {t.separated} {name} columns alternate single and two or more",
                separated(side, t),
                Reach(2 * t.separated, 2),
            ),
            Pattern(
                f"change_to_{key}",
                f"Change to {name}",
                f"{name} wins right after a {other} streak of {t.change} or more",
                change_to(side, t),
                Reach(2, t.change),
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
            Reach(t.double_jump, 3),
        ),
        Pattern(
            "sticky_pairs",
            "Sticky Pairs",
            f"the last {t.sticky_pairs} columns are two or more each",
            sticky_pairs(t),
            Reach(t.sticky_pairs, 2),
        ),
    ]
    return tuple(patterns)


# -- the Asian profile ------------------------------------------------------------------------


def last_lengths(*wanted: Callable[[int], bool]) -> Test:
    """The last ``len(wanted)`` columns' lengths, oldest first, each pass its check."""
    n = len(wanted)
    return lambda sides, lengths: (
        len(lengths) >= n
        and all(check(length) for check, length in zip(wanted, lengths[-n:], strict=True))
    )


def side_lengths(side: str, *wanted: Callable[[int], bool]) -> Test:
    """The last ``len(wanted)`` columns of ``side``, oldest first, each pass its check."""
    n = len(wanted)

    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        own = _last_of_side(sides, lengths, side, n)
        return len(own) == n and all(check(x) for check, x in zip(wanted, own, strict=True))

    return test


def sticks_again(side: str) -> Test:
    """The last column is ``side`` and its 2 columns before it each have length >= 2."""

    def test(sides: Sequence[str], lengths: Sequence[int]) -> bool:
        if not sides or sides[-1] != side:
            return False
        before = _last_of_side(sides[:-1], lengths[:-1], side, 2)
        return len(before) == 2 and all(length >= 2 for length in before)

    return test


def one(length: int) -> bool:
    return length == 1


def two(length: int) -> bool:
    return length == 2


def two_or_more(length: int) -> bool:
    return length >= 2


def build_asia_patterns() -> tuple[Pattern, ...]:
    """The Asian profile's twelve, in its lobbies' order (see the module doc)."""
    long_ = {side: streak(side, Thresholds(streak=4)) for side in SIDES}
    return (
        Pattern(
            "chang_zhuang",
            "Long Banker",
            "the last column is Banker with 4 or more in a row",
            long_["B"],
            Reach(1, 4),
        ),
        Pattern(
            "chang_xian",
            "Long Player",
            "the last column is Player with 4 or more in a row",
            long_["P"],
            Reach(1, 4),
        ),
        Pattern(
            "dan_tiao",
            "Ping Pong",
            "the last 4 columns are single results: Banker and Player alternate",
            last_lengths(one, one, one, one),
            Reach(4, 2),
        ),
        Pattern(
            "shuang_tiao",
            "Double Ping Pong",
            "the last 4 columns are two each: BB PP BB PP",
            last_lengths(two, two, two, two),
            Reach(4, 3),
        ),
        Pattern(
            "yi_ting_liang_fang",
            "One Hall Two Rooms",
            "the last 4 columns are one, two, one, two: BPP BPP or PBB PBB",
            last_lengths(one, two, one, two),
            Reach(4, 3),
        ),
        Pattern(
            "feng_zhuang_tiao",
            "Banker Always Jumps",
            "the last 3 Banker columns are single",
            side_lengths("B", one, one, one),
            Reach(6, 2),
        ),
        Pattern(
            "feng_xian_tiao",
            "Player Always Jumps",
            "the last 3 Player columns are single",
            side_lengths("P", one, one, one),
            Reach(6, 2),
        ),
        Pattern(
            "feng_zhuang_chi",
            "Banker Always Sticks",
            "Banker again after 2 Banker columns of two or more",
            sticks_again("B"),
            Reach(5, 2),
        ),
        Pattern(
            "feng_xian_chi",
            "Player Always Sticks",
            "Player again after 2 Player columns of two or more",
            sticks_again("P"),
            Reach(5, 2),
        ),
        Pattern(
            "pai_pai_chi",
            "Side by Side Sticks",
            "the last 2 columns are two or more each",
            last_lengths(two_or_more, two_or_more),
            Reach(2, 2),
        ),
        Pattern(
            "ge_chi_zhuang",
            "Banker Sticks Every Other",
            "the last 4 Banker columns are one, two or more, one, two or more",
            side_lengths("B", one, two_or_more, one, two_or_more),
            Reach(8, 2),
        ),
        Pattern(
            "ge_chi_xian",
            "Player Sticks Every Other",
            "the last 4 Player columns are one, two or more, one, two or more",
            side_lengths("P", one, two_or_more, one, two_or_more),
            Reach(8, 2),
        ),
    )


CLASSIC: tuple[Pattern, ...] = build_patterns()
ASIA: tuple[Pattern, ...] = build_asia_patterns()
#: Each profile's patterns, in its lobbies' order; ``classic`` first (the default).
PROFILES: dict[str, tuple[Pattern, ...]] = {"classic": CLASSIC, "asia": ASIA}
#: Every built-in pattern: the ones a lobby tracks, whatever profile a player watches.
PATTERNS: tuple[Pattern, ...] = CLASSIC + ASIA
PATTERNS_BY_ID: dict[str, Pattern] = {pattern.id: pattern for pattern in PATTERNS}
