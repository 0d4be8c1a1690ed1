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

from api.codecs.roundfacts import DEALER_NAME_LENGTH, GAME_ID_PATTERN, NAMES
from api.codecs.times import read_rfc3339
from api.http.fieldtypes import DISPLAY_NAME

FACTS = frozenset(NAMES)  # a round's own facts, with either form
CARDS = frozenset({"round", "player", "banker"})
RESULT = frozenset({"round", "result"})
DETAILS = RESULT | {"player_pair", "banker_pair", "natural", "player_total", "banker_total"}
GAME_ID = re.compile(GAME_ID_PATTERN)
SHOWN = re.compile(DISPLAY_NAME)
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
        facts = keys & FACTS
        if facts:
            keys = keys - facts
            loaded = {name: _fact(name, data[name]) for name in facts}
            if None in loaded.values():
                return None
        if keys == CARDS:
            if not (self._hand(data["player"]) and self._hand(data["banker"])):
                return None
        elif not (RESULT <= keys <= DETAILS and all(_detail(n, data[n]) for n in keys)):
            return None
        if facts:
            return {
                name: loaded[name] if name in loaded else _copy(data[name])
                for name in self.order
                if name in data
            }
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


def _fact(name: str, value: Any) -> Any:
    """A fact's value as its field loads it, or ``None`` when it is not plain."""
    if name == "game_id":
        return value if type(value) is str and GAME_ID.fullmatch(value) else None
    if name == "dealt_at":
        try:
            return read_rfc3339(value) if type(value) is str else None
        except ValueError:
            return None
    return _dealer(value)


def _dealer(value: Any) -> dict[str, str] | None:
    """A dealer as its nested schema loads it: ``id``, and ``name`` when given."""
    if type(value) is not dict or not value.keys() <= {"id", "name"}:
        return None
    id, name = value.get("id"), value.get("name", "")
    if type(id) is not str or not GAME_ID.fullmatch(id) or type(name) is not str:
        return None
    if "name" in value and not (
        1 <= len(name) <= DEALER_NAME_LENGTH and SHOWN.fullmatch(name) and _utf8(name)
    ):
        return None
    return {"id": id, "name": name} if "name" in value else {"id": id}


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _copy(value: Any) -> Any:
    """A list as the field makes it: a new one."""
    return list(value) if type(value) is list else value
