"""Tables: their name, pay table (variant) and limits, their shoes and which one is current;
what the studio reports of them between rounds, logged for the record."""

from __future__ import annotations

from typing import Any

from api.codecs import paytables
from api.codecs.jsontext import dumps_text, loads
from api.storage.coldshoes import ColdShoes
from api.storage.failures import Retired
from api.storage.keys import Keyspace
from api.storage.known import KnownVersions
from api.storage.lobbystore import Lobby
from api.storage.paytablestore import PayTableStore
from api.storage.transport import Transport
from api.storage.writelog import Clock
from api.storage.writescripts import PUT_TABLE, RETIRE_TABLE, STUDIO_LOG, RetireTable
from roads.paytables import PayTable
from roads.presets import PRESETS


class Tables:
    def __init__(
        self,
        transport: Transport,
        keys: Keyspace,
        versions: KnownVersions,
        lobby: Lobby,
        clock: Clock,
        paytables: PayTableStore,
        cold: ColdShoes | None = None,
    ) -> None:
        self.transport = transport
        self.paytables = paytables  # pay tables not presets, by name
        self.keys = keys
        self.versions = versions
        self.lobby = lobby
        self.clock = clock  # the ``at`` of a write's log entry ("" while the record is off)
        self.cold = cold  # tables Redis lost are brought back from the record (when it is on)

    def put(
        self,
        table: str,
        name: str,
        paytable: PayTable | str,
        by: str = "",
        limits: dict[str, Any] | None = None,
        *,
        now: bool = False,
    ) -> None:
        """Name the table and set its pay table (or the name of one) and limits (in the lobby
        too; ``None``: none); a retired table is back. While the table has a current shoe,
        another pay table waits for the next shoe (``put_table.lua``) unless ``now``. A pay
        table not a preset is kept under its name first (:meth:`PayTableStore.define`, which
        raises :class:`~api.storage.paytablestore.PayTableTaken`). ``by``: the name of the key
        that did, for the record's log."""
        if isinstance(paytable, str):  # a name: a preset, or a pay table kept already
            paytable = self.paytables.resolve(paytable)
        self.paytables.define(paytable)  # a preset's name for another pay table: refused
        custom = paytable.name not in PRESETS
        keys = self.keys.table(table)
        in_force, waiting = self.transport.script(
            PUT_TABLE,
            meta_key=keys.meta,
            log_key=keys.log,
            name=name,
            variant=paytable.name,
            at=self.clock(),
            by=by,
            limits=dumps_text(limits) if limits else "",
            now=int(now),
            paytable=paytables.encode(paytable) if custom else "",
        )
        waiting = waiting.decode() if waiting else None
        self.lobby.register(table, name, in_force.decode(), limits, next_variant=waiting)

    def studio(self, table: str, event: str, by: str = "") -> None:
        """Log what the studio reported between rounds (``event``, JSON) for the record, in the
        table's own chain; ``by``: the name of the key that reported it."""
        keys = self.keys.table(table)
        self.transport.script(
            STUDIO_LOG, meta_key=keys.meta, log_key=keys.log, at=self.clock(), by=by, event=event
        )

    def get(self, table: str) -> dict[str, Any] | None:
        """The table's metadata and its current shoe's version and counts, or ``None``.
        Raises :class:`Retired` for a retired table (:meth:`archived` reads it)."""
        info, retired = self._read(table)
        if retired:
            raise Retired(table)
        return info

    def archived(self, table: str) -> dict[str, Any] | None:
        """A retired table as :meth:`get` showed it before, or ``None`` unless it is retired."""
        info, retired = self._read(table)
        return info if retired else None

    def _read(self, table: str) -> tuple[dict[str, Any] | None, bool]:
        keys = self.keys.table(table)
        stored = self.transport.command("HGETALL", keys.meta)
        if not stored and self.cold is not None and self.cold.restore_table(table):
            stored = self.transport.command("HGETALL", keys.meta)
        meta = {k.decode(): v.decode() for k, v in stored.items()}
        if not meta:
            return None, False
        current = meta.get("current")
        version = rounds = void = 0
        shoes: list[str] = []
        if current is not None:
            (version, rounds, void), shoe_ids = self.transport.multi(
                [
                    ("HMGET", self.keys.shoe(table, current).info, "version", "rounds", "void"),
                    ("LRANGE", keys.shoes, 0, -1),
                ]
            )
            version, rounds, void = (int(v or 0) for v in (version, rounds, void))
            shoes = [s.decode() for s in shoe_ids]
        info = {
            "table": table,
            "name": meta.get("name", table),
            "variant": meta.get("variant", "standard"),
            "next_variant": meta.get("next_variant"),
            "paytable": self.paytables.resolve(meta.get("variant", "standard")).as_dict(),
            "limits": loads(meta["limits"]) if "limits" in meta else None,
            "current_shoe": current,
            "version": version,
            "rounds": rounds,
            "rounds_played": rounds - void,
            "void_rounds": void,
            "shoes": shoes,
            "meta_version": int(meta.get("mver", 0)),
        }
        return info, "retired" in meta

    def retire(self, table: str, by: str = "") -> list[str] | None:
        """Retire the table: marked retired on its own slot (every read of it then answers
        :class:`Retired`, :class:`~api.storage.writescripts.RetireTable`), then out of the lobby
        (:meth:`Lobby.retire`). Its rounds stay, read by :meth:`archived` and the archive's
        history; a later write brings it back. Its shoes, or ``None`` for a table never seen.
        ``by``: as :meth:`put`'s."""
        keys = self.keys.table(table)
        token = self.versions.token()
        retiring = None
        while retiring is None:  # until the shoe list read is the one the script finds
            shoes = [shoe.decode() for shoe in self.transport.command("LRANGE", keys.shoes, 0, -1)]
            call = RetireTable(
                table_keys=keys,
                shoe_info=[self.keys.shoe(table, shoe).info for shoe in shoes],
                shoes=shoes,
                channel=self.keys.versions_channel,
                table=table,
                at=self.clock(),
                by=by,
            )
            retiring = call.parse(self.transport.script(RETIRE_TABLE, **call.named()))
        for shoe, version in retiring.versions:  # this process reads its own writes
            self.versions.saw(table, shoe, version, token)
        listed = self.lobby.retire(table)
        if not retiring.found:
            return [] if listed else None
        return shoes

    def variant(self, table: str) -> str:
        """The table's variant (``standard`` until it is set)."""
        stored = self.transport.command("HGET", self.keys.table(table).meta, "variant")
        return stored.decode() if stored is not None else "standard"

    def paytable(self, table: str) -> PayTable:
        """The pay table in force at the table (``standard`` until one is set)."""
        return self.paytables.resolve(self.variant(table))

    def current_shoe(self, table: str) -> str | None:
        """The table's current shoe, known in this process or read from Redis; ``None`` for a
        table without one."""
        known = self.versions.current(table)
        if known is not None:
            return known
        token = self.versions.token()
        meta = self.keys.table(table).meta
        current, seq = self.transport.command("HMGET", meta, "current", "seq")
        if current is None:
            return None
        self.versions.saw_current(table, current.decode(), int(seq or 0), token)
        return current.decode()
