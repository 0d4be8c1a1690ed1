"""A round's stored record: one JSON object per round in the shoe's history list.

The record keeps what the dealer reported (cards, or result and flags) plus what the service
derived and the shoe version it was written at; :func:`round_of` turns it back into a
:class:`roads.Round` (validated again, as any input).
"""

from __future__ import annotations

from typing import Any

from api.codecs.jsontext import dumps_text, loads
from api.codecs.roundfacts import BURNED, NO_FACTS, RoundFacts
from roads import Round, Scorecard

# What makes two reports of a round "the same round" (a dealer retry) or a different one, by
# the name a 409 gives each part that differs.
PARTS = {
    "result": ("result",),
    "cards": ("player_cards", "banker_cards"),
    "totals": ("player_total", "banker_total"),
    "pairs": ("player_pair", "banker_pair"),
    "natural": ("natural",),
}


def record_of(
    number: int, round: Round, version: int, facts: RoundFacts = NO_FACTS
) -> dict[str, Any]:
    """The stored record of round ``number``, written at shoe ``version``, with the round's own
    ``facts`` (:mod:`api.codecs.roundfacts`; a record without them is as it always was)."""
    return {"round": number, **round.as_dict(), **facts.fields(), "version": version}


def encode(record: dict[str, Any]) -> str:
    return dumps_text(record)


def decode(stored: bytes | str) -> dict[str, Any]:
    return loads(stored)


def scorecard_of(records: list[dict[str, Any]]) -> Scorecard:
    """The scorecard of a shoe whose rounds' records are ``records``: their rounds, and the
    cards burned after each (:mod:`api.codecs.roundfacts`) out of the cards left."""
    scorecard = Scorecard.from_rounds([round_of(record) for record in records])
    burned = burned_in(records)
    if burned:
        scorecard.burn(burned)
    return scorecard


def burned_in(records: list[dict[str, Any]]) -> list[str]:
    """Every card burned in a shoe whose rounds' records are ``records``."""
    return [card for record in records for card in record.get(BURNED) or ()]


def round_of(record: dict[str, Any]) -> Round:
    """The :class:`Round` a record describes."""
    if record.get("player_cards"):
        round = Round.from_cards(record["player_cards"], record["banker_cards"])
    else:
        round = Round.from_result(
            record["result"],
            player_pair=record["player_pair"],
            banker_pair=record["banker_pair"],
            natural=record["natural"],
            player_total=record["player_total"],
            banker_total=record["banker_total"],
        )
    return round.voided() if record.get("void") else round


def differences(record: dict[str, Any], round: Round, game_id: str | None = None) -> list[str]:
    """The parts of ``round`` (``result``, ``cards``, ``totals``, ``pairs``, ``natural``) that
    are not what the record holds, and ``game_id`` when one is sent that is not the record's;
    none when it is the same round (a resend is a retry: when and by whom it was dealt are the
    first report's)."""
    reported = round.as_dict()
    differs = [
        part
        for part, names in PARTS.items()
        if any(record.get(name) != reported[name] for name in names)
    ]
    if game_id is not None and record.get("game_id") != game_id:
        differs.append("game_id")
    return differs


def same_round(record: dict[str, Any], round: Round) -> bool:
    """Whether ``round`` is the round the record holds (so a resend is an idempotent retry)."""
    return not differences(record, round)
