"""Side bets whose exact return passed 100%, and the operator's policy of closing side bets
after a round (seed 003: Player/Banker Pair and Perfect/Either Pair after 60 rounds, the
Player/Banker Bonus and Super 6 after 44).

A policy is written ``ROUNDS`` (every side bet) or ``bet=ROUNDS,...`` (those bets; the others
stay open): a bet closed after ``n`` rounds is offered on rounds 1 to ``n``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The bets that are not side bets (the main game).
MAIN_BETS = frozenset({"player", "banker", "tie"})


@dataclass(frozen=True, slots=True)
class ClosePolicy:
    """After how many rounds each side bet closes (a bet not named stays open)."""

    after: Mapping[str, int] = field(default_factory=dict)
    every: int | None = None  # the bound of every side bet not named

    @classmethod
    def parse(cls, text: str) -> ClosePolicy:
        """Read ``"44"`` or ``"player_bonus=44,player_pair=60"``; :class:`ValueError` names
        what is wrong."""
        text = text.strip()
        if not text:
            return cls()
        if text.isdigit():
            return cls(every=int(text))
        after: dict[str, int] = {}
        for part in text.split(","):
            bet, _, rounds = part.partition("=")
            if not rounds.strip().isdigit() or not bet.strip():
                raise ValueError(f"{part!r} is not bet=ROUNDS")
            after[bet.strip()] = int(rounds)
        return cls(after=after)

    def closes_after(self, bet: str) -> int | None:
        return self.after.get(bet, self.every)

    def is_open(self, bet: str, number: int) -> bool:
        """Whether ``bet`` is offered on round ``number``."""
        bound = self.closes_after(bet)
        return bound is None or number <= bound

    def as_dict(self, bets: list[str], number: int) -> dict[str, Any]:
        """The policy for ``bets``, and which are open on round ``number``."""
        return {
            bet: {"closes_after": self.closes_after(bet), "open": self.is_open(bet, number)}
            for bet in bets
            if bet not in MAIN_BETS
        }


def exposed(shoe_odds: Mapping[str, Any]) -> dict[str, float]:
    """The side bets whose exact return on the next round is above 100% (the odds known from the
    cards only: an unknown shoe exposes nothing)."""
    if not shoe_odds.get("composition_known"):
        return {}
    return {bet: rtp for bet, rtp in shoe_odds["rtp"].items() if bet not in MAIN_BETS and rtp > 1.0}
