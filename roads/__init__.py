"""Baccarat roads: the rules of the game and every scorecard of a live-baccarat shoe.

A pure-Python domain library (no web, no storage, no plotting). Start with :class:`Scorecard`::

    from roads import Round, Scorecard

    card = Scorecard()
    card.add(Round.from_cards(["AS", "9D"], ["KH", "7C"]))
    card.add("B")
    card.as_dict()["big_road"]
"""

from roads.cards import CARDS, Card, parse_card
from roads.columns import Streak
from roads.composition import Composition
from roads.derived import BLUE, DERIVED_ROADS, RED, derived_mark
from roads.errors import CardError, RoadsError, RoundError, RuleError, ShoeError
from roads.expressions import PatternError, parse_expression
from roads.grid import ROWS, GridLayout
from roads.patterns import PATTERNS, PROFILES, Pattern
from roads.round import Round
from roads.scorecard import MAX_ROUNDS, Scorecard
from roads.shoe import ShoeHead, Verdict, check_append
from roads.state import StateError
from roads.variants import VARIANTS

__all__ = [
    "BLUE",
    "CARDS",
    "DERIVED_ROADS",
    "MAX_ROUNDS",
    "PATTERNS",
    "PROFILES",
    "RED",
    "ROWS",
    "VARIANTS",
    "Card",
    "CardError",
    "Composition",
    "GridLayout",
    "Pattern",
    "PatternError",
    "RoadsError",
    "Round",
    "RoundError",
    "RuleError",
    "Scorecard",
    "ShoeError",
    "ShoeHead",
    "StateError",
    "Streak",
    "Verdict",
    "check_append",
    "derived_mark",
    "parse_card",
    "parse_expression",
]
