"""Baccarat roads: the rules of the game and every scorecard of a live-baccarat shoe.

A pure-Python domain library (no web, no storage, no plotting). Start with :class:`Scorecard`::

    from roads import Round, Scorecard

    card = Scorecard()
    card.add(Round.from_cards(["AS", "9D"], ["KH", "7C"]))
    card.add("B")
    card.as_dict()["big_road"]

The modules:

- the game: :mod:`.cards`, :mod:`.rules` (the drawing rules), :mod:`.round`,
  :mod:`.composition` (the cards dealt from the shoe), :mod:`.shoe` (which round a shoe takes
  next, and the shoe's numbers), :mod:`.variants` (the table variants and their bets),
  :mod:`.errors`;
- the roads: :mod:`.columns`, :mod:`.grid` (with :mod:`.gridspans`, the spans and picture a
  layout keeps of its columns), :mod:`.beadplate`, :mod:`.bigroad`,
  :mod:`.derived`, :mod:`.probe` (Ask Banker / Ask Player);
- one shoe's scorecard: :mod:`.scorecard`, made of :mod:`.scoreparts`, with :mod:`.stats`,
  :mod:`.roundlog` (the rounds, compactly), :mod:`.state`, :mod:`.snapshot` and
  :mod:`.keptstate` (its compact binary state, kept as it grows), :mod:`.shapes` (the JSON
  shapes it returns), :mod:`.scorejson` (the JSON it reads out), :mod:`.smallparts` (its
  probe, next cells, streaks and statistics, once a state),
  :mod:`.document` (its document kept as rounds are added) and :mod:`.delta` (a document's
  change as a JSON Patch);
- the lobby: :mod:`.lobby` (a table's tile), :mod:`.tileroads` (what a tile draws of each road),
  :mod:`.patterns`, :mod:`.goodroads`, :mod:`.patternstates` (the built-in ones matched by
  the road's state) and :mod:`.expressions` (the Good Roads, built in and custom),
  :mod:`.rarity` and :mod:`.derivedsim` (how unusual a run or a Good Road is);
- :mod:`.odds`: exact odds, with :mod:`.oddsmath` (the exact joint distribution of the next
  round, in integers), :mod:`.pricing` (every bet of a pay table priced from it) (numpy, loaded
  only when the odds are used); :mod:`.paytables` (a pay table: its bets and their rules) and
  :mod:`.presets` (the preset pay tables, with where each is published);
- the record's chain: :mod:`.chain`, :mod:`.signedheads` (checked against signed checkpoints)
  and :mod:`.verify` (``python -m roads.verify``);
- the integrity watch's checks, :mod:`.integrity`, and the shoes it must catch
  (:mod:`.badshoes`); :mod:`.simulator`, a seeded shoe simulator.

May import: nothing of the service beyond :mod:`roads` itself (the standard library; numpy for
the odds).
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
from roads.scorecard import Scorecard
from roads.shoe import MAX_ROUNDS, ShoeHead, Verdict, check_append
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
