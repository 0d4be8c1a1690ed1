"""Which round a shoe takes next: the rule every write path of the service asks.

A table deals one shoe at a time. Round 1 of a new shoe makes that shoe the table's current one
and closes the one before; from then on the shoe takes its rounds in order, n + 1 after n. So a
report of round ``n`` for a shoe is, given the shoe's head (its round count and the table's
current shoe):

- **next** when ``n`` is the shoe's next round and the shoe may take it: it has no round yet (it
  then becomes current), or it is the table's current shoe;
- **repeat** when the shoe already holds round ``n`` (the caller compares the stored round: the
  same one is a retry, another is a conflict);
- **gap** when ``n`` is past the next round (a round was not reported);
- **closed** when ``n`` would be next but another shoe became current since.

The service's Lua scripts keep only the atomic part: they commit a write computed from a head
only if the head is unchanged (its version, count and current shoe, compared and set at once).

The shoe's numbers live here too, the one home every module of :mod:`roads` reads them from
(the service's settings, ``api/config.py``, spell their defaults again: it imports no domain).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: Cards in a deck: each of the 52 distinct cards of :data:`roads.cards.CARDS` once.
DECK_CARDS = 52
#: Decks in a shoe unless a table says otherwise.
DEFAULT_DECKS = 8
#: Cards behind the cut card: many baccarat tables leave about 14 (seed 002's house, 52).
DEFAULT_CUT_CARD = 14
#: The most hands a shoe of 8 decks can deal: its 416 cards, at least 4 a hand (104).
HANDS = DEFAULT_DECKS * DECK_CARDS // 4
#: An 8-deck shoe's hands, on average, with the cut card 14 cards from the back (80.4).
SHOE_HANDS = 80
#: The most rounds a scorecard takes. No 8-deck shoe comes near it; it bounds the state format.
MAX_ROUNDS = 4096


class Verdict(Enum):
    NEXT = "next"
    REPEAT = "repeat"
    GAP = "gap"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class ShoeHead:
    """Where a shoe stands: its id, the rounds it holds (void ones included) and the table's
    current shoe (``None`` for a table that never had one)."""

    shoe: str
    count: int
    current: str | None

    @property
    def next_round(self) -> int:
        return self.count + 1

    @property
    def opens(self) -> bool:
        """Whether the shoe's next round is its first: taking it makes the shoe current."""
        return self.count == 0


def check_append(head: ShoeHead, number: int) -> Verdict:
    """What reporting round ``number`` (1-based) of ``head``'s shoe is (see the module doc)."""
    if number <= head.count:
        return Verdict.REPEAT
    if number != head.next_round:
        return Verdict.GAP
    if head.count and head.current is not None and head.current != head.shoe:
        return Verdict.CLOSED
    return Verdict.NEXT
