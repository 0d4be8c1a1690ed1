"""A table's rounds as the studio knows them, read from Redis: one round by its game id
(``{t:TABLE}:games``, :mod:`api.codecs.roundfacts`) and the table's last rounds across the shoes
Redis holds. What left Redis is the record's (:mod:`api.record.roundreads`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from api.codecs import records
from api.codecs.roundfacts import read_place
from api.storage.keys import Keyspace
from api.storage.transport import Transport


class HotRound(NamedTuple):
    """A round as Redis holds it."""

    table: str
    shoe: str
    record: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """As the lookups answer it, before the record states its place in the chain."""
        return {"table": self.table, "shoe": self.shoe, **self.record}


class LastRounds(NamedTuple):
    """A table's last rounds read from Redis, oldest first, the shoes they came from, and
    whether they are all that was asked (else older shoes are the record's)."""

    rounds: list[HotRound]
    shoes: list[str]
    whole: bool


class Games:
    """Reads of rounds by what the studio knows of them, from Redis."""

    def __init__(self, transport: Transport, keys: Keyspace) -> None:
        self.transport = transport
        self.keys = keys

    def game(self, table: str, game_id: str) -> HotRound | None:
        """The round of the table's game ``game_id``, if Redis holds it."""
        place = self.transport.command("HGET", self.keys.table(table).games, game_id)
        if place is None:
            return None
        shoe, number = read_place(place)
        stored = self.transport.command("LINDEX", self.keys.shoe(table, shoe).rounds, number - 1)
        return HotRound(table, shoe, records.decode(stored)) if stored is not None else None

    def last(self, table: str, count: int) -> LastRounds:
        """The table's last ``count`` rounds across the shoes Redis holds, newest shoe first
        until one has left Redis (an empty list: the rest are the record's)."""
        listed = self.transport.command("LRANGE", self.keys.table(table).shoes, 0, -1)
        shoes = [shoe.decode() for shoe in listed]
        found: list[HotRound] = []
        read: list[str] = []
        for shoe in reversed(shoes):
            stored = self.transport.command(
                "LRANGE", self.keys.shoe(table, shoe).rounds, -(count - len(found)), -1
            )
            if not stored:
                return LastRounds(found, read, False)
            read.append(shoe)
            found = [HotRound(table, shoe, records.decode(r)) for r in stored] + found
            if len(found) >= count:
                return LastRounds(found, read, True)
        # Every shoe listed was read: none is older. A table Redis lost lists none.
        return LastRounds(found, read, bool(shoes))
