"""A shoe's integrity checks: what one append tells the watch (:func:`watch_append`, for the
write's plan) and a whole shoe's statistics (:func:`shoe_report`, for the operator's answer).

The shuffle test runs on a write only while the shoe is in its first :attr:`WatchSettings.rounds`
rounds: from the watch this process's write of the round before left
(:func:`~roads.integrity.shuffle.last_round_tests`, a bounded memo of exact states), else from the
shoe's first card; an unshuffled shoe shows in its first rounds, and the report runs the test
over the whole shoe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roads.integrity import cutcard, drift, repeats
from roads.integrity.shuffle import last_round_tests, rounds_test
from roads.integrity.sidebets import MAIN_BETS, ClosePolicy, exposed
from roads.round import Round
from roads.scorecard import Scorecard
from roads.variants import BETS

SIDES = {"T": 0, "B": 1, "P": 2}
SIDES_OF_RESULT = ("banker", "player", "tie")


@dataclass(frozen=True, slots=True)
class WatchSettings:
    """The operator's side of the checks: cards behind the cut card at the least, the side bets'
    closing policy, and how many of a shoe's first rounds each write tests for a shuffle."""

    behind: int = cutcard.DEFAULT_BEHIND
    close: ClosePolicy = field(default_factory=ClosePolicy)
    rounds: int = 16


@dataclass(frozen=True, slots=True)
class Finding:
    """An alert: ``kind`` (``unshuffled``, ``impossible_cards``, ``side_bet_exposed``) and what
    it found (JSON-ready)."""

    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AppendWatch:
    """What appending round ``number`` tells the watch.

    ``anchors``: the k-grams to look up and index, each ``(fingerprint, round of its first card)``;
    ``observed``: the round's outcome as 0/1 per :data:`drift.OUTCOMES` (-1: unknown, not tallied);
    ``side``: 1 Banker, 2 Player, 0 a tie; ``expect``: this round's chances when known now (a shoe's
    first round), else the previous append's ``upcoming`` stands for them; ``upcoming``: the next
    round's chances; ``exposed``: each open side
    bet whose return is above 100%, with its finding."""

    findings: tuple[Finding, ...]
    anchors: tuple[tuple[str, int], ...]
    observed: tuple[int, ...]
    side: int
    expect: tuple[float, ...] | None
    upcoming: tuple[float, ...]
    exposed: tuple[tuple[str, Finding], ...]


def observed(round: Round) -> tuple[int, ...]:
    """The round's outcomes, 1 or 0 each; -1 for those a round without cards leaves unknown
    (its natural and pairs: a bare result says nothing of them)."""
    known = bool(round.player_cards)
    values = {
        "banker": round.result == "B",
        "player": round.result == "P",
        "tie": round.result == "T",
        "natural": round.natural,
        "player_pair": round.player_pair,
        "banker_pair": round.banker_pair,
    }
    return tuple(
        int(values[outcome]) if known or outcome in SIDES_OF_RESULT else -1
        for outcome in drift.OUTCOMES
    )


def watch_append(
    after: Scorecard,
    number: int,
    round: Round,
    odds: Mapping[str, Any],
    fresh: Mapping[str, Any],
    settings: WatchSettings,
) -> AppendWatch:
    """The watch's part of appending ``round`` as round ``number``: ``after`` is the scorecard
    with it, ``odds`` the shoe's odds after it, ``fresh`` a fresh shoe's."""
    findings: list[Finding] = []
    anchors: tuple[tuple[str, int], ...] = ()
    new = len(round.cards())
    # The rounds whose cards the anchors need (4 cards or more a round), and the one before.
    first = max(1, number - 1 - (repeats.GUARANTEE - 2) // 4)
    dealt = after.dealt(first) if new else None
    if dealt is not None:
        cards, numbers = dealt
        found = repeats.anchors(cards, start=len(cards) - new)
        anchors = tuple((anchor.fingerprint, numbers[anchor.position]) for anchor in found)
        if number <= settings.rounds:
            unshuffled = _unshuffled(after, number)
            if unshuffled is not None:
                findings.append(unshuffled)
    past = _past_cut_card(after, number, settings.behind)
    if past is not None:
        findings.append(Finding("impossible_cards", {"round": number, **past}))
    return AppendWatch(
        findings=tuple(findings),
        anchors=anchors,
        observed=observed(round),
        side=SIDES[round.result],
        expect=tuple(drift.chances(fresh)) if number == 1 else None,
        upcoming=tuple(drift.chances(odds)),
        exposed=_exposed(odds, number, settings.close),
    )


def _unshuffled(after: Scorecard, number: int) -> Finding | None:
    """The finding when round ``number`` is the one whose end first shows the shoe unshuffled."""
    dealt = after.dealt(1)
    if dealt is None:
        return None
    previous, test = last_round_tests(_by_round(*dealt), after.decks)
    if not test.unshuffled or (previous is not None and previous.unshuffled):
        return None  # not unshuffled, or raised at an earlier round
    return Finding("unshuffled", {"round": number, **test.as_dict()})


def _by_round(cards: list[int], numbers: list[int]) -> list[list[int]]:
    """The cards grouped by round, in order."""
    groups: dict[int, list[int]] = {}
    for card, number in zip(cards, numbers, strict=True):
        groups.setdefault(number, []).append(card)
    return list(groups.values())


def _past_cut_card(after: Scorecard, number: int, behind: int) -> dict[str, Any] | None:
    """The finding when round ``number`` is the first to start past the cut card's last hand."""
    before = after.cards_used(number - 1)
    previous = None if number == 1 else after.cards_used(number - 2)
    return cutcard.past_cut_card(before, previous, decks=after.decks, behind=behind)


def _exposed(
    odds: Mapping[str, Any], number: int, close: ClosePolicy
) -> tuple[tuple[str, Finding], ...]:
    """Each side bet with the edge on round ``number + 1`` and still open then, with its alert:
    "close it", its return and the cards left."""
    found = []
    for bet, rtp in sorted(exposed(odds).items()):
        if close.is_open(bet, number + 1):
            data = {
                "round": number + 1,
                "bet": bet,
                "rtp": rtp,
                "action": "close it",
                "cards_left": odds["cards_left"],
            }
            found.append((bet, Finding("side_bet_exposed", data)))
    return tuple(found)


def shoe_report(
    scorecard: Scorecard, settings: WatchSettings, offered: Sequence[str] = BETS
) -> dict[str, Any]:
    """A whole shoe's statistics: the shuffle test over every card, the cards used against the
    cut card's bound, and the policy for its next round of the side bets ``offered`` (the
    table's variant's)."""
    dealt = scorecard.dealt(1)
    limit = cutcard.last_start(scorecard.decks, settings.behind)
    return {
        "rounds": len(scorecard),
        "cards_known": dealt is not None,
        "shuffle": rounds_test(_by_round(*dealt), scorecard.decks).as_dict() if dealt else None,
        "cards_used": scorecard.cards_used(),
        "cut_card": {"behind_at_least": settings.behind, "last_start": limit},
        "side_bets": settings.close.as_dict(
            [bet for bet in offered if bet not in MAIN_BETS],
            len(scorecard) + 1,
        ),
    }
