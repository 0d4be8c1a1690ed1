"""A table's pay table: the bets it offers and what each pays on each way a round can end.

**A bet is a list of rules; the first rule a round meets decides.** A rule pays ``X`` to 1 (the
stake comes back with it), or pushes (the stake comes back alone); a round that meets none loses
the stake. So Banker at 0.95 to 1 is ``[{"when": {"winner": "banker"}, "pays": 0.95},
{"when": {"winner": "tie"}, "pays": "push"}]``, and EZ Baccarat's Banker puts a push on its
three-card 7 before its 1 to 1.

**What a rule may name** (its ``when``, every condition met at once), so that the engine prices
it exactly from the cards left (:mod:`roads.pricing`):

- of the round's end (:data:`ROUND_CONDITIONS`): ``winner`` (``player``, ``banker``, ``tie``),
  ``natural`` (the round ended on a natural: true or false), ``total`` (the winner's final
  total, a tie's for a tie), ``player_total``, ``banker_total``, ``player_cards`` and
  ``banker_cards`` (2 or 3), ``cards`` (the round's, 4 to 6) and ``margin`` (the winner's points
  over the loser's, 1 to 9); a number condition takes one value or a list of them;
- of the hands' first two cards, one of: ``pair`` (the same rank: ``player``, ``banker``,
  ``either``, ``both`` or ``one``, exactly one hand) or ``perfect`` (the same rank and suit:
  ``either``, ``both``, ``one``). A bet's rules name one kind only: the end of the round and the
  first cards' pairs are priced apart, never jointly.

Bet names are ``snake_case``. Anything else (a condition the engine cannot price, a value out of
range, a negative pay, a bet without rules, two kinds in one bet) is a :class:`PayTableError`
naming it. Pays are kept as exact fractions (0.95 is 19/20).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: The conditions on a round's end, each with the values it takes.
ROUND_CONDITIONS: dict[str, tuple[Any, ...]] = {
    "winner": ("player", "banker", "tie"),
    "natural": (True, False),
    "total": tuple(range(10)),
    "player_total": tuple(range(10)),
    "banker_total": tuple(range(10)),
    "player_cards": (2, 3),
    "banker_cards": (2, 3),
    "cards": (4, 5, 6),
    "margin": tuple(range(1, 10)),
}
#: The conditions on the hands' first two cards (one per rule), each with the values it takes.
PAIR_CONDITIONS: dict[str, tuple[str, ...]] = {
    "pair": ("player", "banker", "either", "both", "one"),
    "perfect": ("either", "both", "one"),
}
#: The most bets a pay table offers, and rules a bet has (a bound on what a request may ask).
MOST_BETS, MOST_RULES = 40, 24
MOST_PAYS = 10_000
_NAME = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")
PUSH = "push"


class PayTableError(ValueError):
    """A pay table that cannot be: the message names where (``bets.NAME.rules[i]...``)."""


@dataclass(frozen=True, slots=True)
class Rule:
    """``when``: its conditions, sorted (name, value or values); ``back``: what it brings back
    per unit staked, stake included (a pay of ``X`` to 1 brings ``X + 1``, a push 1)."""

    when: tuple[tuple[str, Any], ...]
    back: Fraction

    def as_dict(self) -> dict[str, Any]:
        when = {
            name: list(value) if isinstance(value, tuple) else value for name, value in self.when
        }
        pays = PUSH if self.back == 1 else _number(self.back - 1)
        return {"when": when, "pays": pays}


@dataclass(frozen=True, slots=True)
class Bet:
    """A bet: its ``name``, its ``rules`` in order, and the ``kind`` of what they name
    (``round``, ``pair`` or ``perfect``)."""

    name: str
    rules: tuple[Rule, ...]
    kind: str


@dataclass(frozen=True, slots=True)
class PayTable:
    """A pay table: its ``name``, its ``bets`` in the order answers list them, and where its
    pays are published (``source``)."""

    name: str
    bets: tuple[Bet, ...]
    source: str = ""
    # Its hash, once: every price looks the table's compiled form up by it.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.name, self.bets, self.source)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def offered(self) -> tuple[str, ...]:
        return tuple(bet.name for bet in self.bets)

    def as_dict(self) -> dict[str, Any]:
        bets = {bet.name: [rule.as_dict() for rule in bet.rules] for bet in self.bets}
        return {"name": self.name, "source": self.source, "bets": bets}


def pay_table(document: Mapping[str, Any]) -> PayTable:
    """The pay table ``document`` states (``{"name", "source"?, "bets": {NAME: [RULE...]}}``),
    checked; raises :class:`PayTableError` naming what cannot be."""
    if not isinstance(document, Mapping):
        raise PayTableError("a pay table is an object with name and bets")
    name = document.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > 40:
        raise PayTableError("name: 1-40 characters of snake_case")
    source = document.get("source", "")
    if not isinstance(source, str) or len(source) > 500:
        raise PayTableError("source: text of at most 500 characters")
    bets = document.get("bets")
    if not isinstance(bets, Mapping) or not 1 <= len(bets) <= MOST_BETS:
        raise PayTableError(f"bets: an object of 1 to {MOST_BETS} bets")
    extra = set(document) - {"name", "source", "bets"}
    if extra:
        raise PayTableError(f"{sorted(extra)[0]}: a pay table has name, source and bets")
    return PayTable(name, tuple(_bet(bet, rules) for bet, rules in bets.items()), source)


def _bet(name: Any, rules: Any) -> Bet:
    where = f"bets.{name}"
    if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > 40:
        raise PayTableError(f"{where}: a bet's name is 1-40 characters of snake_case")
    if not isinstance(rules, list) or not 1 <= len(rules) <= MOST_RULES:
        raise PayTableError(f"{where}: a list of 1 to {MOST_RULES} rules")
    parsed = [_rule(f"{where}.rules[{at}]", rule) for at, rule in enumerate(rules)]
    kinds = {kind for kind, _ in parsed}
    if len(kinds) > 1:
        raise PayTableError(
            f"{where}: its rules name {' and '.join(sorted(kinds))}: the engine prices a round's "
            "end and the first cards' pairs apart, one kind a bet"
        )
    return Bet(name, tuple(rule for _, rule in parsed), kinds.pop())


def _rule(where: str, rule: Any) -> tuple[str, Rule]:
    if not isinstance(rule, Mapping) or set(rule) != {"when", "pays"}:
        raise PayTableError(f"{where}: a rule is an object of when and pays")
    when, pays = rule["when"], rule["pays"]
    if not isinstance(when, Mapping) or not when:
        raise PayTableError(f"{where}.when: an object of one condition or more")
    conditions = tuple(
        sorted(_condition(f"{where}.when.{name}", name, value) for name, value in when.items())
    )
    pairs = [name for name, _ in conditions if name in PAIR_CONDITIONS]
    if pairs and len(conditions) > 1:
        raise PayTableError(f"{where}.when: {pairs[0]} stands alone (a pair is priced apart)")
    kind = pairs[0] if pairs else "round"
    return kind, Rule(conditions, _back(f"{where}.pays", pays))


def _condition(where: str, name: Any, value: Any) -> tuple[str, Any]:
    allowed = ROUND_CONDITIONS.get(name) or PAIR_CONDITIONS.get(name)
    if allowed is None:
        known = ", ".join((*ROUND_CONDITIONS, *PAIR_CONDITIONS))
        raise PayTableError(f"{where}: the engine cannot price {name!r} (it prices {known})")
    values = value if isinstance(value, list) else [value]
    if not values or len(values) > 10:
        raise PayTableError(f"{where}: one value, or a list of 1 to 10")
    for one in values:
        if type(one) is not type(allowed[0]) or one not in allowed:
            shown = ", ".join(str(a).lower() if isinstance(a, bool) else str(a) for a in allowed)
            raise PayTableError(f"{where}: {one!r} is not one of {shown}")
    if isinstance(value, list):
        if name in PAIR_CONDITIONS:
            raise PayTableError(f"{where}: one value")
        return name, tuple(sorted(set(values)))
    return name, value


def _back(where: str, pays: Any) -> Fraction:
    if pays == PUSH:
        return Fraction(1)
    if isinstance(pays, bool) or not isinstance(pays, int | float):
        raise PayTableError(f'{where}: a number of units to 1, or "push"')
    if not 0 <= pays <= MOST_PAYS:
        raise PayTableError(f"{where}: {pays} is not a pay from 0 to {MOST_PAYS} to 1")
    # A decimal pay as written (0.95 is 19/20, not the float nearest it).
    exact = Fraction(str(pays)) if isinstance(pays, float) else Fraction(pays)
    if exact.denominator > 10_000:
        raise PayTableError(f"{where}: at most four decimals")
    return exact + 1


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)
