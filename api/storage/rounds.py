"""The rounds repository: appending a round, correcting or voiding one, and a shoe's history.

Rounds are the source of truth (no TTL); a write commits the round, the shoe's new version, its
new scorecard state and the lobby update it implies together, in one script, or not at all. A
write is computed from what the shoe was (its head, version, variant and scorecard) and the
script commits it only if that is still so (:mod:`api.storage.scripts`); when another writer got
there first, the write is computed again from what Redis holds now.

Which round may come next is :func:`roads.shoe.check_append`. The next round of a shoe this
process wrote last is computed from what that write left (:mod:`.recentwrites`), without reading
the shoe back; a stale guess costs one retry, never a wrong write.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from api.storage.errors import Conflict, Contended, NotFound, Retired
from api.storage.keys import Keyspace, ShoeKeys
from api.storage.known import KnownVersions
from api.storage.lobbyscript import LobbyPublish, Stored, update_of
from api.storage.recentwrites import LastWrite, RecentWrites
from api.storage.records import differences, dumps, record_of, round_of, same_round
from api.storage.roadevents import append_events, rewrite_event
from api.storage.states import MAX_ATTEMPTS, ShoeStates
from api.storage.transport import Transport
from api.storage.writescripts import (
    AppendRound,
    ReadForAppend,
    ReplaceRound,
    WriteReply,
    write_reply,
)
from roads import Round, Scorecard
from roads.delta import Tails
from roads.shoe import ShoeHead, Verdict, check_append


@dataclass(frozen=True, slots=True)
class Written:
    """What a write did: whether it ``changed`` the shoe (false for the identical round sent
    again, a retry), the round's stored ``record``, and the shoe's ``version`` after it."""

    changed: bool
    record: dict[str, Any]
    version: int


@dataclass(frozen=True, slots=True)
class Base:
    """What an append is computed from: the shoe's head, its version, the table's variant and
    the shoe's scorecard (the append adds its round to it, in place)."""

    head: ShoeHead
    version: int
    variant: str
    scorecard: Scorecard

    @classmethod
    def of(cls, write: LastWrite) -> Base:
        return cls(write.head, write.version, write.variant, write.scorecard)


@dataclass(frozen=True, slots=True)
class PendingAppend:
    """An append computed and ready for its script: what it was computed from, the record, and
    the script call (which holds the lobby update)."""

    table: str
    base: Base
    record: dict[str, Any]
    script: AppendRound


class Rounds:
    """Writes and the history of every shoe (one per process, wired in the app factory)."""

    def __init__(
        self,
        transport: Transport,
        keys: Keyspace,
        versions: KnownVersions,
        states: ShoeStates,
        *,
        state_ttl: int,
    ) -> None:
        self.transport = transport
        self.keys = keys
        self.versions = versions
        self.states = states
        self.state_ttl = state_ttl
        self.publish = LobbyPublish(keys.lobby)
        self.recent_writes = RecentWrites()

    # -- appending --------------------------------------------------------------------------

    def append(self, table: str, shoe: str, number: int, round: Round) -> Written:
        """Store round ``number`` of the shoe; the identical round sent again is answered as it
        was (``changed`` false). Raises :class:`Conflict` when the round does not fit the shoe,
        :class:`Contended` when other writers keep winning."""
        keys = self.keys.shoe(table, shoe)
        token = self.versions.token()
        guess = self.recent_writes.take(table, shoe)
        for _ in range(MAX_ATTEMPTS):
            if guess is not None and check_append(guess.head, number) is Verdict.NEXT:
                base: Base | Written | None = Base.of(guess)
            else:
                base = self.read_base(table, shoe, number, round, keys)
            guess = None
            if base is None:
                continue  # the shoe moved on while we read it
            if isinstance(base, Written):
                return base  # the identical round again
            pending = self.prepare_append(table, shoe, number, round, base)
            reply = self.commit(table, keys, pending.script.queue, pending.script.lobby_update)
            done = self.settle_append(pending, reply, token)
            if done is not None:
                return done
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    def read_base(
        self, table: str, shoe: str, number: int, round: Round, keys: ShoeKeys
    ) -> Base | Written | None:
        """What appending round ``number`` is computed from, read from Redis; or the answer to
        the identical round sent again; or ``None`` if the shoe moved on while it was read.
        Raises :class:`Conflict` when the round does not fit the shoe."""
        client = self.transport.client
        call = ReadForAppend(keys)
        read = call.parse(call.run(client))
        head = read.head(shoe)
        verdict = check_append(head, number)
        if verdict is Verdict.REPEAT:
            stored = client.lindex(keys.rounds, number - 1)
            if stored is not None:
                record = json.loads(stored)
                differs = differences(record, round)
                if not differs:
                    # The first answer may have been lost before the replicas or the lobby had it.
                    self.transport.confirm_replicated(keys.table.meta)
                    self.publish_lobby([(table, client.get(keys.table.lobby))])
                    return Written(False, record, record["version"])
                raise Conflict(
                    f"round {number} of shoe {shoe} is already stored with different "
                    f"{' and '.join(differs)}; correct it with PUT .../rounds/{number}",
                    expected_round=head.next_round,
                    differs=differs,
                )
        if verdict is Verdict.CLOSED:
            raise Conflict(closed(shoe, head.current or "?"), expected_round=head.next_round)
        if verdict is not Verdict.NEXT:  # a gap, or a repeat whose record is gone
            raise Conflict(
                f"round {number} is not the next round of shoe {shoe}",
                expected_round=head.next_round,
            )
        scorecard = self.states.at(keys, read.version, read.state)
        if scorecard is None:
            return None
        return Base(head, read.version, read.variant, scorecard)

    def prepare_append(
        self, table: str, shoe: str, number: int, round: Round, base: Base
    ) -> PendingAppend:
        """Add the round to ``base``'s scorecard (in place) and make the script call: the
        record, the new state and the lobby update. Raises a rules error (the scorecard is then
        unchanged) for a round the shoe cannot hold."""
        scorecard, version = base.scorecard, base.version
        tails = Tails.of(scorecard) if base.head.count else None
        before = tails.small["streaks"] if tails else None
        scorecard.add(round)
        record = record_of(number, round, version + 1)
        events = append_events(table, shoe, version + 1, number, round, tails, scorecard)
        update = update_of(
            table, shoe, version + 1, scorecard, variant=base.variant, before=before, events=events
        )
        script = AppendRound(
            keys=self.keys.shoe(table, shoe),
            table=table,
            head=base.head,
            version=version,
            variant=base.variant,
            record=dumps(record),
            state=scorecard.to_bytes(),
            state_ttl=self.state_ttl,
            channel=self.keys.versions_channel,
            lobby_update=update,
        )
        return PendingAppend(table, base, record, script)

    def settle_append(
        self, write: PendingAppend, reply: WriteReply, token: int | None
    ) -> Written | None:
        """The answer when the script committed (this process then knows the new version and
        keeps the scorecard for the shoe's next round); ``None`` when the shoe had moved on
        (compute again)."""
        if not reply.committed:
            return None
        base, table, shoe = write.base, write.table, write.base.head.shoe
        self.versions.saw(table, shoe, reply.version, token)
        self.versions.saw_current(table, shoe, reply.seq, token)
        kept = LastWrite(shoe, reply.version, base.head.count + 1, base.variant, base.scorecard)
        self.recent_writes.keep(table, kept)
        return Written(True, write.record, reply.version)

    # -- corrections ------------------------------------------------------------------------

    def replace(self, table: str, shoe: str, number: int, round: Round) -> Written:
        """Correct round ``number`` (a dealer error fixed after the fact)."""
        return self._rewrite(table, shoe, number, lambda old: round, void=False)

    def void(self, table: str, shoe: str, number: int) -> Written:
        """Cancel round ``number``: it stays in the history, marked, and leaves every road."""
        return self._rewrite(table, shoe, number, lambda old: old.voided(), void=True)

    def _rewrite(
        self, table: str, shoe: str, number: int, change: Callable[[Round], Round], *, void: bool
    ) -> Written:
        keys = self.keys.shoe(table, shoe)
        token = self.versions.token()
        for _ in range(MAX_ATTEMPTS):
            version, records, _ = self.states.records(keys)
            if version is None:
                raise NotFound(f"table {table} has no shoe {shoe}")
            if not 1 <= number <= len(records):
                raise NotFound(f"shoe {shoe} has no round {number} (it has {len(records)})")
            old = records[number - 1]
            if old["void"] and not void:
                raise Conflict(f"round {number} of shoe {shoe} is void and cannot be corrected")
            rounds = [round_of(record) for record in records]
            new = change(rounds[number - 1])
            if old["void"] or (not void and same_round(old, new)):
                self.transport.confirm_replicated(keys.table.meta)
                self.publish_lobby([(table, self.transport.client.get(keys.table.lobby))])
                return Written(False, old, version)
            previous = Scorecard.from_rounds(rounds)
            rounds[number - 1] = new
            scorecard = Scorecard.from_rounds(rounds)
            record = record_of(number, new, version + 1)
            kind = "void" if void else "correction"
            event = rewrite_event(kind, table, shoe, version + 1, number, new, previous, scorecard)
            variant = _variant(self.transport.client.hget(keys.table.meta, "variant"))
            update = update_of(
                table, shoe, version + 1, scorecard, variant=variant, before=None, events=[event]
            )
            script = ReplaceRound(
                keys=keys,
                table=table,
                shoe=shoe,
                version=version,
                index=number - 1,
                record=dumps(record),
                state=scorecard.to_bytes(),
                state_ttl=self.state_ttl,
                void=void,
                channel=self.keys.versions_channel,
                lobby_update=update,
            )
            reply = self.commit(table, keys, script.queue, update)
            if reply.committed:
                self.versions.saw(table, shoe, reply.version, token)
                if reply.current:
                    kept = LastWrite(shoe, reply.version, len(rounds), variant, scorecard)
                    self.recent_writes.keep(table, kept)
                return Written(True, record, reply.version)
        raise Contended(f"shoe {shoe} is changing too fast; retry")

    # -- committing -------------------------------------------------------------------------

    def commit(
        self, table: str, keys: ShoeKeys, queue: Callable[[Any], None], lobby_update: str
    ) -> WriteReply:
        """Run a write script (``queue`` adds it to a pipeline) and hand the lobby update it
        stored to the lobby. With ``ROADS_WRITE_REPLICAS`` set, raise
        :class:`~api.storage.errors.NotReplicated` when the replicas do not confirm it in time
        (the write stands on the master; the client's retry is safe).

        On one Redis server the write, the lobby step and the ``WAIT`` are one round trip (the
        lobby script reads the update from the table's key, and does nothing if the write did
        not commit). On Redis Cluster the write goes straight to the table's master, and the
        lobby, in another slot, gets the update in a second round trip."""
        single = not self.transport.cluster

        def fill(commands: Any) -> None:
            queue(commands)
            if single:
                self.publish.queue_stored(commands, table, keys.table.lobby)

        replies = self.transport.pipeline(keys.table.meta, fill)
        reply = write_reply(replies[0])
        if reply.committed:
            if self.transport.settings.write_replicas:
                self.transport.check_replicated(replies[-1])
            if not single:
                stored = Stored(reply.seq, reply.current, lobby_update).encode()
                self.publish_lobby([(table, stored)])
        return reply

    def publish_lobby(self, updates: Sequence[tuple[str, bytes | str | None]]) -> None:
        """Hand committed writes' lobby updates, as the write scripts stored them (``None``:
        nothing stored), to the lobby's node in one round trip."""
        stored = [(table, update) for table, update in updates if update is not None]
        if not stored:
            return

        def fill(commands: Any) -> None:
            for table, update in stored:
                self.publish.queue(commands, table, update)

        self.transport.pipeline(self.keys.lobby.seq, fill, wait=False)

    # -- reading ----------------------------------------------------------------------------

    def history(self, table: str, shoe: str, *, archived: bool = False) -> tuple[int, list[dict]]:
        """The shoe's version and every round record in order, void ones included. A retired
        table's shoes are read only from the archive (``archived``): otherwise :class:`Retired`,
        and an archive read of a table that is not retired is :class:`NotFound`."""
        version, records, retired = self.states.records(self.keys.shoe(table, shoe))
        if retired and not archived:
            raise Retired(table)
        if archived and not retired:
            raise NotFound(f"table {table} is not retired")
        if version is None:
            raise NotFound(f"table {table} has no shoe {shoe}")
        return version, records


def closed(shoe: str, current: str) -> str:
    return f"shoe {shoe} is closed: the table's current shoe is {current}"


def _variant(stored: bytes | None) -> str:
    return stored.decode() if stored is not None else "standard"
