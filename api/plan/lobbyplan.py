"""The lobby update a write implies (:class:`api.codecs.lobbyupdate.LobbyUpdate`): the shoe's
tile after it, its Big Road shape, the Good Roads it matches, how each lobby road's run changed,
the bets with an edge under the table's variant, the write's events and the integrity watch's
part."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from api.codecs.jsontext import dumps_text
from api.codecs.lobbyupdate import LobbyUpdate, pairs
from api.codecs.tiles import encode_summary
from api.plan.roadevents import TableEvent, encode_event
from roads import Scorecard
from roads.lobby import RoadShape, run_changes, summary
from roads.odds import pay_table_of
from roads.paytables import PayTable
from roads.rarity import LobbyFigures


def rebuilt_summary(
    shoe: str,
    version: int,
    scorecard: Scorecard,
    *,
    variant: str | PayTable,
    figures: LobbyFigures | None = None,
) -> str:
    """The stored tile summary of a shoe left at ``version`` with ``scorecard``, as a write that
    left it there stores it (its edge from the cards): what the lobby puts in place of a summary
    stored in an older format (:mod:`api.storage.tilerebuild`)."""
    return encode_summary(shoe, version, summary(scorecard, variant, None, figures))


def lobby_update(
    shoe: str,
    version: int,
    scorecard: Scorecard,
    *,
    variant: str | PayTable,
    odds: dict[str, Any] | None = None,
    before: dict[str, Any] | None,
    events: Iterable[TableEvent],
    watch: str = "",
    figures: LobbyFigures | None = None,
    dealer: str = "",
) -> LobbyUpdate:
    """The update of a write that left the shoe at ``version`` with ``scorecard``; ``before``:
    the lobby roads' streaks before it (``None`` for a new or rebuilt shoe: no run grew);
    ``odds``: the shoe's, when worked out already; ``figures``: what the tile states beside
    each current run; ``dealer``: the round's dealer (JSON, ``""`` for none)."""
    tile = summary(scorecard, variant, odds, figures)
    return LobbyUpdate(
        shoe=shoe,
        summary=encode_summary(shoe, version, tile),
        shape=dumps_text(RoadShape.of(scorecard).as_dict()),
        matched=pairs((g["pattern"], g["since_round"]) for g in tile["good_roads"]),
        runs=",".join(
            f"{road}={'+' if change == 'grew' else '-'}"
            for road, change in run_changes(before, tile["streaks"]).items()
        ),
        edges=pairs((bet, f"{rtp:.6f}") for bet, rtp in tile["edge"].items()),
        events=tuple(encode_event(event) for event in events),
        watch=watch,
        dealer=dealer,
        variant=pay_table_of(variant).name,
    )
