"""Rounds of many tables reported together (a game server running many tables): the first round of
each table goes to Redis with the others, one round trip per node, every node at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from api.storage.errors import Conflict, Contended, NotFound
from api.storage.lobbyscript import Stored
from api.storage.rounds import Base, PendingAppend, Rounds, Written
from api.storage.scripts import at_version
from api.storage.writescripts import AppendBase, ReadForAppend, write_reply
from roads import RoadsError, Round, Scorecard
from roads.shoe import Verdict, check_append

Item = tuple[str, str, int, Round]  # table, shoe, round number, round
Outcome = Written | Exception


def append_many(rounds: Rounds, items: Sequence[Item]) -> list[Outcome]:
    """Store several rounds, of any tables, in order: for each, what :meth:`Rounds.append`
    returns or the exception it raises for that round (:class:`Conflict`, :class:`Contended`
    or a rules error); an unreachable Redis raises for the whole call.

    The first round of each table whose next round it plainly is (known from this process's
    last write, or read in one round trip per node) is committed with the others in one round
    trip per node, to every node at once (each checked by its script as a single append is; on
    Redis Cluster their lobby updates follow in one more); every other round, and any whose
    check failed, then goes through :meth:`Rounds.append` one by one."""
    outcomes: list[Outcome | None] = [None] * len(items)
    _append_pipelined(rounds, items, outcomes)
    for index, (table, shoe, number, round) in enumerate(items):
        if outcomes[index] is None:
            try:
                outcomes[index] = rounds.append(table, shoe, number, round)
            except (Conflict, Contended, NotFound, RoadsError) as error:
                outcomes[index] = error
    return outcomes  # type: ignore[return-value]


def _append_pipelined(
    rounds: Rounds, items: Sequence[Item], outcomes: list[Outcome | None]
) -> None:
    token = rounds.versions.token()
    seen: set[str] = set()
    pending: list[tuple[int, PendingAppend]] = []
    unknown: list[tuple[int, Item]] = []
    for index, item in enumerate(items):
        table, shoe, number, _ = item
        if table in seen:
            continue  # a table's later rounds follow its first one, one by one
        seen.add(table)
        guess = rounds.recent_writes.take_next(table, shoe, number)
        if guess is None:
            unknown.append((index, item))
            continue
        try:
            pending.append((index, rounds.prepare_append(*item, Base.of(guess))))
        except RoadsError as error:
            rounds.recent_writes.keep(table, guess)  # add() left it unchanged
            outcomes[index] = error
    bases = _read_bases(rounds, [item for _, item in unknown])
    for (index, item), base in zip(unknown, bases, strict=True):
        if base is None:
            continue
        try:
            pending.append((index, rounds.prepare_append(*item, base)))
        except RoadsError as error:
            outcomes[index] = error
    if pending:
        _commit_all(rounds, pending, outcomes, token)


def _commit_all(
    rounds: Rounds,
    pending: list[tuple[int, PendingAppend]],
    outcomes: list[Outcome | None],
    token: int | None,
) -> None:
    transport = rounds.transport
    cluster = transport.cluster

    def writes(group: list[tuple[int, PendingAppend]]) -> Callable[[Any], None]:
        def fill(commands: Any) -> None:
            for _, write in group:
                write.script.queue(commands)
                if not cluster:  # on one server, with the lobby step that reads its update
                    rounds.publish.queue_stored(
                        commands, write.table, write.script.keys.table.lobby
                    )

        return fill

    per_write = 1 if cluster else 2  # the write script, and on one server the lobby's
    replicated, published = [], []
    for group, replies in transport.on_each_node(
        pending, lambda entry: entry[1].script.keys.table.meta, writes
    ):
        for position, (index, write) in enumerate(group):
            reply = write_reply(replies[per_write * position])
            outcomes[index] = rounds.settle_append(write, reply, token)
            if cluster and reply.committed:
                stored = Stored(reply.seq, reply.current, write.script.lobby_update).encode()
                published.append((write.table, stored))
        if transport.settings.write_replicas:
            replicated.append(replies[-1])
    rounds.publish_lobby(published)  # on Redis Cluster: every committed write's, in one trip
    if replicated:
        transport.check_replicated(min(replicated))


def _read_bases(rounds: Rounds, wanted: Sequence[Item]) -> list[Base | None]:
    """For each item, what appending it is computed from, read in one round trip per node (all
    at once), where it plainly comes next; else ``None``: :meth:`Rounds.append` then reads
    again and answers (a repeat, a conflict, a rebuild from the rounds)."""
    reads = [ReadForAppend(rounds.keys.shoe(table, shoe)) for table, shoe, _, _ in wanted]
    bases: list[Base | None] = [None] * len(wanted)

    def fill(positions: list[int]) -> Callable[[Any], None]:
        def queue(commands: Any) -> None:
            for position in positions:
                reads[position].queue(commands)

        return queue

    for positions, replies in rounds.transport.on_each_node(
        list(range(len(wanted))),
        lambda position: reads[position].keys.table.meta,
        fill,
        wait=False,
    ):
        for position, reply in zip(positions, replies, strict=True):
            _, shoe, number, _ = wanted[position]
            bases[position] = _plain_base(reads[position].parse(reply), shoe, number)
    return bases


def _plain_base(read: AppendBase, shoe: str, number: int) -> Base | None:
    """The base of an append when the round plainly comes next and the shoe's cached state is
    current (or it has no round yet); else ``None``."""
    head = read.head(shoe)
    if check_append(head, number) is not Verdict.NEXT:
        return None
    if read.version == 0:
        return Base(head, 0, read.variant, Scorecard.from_rounds([]))
    cached = at_version(read.state, read.version)
    if cached is None:
        return None
    return Base(head, read.version, read.variant, Scorecard.from_bytes(cached))
