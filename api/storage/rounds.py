"""The rounds store: what a write is computed from, committing a write's plan, and a shoe's
rounds as stored.

Rounds are the source of truth (no TTL). A plan (:class:`api.plan.plan.Write`) is committed by
one script on the table's slot, with the shoe's new version, its scorecard state and the lobby
update, or not at all: the script compares what the plan was computed from with what is stored
(:mod:`api.storage.writescripts`). :meth:`RoundStore.commit` takes any number of plans, of any
tables: one round trip per node, every node at once. Whether Redis is one server or a cluster is
decided here and nowhere above: on one server each write's lobby step rides in the same round
trip, reading the update the write kept; on a cluster the committed updates follow in one more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from api.codecs import records
from api.codecs.lobbyupdate import Stored
from api.codecs.roundfacts import BurnedBefore, burned_before_text
from api.plan.plan import Write
from api.storage.failures import NotFound, Retired
from api.storage.integrity.watchapply import IntegrityApply, count_alerts
from api.storage.integrity.watchstore import utc_day
from api.storage.keys import Keyspace
from api.storage.known import KnownVersions
from api.storage.lobbyscript import LobbyPublish, raised_kinds
from api.storage.states import ShoeRecords, ShoeStates
from api.storage.transport import Transport, queue_each
from api.storage.writelog import Clock
from api.storage.writescripts import (
    KEEP_BURNED,
    AppendBase,
    AppendRound,
    ReadForAppend,
    ReplaceRound,
    WriteReply,
    write_reply,
)
from roads import Scorecard


class RoundStore:
    """Reads and writes of every shoe's rounds (one per process, wired in the app factory)."""

    def __init__(
        self,
        transport: Transport,
        keys: Keyspace,
        versions: KnownVersions,
        states: ShoeStates,
        *,
        state_ttl: int,
        clock: Clock,
        integrity: IntegrityApply | None = None,
        hands: int | None = None,
    ) -> None:
        self.transport = transport
        self.clock = clock  # the ``at`` of a write's log entry ("" while the record is off)
        self.keys = keys
        self.versions = versions
        self.states = states
        self.state_ttl = state_ttl
        # The lobby script applies the integrity watch's part too (None: the watch is off).
        # ``hands``: the shoe the chance in a ``good_road`` start event is stated for.
        self.publish = LobbyPublish(keys.lobby, integrity, hands)

    # -- what a write is computed from -------------------------------------------------------

    def read_bases(self, shoes: Sequence[tuple[str, str]]) -> list[AppendBase]:
        """For each (table, shoe), what an append to it is computed from, read at one instant
        per shoe: one round trip per node, every node at once."""
        bases = self._read_bases(shoes)
        cold = [
            at
            for at, ((table, shoe), base) in enumerate(zip(shoes, bases, strict=True))
            if base.count == 0 and self._warm_for_append(table, shoe, base)
        ]
        if cold:  # brought back from the record: read them again
            for at, base in zip(cold, self._read_bases([shoes[at] for at in cold]), strict=True):
                bases[at] = base
        return bases

    def kept_burned_before(self, table: str) -> bytes | None:
        """The cards the table's meta keeps as burned before a shoe's first round, as kept
        (:func:`api.codecs.roundfacts.burned_before` reads them)."""
        return self.transport.command("HGET", self.keys.table(table).meta, "burn_pending")

    def keep_burned_before(
        self, table: str, shoe: str, kept: bytes | None, burned: BurnedBefore
    ) -> bool | None:
        """Keep ``burned`` as burned before ``shoe``'s first round, in place of what the meta
        ``kept`` when read; ``False`` when the shoe has a round or the meta changed since,
        ``None`` when the table has no meta (none, or lost: the record restores it)."""
        keys = self.keys.shoe(table, shoe)
        kept_now = self.transport.script(
            KEEP_BURNED,
            meta_key=keys.table.meta,
            rounds_key=keys.rounds,
            expected=kept or b"",
            pending=burned_before_text(shoe, burned),
        )
        return None if kept_now < 0 else bool(kept_now)

    def rounds_in(self, table: str, shoe: str) -> int:
        """How many rounds the shoe has (0: none, or no such shoe)."""
        (base,) = self.read_bases([(table, shoe)])
        return base.count

    def _warm_for_append(self, table: str, shoe: str, base: AppendBase) -> bool:
        """Whether an append found no rounds because the shoe, or its table, is only in the
        record now (and brought it back): a table whose meta Redis lost, a shoe that left."""
        cold = self.states.cold
        if cold is None:
            return False
        if base.current is None:
            return cold.restore_table(table, remembered=False)
        return base.current != shoe and cold.warm(table, shoe)

    def _read_bases(self, shoes: Sequence[tuple[str, str]]) -> list[AppendBase]:
        reads = [ReadForAppend(self.keys.shoe(table, shoe)) for table, shoe in shoes]
        if len(reads) == 1:  # with the client's own routing to fall back on, on a cluster
            (read,) = reads
            return [read.parse(self.transport.send_one(read.keys.table.meta, read.queue, read.run))]
        found: list[AppendBase | None] = [None] * len(reads)
        for positions, replies in self.transport.on_each_node(
            list(range(len(reads))),
            lambda at: reads[at].keys.table.meta,
            lambda positions: queue_each([reads[at].queue for at in positions]),
            wait=False,
        ):
            for position, reply in zip(positions, replies, strict=True):
                found[position] = reads[position].parse(reply)
        return found  # type: ignore[return-value]

    def scorecard_at(
        self, table: str, shoe: str, version: int, state: bytes | None
    ) -> Scorecard | None:
        """The shoe's scorecard at ``version`` (see :meth:`ShoeStates.at`)."""
        return self.states.at(self.keys.shoe(table, shoe), version, state)

    def record(self, table: str, shoe: str, number: int) -> dict[str, Any] | None:
        """Round ``number``'s stored record, if there is one."""
        stored = self.transport.command("LINDEX", self.keys.shoe(table, shoe).rounds, number - 1)
        return records.decode(stored) if stored is not None else None

    def records(self, table: str, shoe: str) -> ShoeRecords:
        """The shoe's version, records and retired mark (brought back from the record first if
        it left Redis)."""
        found = self.states.records(self.keys.shoe(table, shoe))
        if found.version is None and self.states.warm(table, shoe):
            found = self.states.records(self.keys.shoe(table, shoe))
        return found

    # -- committing ----------------------------------------------------------------------------

    def commit(self, plans: Sequence[Write], by: str = "") -> list[WriteReply]:
        """Commit each plan that still fits its shoe (see the module doc); each plan's reply, in
        order (``by``: the name of the key that made the writes, for the record's log). This
        process then knows each committed shoe's version. With
        ``ROADS_WRITE_REPLICAS`` set, raise :class:`~api.storage.failures.NotReplicated` when the
        replicas do not confirm the writes in time (they stand on the masters; a retry is safe)."""
        # Recorded for this process's readers, if any: a commit does not start the version watch.
        token = self.versions.token_if_following()
        together = self.transport.cross_slot
        calls = [self._script(plan, by) for plan in plans]
        day = utc_day()  # the integrity watch notes the writes' rounds under it
        per_write = 2 if together else 1  # the write script, and on one server the lobby's
        replies: list[WriteReply | None] = [None] * len(plans)
        waited: list[int] = []
        raised: list[str] = []

        def steps(call: AppendRound | ReplaceRound) -> list[Callable[[Any], None]]:
            """The write script, and on one server the lobby step that reads its update."""
            if not together:
                return [call.queue]
            lobby = partial(
                self.publish.queue_stored,
                table=call.table,
                stored_key=call.keys.table.lobby_update,
                day=day,
            )
            return [call.queue, lobby]

        for positions, sent in self.transport.on_each_node(
            list(range(len(plans))),
            lambda at: calls[at].keys.table.meta,
            lambda positions: queue_each([step for at in positions for step in steps(calls[at])]),
        ):
            for place, position in enumerate(positions):
                replies[position] = write_reply(sent[per_write * place])
                if together and len(sent) > per_write * place + 1:
                    raised.extend(raised_kinds(sent[per_write * place + 1]))
            if self.transport.settings.write_replicas:
                waited.append(sent[-1])
        updates = []
        for plan, call, reply in zip(plans, calls, replies, strict=True):
            assert reply is not None
            if reply.committed:
                self.versions.saw(plan.table, plan.shoe, reply.version, token)
                if plan.head is not None:
                    self.versions.saw_current(plan.table, plan.shoe, reply.seq, token)
                if not together:
                    updates.append(
                        (plan.table, Stored(reply.seq, reply.current, call.lobby_update))
                    )
        raised.extend(self.publish_lobby([(table, stored.encode()) for table, stored in updates]))
        count_alerts(raised)
        if waited:
            self.transport.check_replicated(min(waited))
        return replies  # type: ignore[return-value]

    def _script(self, plan: Write, by: str) -> AppendRound | ReplaceRound:
        keys = self.keys.shoe(plan.table, plan.shoe)
        common = {
            "keys": keys,
            "table": plan.table,
            "version": plan.base_version,
            "record": records.encode(plan.record),
            "state": plan.state,
            "state_ttl": self.state_ttl,
            "channel": self.keys.versions_channel,
            "lobby_update": plan.lobby.encode(),
            "at": self.clock(),
            "by": by,
        }
        if plan.head is not None:
            game_id = plan.record.get("game_id", "")
            return AppendRound(
                head=plan.head,
                variant=plan.variant,
                game_id=game_id,
                burned_before=plan.burned_before,
                **common,
            )
        return ReplaceRound(shoe=plan.shoe, index=plan.number - 1, kind=plan.kind, **common)

    def committed_again(self, table: str) -> None:
        """Before answering a write that was already stored (a client's retry) as done: make
        sure it reached the replicas, and hand its table's last lobby update to the lobby again
        (the first answer may have been lost before the lobby had it)."""
        keys = self.keys.table(table)
        self.transport.confirm_replicated(keys.meta)
        count_alerts(
            self.publish_lobby([(table, self.transport.command("GET", keys.lobby_update))])
        )

    def publish_lobby(self, updates: Sequence[tuple[str, bytes | str | None]]) -> list[str]:
        """Hand committed writes' lobby updates, as the write scripts stored them (``None``:
        nothing stored), to the lobby's node in one round trip; the kinds of the integrity
        alerts they raised."""
        stored = [(table, update) for table, update in updates if update is not None]
        if not stored:
            return []
        day = utc_day()

        def fill(commands: Any) -> None:
            for table, update in stored:
                self.publish.queue(commands, table, update, day)

        replies = self.transport.pipeline(self.keys.lobby.seq, fill, wait=False)
        return [kind for reply in replies for kind in raised_kinds(reply)]

    # -- reading -------------------------------------------------------------------------------

    def shoe_rounds(
        self, table: str, shoe: str, *, archived: bool = False
    ) -> tuple[int, list[dict]]:
        """The shoe's version and every round record in order, void ones included. A retired
        table's shoes are read only from the archive (``archived``): otherwise :class:`Retired`,
        and an archive read of a table that is not retired is :class:`NotFound`."""
        version, stored, retired = self.records(table, shoe)
        if retired and not archived:
            raise Retired(table)
        if archived and not retired:
            raise NotFound(f"table {table} is not retired")
        if version is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        return version, stored
