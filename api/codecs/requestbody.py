"""A request's JSON body, decoded in one step for every endpoint that takes one, within limits
that no valid body comes near, so that no body can make the decoder fail in a way of its own (a
``RecursionError`` deep inside, Python's 4,300-digit limit on integer text) or carry a value no
field would take whole (an integer past 64 bits, ``NaN``):

- the body is UTF-8 and JSON (RFC 8259: no ``NaN`` or ``Infinity``);
- arrays and objects nest at most :data:`MAX_DEPTH` deep (the deepest valid body, a batch of
  rounds with their cards, nests 4);
- a number has at most :data:`MAX_DIGITS` digits (an unsigned 64-bit integer has 20).

The body's length is bounded before it is read (``ROADS_MAX_BODY``, :mod:`api.http.bodies`).
Each refusal is a :class:`BodyError` naming the limit.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 16
MAX_DIGITS = 20


class BodyError(ValueError):
    """A body refused: ``message`` says which limit, or what is not JSON."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BodyError(f"a number in the body has more than {MAX_DIGITS} digits")
    return int(text)


def _real(text: str) -> float:
    mantissa = text.lstrip("-").split("e")[0].split("E")[0]
    if sum(char.isdigit() for char in mantissa) > MAX_DIGITS or len(text) > 2 * MAX_DIGITS:
        raise BodyError(f"a number in the body has more than {MAX_DIGITS} digits")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BodyError("a number in the body is too large for a double")
    return value


def _constant(name: str) -> Any:
    raise BodyError(f"{name} is not JSON")


def decode_body(data: bytes) -> Any:
    """The value of a JSON body. Raises :class:`BodyError`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BodyError(f"the body is not UTF-8 (byte {error.start})") from None
    _check_depth(text)
    try:
        return json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise BodyError(f"the body is not valid JSON: {error}") from None


def _check_depth(text: str) -> None:
    """Refuse nesting past :data:`MAX_DEPTH` before the decoder descends into it: the brackets
    outside strings, counted."""
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_DEPTH:
            raise BodyError(f"the body nests deeper than {MAX_DEPTH} levels")


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
