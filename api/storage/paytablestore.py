"""The pay tables a deployment names besides the presets (:data:`roads.presets.PRESETS`), in
``{lobby}:paytables`` (name -> :mod:`api.codecs.paytables` text).

**A name means one pay table for ever.** A round's record names the pay table it was priced
under (``paytable``), and a table names its pay table by name everywhere it is shown (its answer,
its tile, the lobby's frames), so a name is never given to another pay table: defining a taken
name with a different document is refused (:class:`PayTableTaken`), and the same document again
changes nothing. A table changes its pay table by naming another one. So a process keeps every
pay table it has read for as long as it runs, and reads a name from Redis once.
"""

from __future__ import annotations

from api.codecs import paytables
from api.storage.keys import LobbyKeys
from api.storage.luascript import Script
from api.storage.transport import Transport
from roads.paytables import PayTable
from roads.presets import PRESETS

DEFINE_PAYTABLE = Script(__package__, "define_paytable.lua")
#: The most pay tables of its own a deployment keeps (each a few KB; the presets not counted).
MOST_PAYTABLES = 200


class PayTableTaken(Exception):
    """The name is another pay table's (or the deployment keeps as many as it may)."""


class UnknownPayTable(KeyError):
    """No preset and no pay table of the deployment has the name. Met where a table names it,
    the deployment's list lost it (Redis lost ``{lobby}:paytables`` but not the table): a 503
    saying so (:mod:`api.http.errorreplies`), never a 500."""

    def __str__(self) -> str:
        return (
            f"the pay table {self.args[0]} is not kept (Redis lost the deployment's pay tables): "
            "PUT its table again with the whole pay table"
        )


class PayTableStore:
    """The deployment's pay tables: :meth:`define` one, :meth:`resolve` a name."""

    def __init__(self, transport: Transport, keys: LobbyKeys) -> None:
        self.transport = transport
        self.key = keys.paytables
        self._known: dict[str, PayTable] = {}

    def define(self, table: PayTable) -> None:
        """Keep ``table`` under its name. Raises :class:`PayTableTaken` when the name is a
        preset's or another pay table's, or when :data:`MOST_PAYTABLES` are kept already. Asks
        Redis even when this process knows the name: a PUT with the whole pay table is how a
        deployment that lost ``{lobby}:paytables`` gets it back (:class:`UnknownPayTable`)."""
        if table.name in PRESETS:
            if PRESETS[table.name] == table:
                return
            raise PayTableTaken(
                f"paytable.name: {table.name} is a preset's; name a pay table of your own otherwise"
            )
        done = self.transport.script(
            DEFINE_PAYTABLE,
            paytables_key=self.key,
            name=table.name,
            document=paytables.encode(table),
            most=MOST_PAYTABLES,
        )
        if done == 0:
            raise PayTableTaken(
                f"paytable.name: {table.name} names another pay table; a name is one pay table "
                "for ever (give this one a new name)"
            )
        if done == -1:
            raise PayTableTaken(f"paytable: the deployment keeps {MOST_PAYTABLES} pay tables")
        self._known[table.name] = table

    def resolve(self, name: str) -> PayTable:
        """The pay table ``name`` names: a preset, or one the deployment defined. Raises
        :class:`UnknownPayTable` for a name neither has."""
        found = PRESETS.get(name) or self._known.get(name)
        if found is not None:
            return found
        stored = self.transport.command("HGET", self.key, name)
        if stored is None:
            raise UnknownPayTable(name)
        table = self._known[name] = paytables.decode(stored)
        return table

    def own(self, name: str) -> PayTable | None:
        """The deployment's own pay table ``name`` names; ``None`` for a preset's name (what a
        write carries beside the name: a preset is known everywhere by it)."""
        return None if name in PRESETS else self.resolve(name)

    def kept(self, table: PayTable) -> bool:
        """Whether ``table`` is a preset or kept already under its name (naming it defines
        nothing new)."""
        try:
            return self.resolve(table.name) == table
        except UnknownPayTable:
            return False

    def names(self) -> list[str]:
        """Every pay table's name: the presets', then the deployment's own, sorted."""
        own = sorted(name.decode() for name in self.transport.command("HKEYS", self.key))
        return [*PRESETS, *own]
