"""Custom Good Roads: a pattern of the player's own, written as the lengths of the Big Road's last
columns (``"X1 Y2 X1 Y2"``), read by :func:`parse_expression`. Its written form is also a regular
expression, :data:`EXPRESSION_SYNTAX`, the same in Python and in JSON Schema, so the API can state
the grammar in its OpenAPI document.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from roads.errors import RoadsError
from roads.patterns import Pattern, Reach


class PatternError(RoadsError):
    """A custom pattern expression that cannot be read."""


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

    # "X3" tells 3 from 4; "X3+" tells nothing apart from 3 up
    cap = max(n if more else n + 1 for _, n, more in terms)
    reach = Reach(len(terms), cap)
    return Pattern(
        f"custom:{canonical}", canonical, f"the last columns read {canonical}", test, reach
    )
