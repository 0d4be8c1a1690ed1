"""A round's report in the plain forms a game server sends, loaded without marshmallow's fields.

:class:`api.http.requests.RoundInSchema` loads every report; one whose every value is already
what its field would make of it (the cards, or the result with any of its details, each of
exactly its JSON type and within its field's bounds) loads to the same dict, in the fields'
order, at a fortieth of the cost: ingest is the hottest write path. Anything else (an error
above all) goes through the fields, which name the problem. ``tests/http/test_plain_reports.py``
holds the two loads equal over generated reports.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

CARDS = frozenset({"round", "player", "banker"})
RESULT = frozenset({"round", "result"})
DETAILS = RESULT | {"player_pair", "banker_pair", "natural", "player_total", "banker_total"}
RESULTS = ("B", "P", "T")
ROUNDS = range(1, 4097)  # RoundInSchema's round: 1 to 4096
TOTALS = range(10)


class PlainReports:
    """Plain reports loaded as :class:`~api.http.requests.RoundInSchema` loads them, given the
    schema's ``card_pattern`` and its fields' ``order``."""

    def __init__(self, card_pattern: str, order: Sequence[str]) -> None:
        self.card = re.compile(card_pattern)
        self.order = tuple(order)

    def load(self, data: Any) -> dict[str, Any] | None:
        """The loaded report, or ``None`` when ``data`` is not a plain valid one."""
        if type(data) is not dict or type(data.get("round")) is not int:
            return None
        if data["round"] not in ROUNDS:
            return None
        keys = data.keys()
        if keys == CARDS:
            if not (self._hand(data["player"]) and self._hand(data["banker"])):
                return None
        elif not (RESULT <= keys <= DETAILS and all(_detail(n, data[n]) for n in keys)):
            return None
        return {name: _copy(data[name]) for name in self.order if name in data}

    def _hand(self, cards: Any) -> bool:
        return (
            type(cards) is list
            and 2 <= len(cards) <= 3
            and all(type(card) is str and self.card.fullmatch(card) for card in cards)
        )


def _detail(name: str, value: Any) -> bool:
    """Whether a result form's value is plain: ``round`` is checked before."""
    if name == "round":
        return True
    if name == "result":
        return type(value) is str and value in RESULTS
    if name.endswith("_total"):
        return type(value) is int and value in TOTALS
    return type(value) is bool  # the pair and natural flags


def _copy(value: Any) -> Any:
    """A list as the field makes it: a new one."""
    return list(value) if type(value) is list else value
