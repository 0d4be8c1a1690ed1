"""One round of a shoe: its result and what is known about it.

A round reaches the service in one of two ways, and both become a :class:`Round`:

- with its cards (:meth:`Round.from_cards`): everything is derived and the drawing rules are
  checked, so a hand that drew when it had to stand (or the reverse) is refused;
- as a reported result (:meth:`Round.from_result`): ``B``/``P``/``T`` plus optional pair flags,
  natural flag and totals; totals, when given, must agree with the result.

A round is immutable. A cancelled round keeps its place in the shoe with ``void=True`` and never
enters a road (seed 000: a void round is refunded and shown with an X in the history).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from roads.cards import Card, parse_cards
from roads.errors import RoundError, RuleError
from roads.rules import BANKER_DRAWS_ON, banker_draws, hand_total, is_natural, player_draws

Result = Literal["B", "P", "T"]
RESULTS: tuple[str, ...] = ("B", "P", "T")


@dataclass(frozen=True, slots=True)
class Round:
    """A round's outcome. Build it with :meth:`from_cards` or :meth:`from_result`, which validate;
    the plain constructor trusts its arguments (it is what deserialization uses)."""

    result: Result
    player_total: int | None = None
    banker_total: int | None = None
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False
    player_cards: tuple[Card, ...] = ()
    banker_cards: tuple[Card, ...] = ()
    void: bool = False

    @classmethod
    def from_cards(cls, player: Any, banker: Any) -> Round:
        """Derive a round from the cards of each hand, in deal order, checking every rule.

        ``player`` and ``banker`` are lists of :class:`Card` or card strings (``"AS"``).
        Raises :class:`~roads.errors.CardError` for a bad card and
        :class:`~roads.errors.RuleError` naming the rule a hand broke.
        """
        player_cards = parse_cards(player, "Player")
        banker_cards = parse_cards(banker, "Banker")
        check_drawing(player_cards, banker_cards)
        player_total = hand_total(player_cards)
        banker_total = hand_total(banker_cards)
        if player_total > banker_total:
            result = "P"
        elif banker_total > player_total:
            result = "B"
        else:
            result = "T"
        return cls(
            result=result,
            player_total=player_total,
            banker_total=banker_total,
            player_pair=player_cards[0].rank == player_cards[1].rank,
            banker_pair=banker_cards[0].rank == banker_cards[1].rank,
            natural=len(player_cards) == 2
            and len(banker_cards) == 2
            and (
                is_natural(hand_total(player_cards[:2])) or is_natural(hand_total(banker_cards[:2]))
            ),
            player_cards=player_cards,
            banker_cards=banker_cards,
        )

    @classmethod
    def from_result(
        cls,
        result: Any,
        *,
        player_pair: Any = False,
        banker_pair: Any = False,
        natural: Any = False,
        player_total: Any = None,
        banker_total: Any = None,
    ) -> Round:
        """A round reported without cards. Flags not reported are taken as false.

        Raises :class:`~roads.errors.RoundError` when a value has the wrong type or range, when
        both totals are given and disagree with the result, or when a natural is claimed with
        both totals known and neither is 8 or 9.
        """
        if result not in RESULTS:
            raise RoundError(f"result must be 'B', 'P' or 'T', not {result!r}")
        for name, flag in (
            ("player_pair", player_pair),
            ("banker_pair", banker_pair),
            ("natural", natural),
        ):
            if not isinstance(flag, bool):
                raise RoundError(f"{name} must be true or false, not {flag!r}")
        for name, total in (("player_total", player_total), ("banker_total", banker_total)):
            if total is not None and (
                isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 9
            ):
                raise RoundError(f"{name} must be a whole number from 0 to 9, not {total!r}")
        if player_total is not None and banker_total is not None:
            implied = (
                "P" if player_total > banker_total else "B" if banker_total > player_total else "T"
            )
            if implied != result:
                raise RoundError(
                    f"totals Player {player_total}, Banker {banker_total} mean {implied!r}, "
                    f"but the result is {result!r}"
                )
            if natural and max(player_total, banker_total) < 8:
                raise RoundError(
                    f"a natural needs an 8 or 9, but the totals are Player {player_total}, "
                    f"Banker {banker_total}"
                )
        return cls(
            result=result,
            player_total=player_total,
            banker_total=banker_total,
            player_pair=player_pair,
            banker_pair=banker_pair,
            natural=natural,
        )

    @property
    def has_cards(self) -> bool:
        """Whether the round was reported with its cards."""
        return bool(self.player_cards)

    @property
    def player_perfect_pair(self) -> bool:
        """The Player's first two cards are identical in rank and suit (needs the cards)."""
        return bool(self.player_cards) and self.player_cards[0] == self.player_cards[1]

    @property
    def banker_perfect_pair(self) -> bool:
        """The Banker's first two cards are identical in rank and suit (needs the cards)."""
        return bool(self.banker_cards) and self.banker_cards[0] == self.banker_cards[1]

    @property
    def banker_six(self) -> bool:
        """Banker won with a total of 6 (the Super 6 bet; half pay on no-commission Banker)."""
        return self.result == "B" and self.banker_total == 6

    @property
    def winning_total(self) -> int | None:
        """The winner's total (for a tie, the tied total), or ``None`` when it was not reported."""
        if self.result == "B":
            return self.banker_total
        if self.player_total is not None:
            return self.player_total
        return self.banker_total if self.result == "T" else None

    @property
    def margin(self) -> int | None:
        """Points by which the winner won (0 for a tie), or ``None`` without both totals.

        With :attr:`natural` this decides the Player/Banker Bonus: a natural win pays 1:1,
        otherwise a win by 9/8/7/6/5/4 points pays 30/10/6/4/2/1.
        """
        if self.player_total is None or self.banker_total is None:
            return None
        return abs(self.player_total - self.banker_total)

    def cards(self) -> tuple[Card, ...]:
        """Every card of the round, Player's then Banker's (empty when reported without cards)."""
        return self.player_cards + self.banker_cards

    def voided(self) -> Round:
        """The same round, cancelled."""
        return replace(self, void=True)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready description of the round."""
        return {
            "result": self.result,
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
            "natural": self.natural,
            "player_cards": [str(card) for card in self.player_cards] or None,
            "banker_cards": [str(card) for card in self.banker_cards] or None,
            "player_perfect_pair": self.player_perfect_pair,
            "banker_perfect_pair": self.banker_perfect_pair,
            "banker_six": self.banker_six,
            "void": self.void,
        }


def check_drawing(player: tuple[Card, ...], banker: tuple[Card, ...]) -> None:
    """Raise :class:`RuleError` naming the broken rule if the hands were not dealt by the rules."""
    for name, hand in (("Player", player), ("Banker", banker)):
        if not 2 <= len(hand) <= 3:
            raise RuleError(f"the {name} hand must have 2 or 3 cards, not {len(hand)}")
    player_two = hand_total(player[:2])
    banker_two = hand_total(banker[:2])
    if is_natural(player_two) or is_natural(banker_two):
        if len(player) == 3 or len(banker) == 3:
            naturals = " and ".join(
                f"the {name} has a natural {total}"
                for name, total in (("Player", player_two), ("Banker", banker_two))
                if is_natural(total)
            )
            drew = "Player" if len(player) == 3 else "Banker"
            raise RuleError(f"{naturals}: both hands stand, but the {drew} drew a third card")
        return
    must_draw = player_draws(player_two)
    if must_draw and len(player) == 2:
        raise RuleError(f"the Player stood on {player_two}; the Player draws on 0-5")
    if not must_draw and len(player) == 3:
        raise RuleError(f"the Player drew on {player_two}; the Player stands on 6-7")
    player_third = player[2].points if len(player) == 3 else None
    should = banker_draws(banker_two, player_third)
    if should == (len(banker) == 3):
        return
    if player_third is None:
        rule = "with the Player standing, the Banker draws on 0-5 and stands on 6-7"
    else:
        rule = f"on {banker_two} the Banker {_banker_rule(banker_two)}"
    did = "drew" if len(banker) == 3 else "stood"
    when = "" if player_third is None else f" after the Player's third card worth {player_third}"
    raise RuleError(f"the Banker {did} on {banker_two}{when}; {rule}")


def _banker_rule(banker_two: int) -> str:
    """The third-card table's line for one Banker total, in words."""
    values = sorted(BANKER_DRAWS_ON[banker_two])
    if len(values) == 10:
        return "always draws"
    if not values:
        return "always stands"
    if len(values) == 9:
        missing = (set(range(10)) - set(values)).pop()
        return f"draws unless the Player's third card is worth {missing}"
    return f"draws only when the Player's third card is worth {values[0]}-{values[-1]}"
