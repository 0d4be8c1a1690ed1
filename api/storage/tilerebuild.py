"""Tiles stored in an older format made again from their shoe's rounds, once, before the lobby
serves them.

An upgrade finds every table's tile summary as the earlier release stored it, and during a
rolling upgrade that release goes on storing its own format beside this one. A summary of an
older format (:attr:`api.codecs.tiles.Tile.stale`) may lack what this release's tiles hold (the
roads of releases before 0.8.0): the lobby (:class:`api.storage.lobbystore.Lobby`) hands every
stale one it reads here, and reads again. Each is made from its shoe's scorecard at the shoe's
current version (:meth:`api.storage.states.ShoeStates.current`) as a write would have made it
(:func:`api.plan.lobbyplan.rebuilt_summary`), and put in place by ``tile_rebuild.lua`` only if
the stale summary is still the one stored: a write since (of either release) wins, and of
several processes rebuilding at once one replaces it. No table waits for its next round.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from api.codecs.jsontext import loads
from api.plan.lobbyplan import rebuilt_summary
from api.storage.failures import Contended, NotFound
from api.storage.keys import LobbyKeys
from api.storage.luascript import Script
from api.storage.paytablestore import PayTableStore
from api.storage.states import ShoeStates
from api.storage.transport import Transport
from roads.rarity import LobbyFigures

log = logging.getLogger("roads.lobby")

TILE_REBUILD = Script(__package__, "tile_rebuild.lua")

Stale = tuple[str, bytes, bytes]  # table, its registry entry, its summary as stored


class TileRebuild:
    """Makes stale tile summaries again (see the module doc); ``hands``: the shoe a run's chance
    is stated for, as the writer states it (``None``: no chances in tiles)."""

    def __init__(
        self,
        transport: Transport,
        keys: LobbyKeys,
        states: ShoeStates,
        hands: int | None,
        paytables: PayTableStore,
    ) -> None:
        self.transport = transport
        self.keys = keys
        self.states = states
        self.hands = hands
        self.paytables = paytables

    def rebuild(self, stale: Sequence[Stale], tables: int) -> int:
        """Put a summary made from its shoe's rounds in place of each of ``stale`` still stored
        (``tables``: how many the lobby lists, for the chances a tile states); how many were
        replaced. A shoe that cannot be read now (gone, retired, changing) keeps its summary."""
        figures = LobbyFigures(self.hands, max(tables, 1)) if self.hands is not None else None
        made: list[str | bytes] = []
        for table, entry, stored in stale:
            shoe = loads(stored)["shoe"]
            try:
                version, scorecard = self.states.current(table, shoe)
            except (NotFound, Contended):
                continue  # a retired table, or one being written: its next read tries again
            paytable = self.paytables.resolve(loads(entry).get("variant", "standard"))
            fresh = rebuilt_summary(shoe, version, scorecard, variant=paytable, figures=figures)
            made += [table, stored, fresh]
        if not made:
            return 0
        replaced = int(
            self.transport.script(
                TILE_REBUILD,
                summaries_key=self.keys.summaries,
                seq_key=self.keys.seq,
                rebuilt=made,
            )
        )
        if replaced:
            log.info("made %d lobby tiles of an older format again", replaced)
        return replaced
