"""The values of a write: what it is computed from (:class:`Base`) and the plan (:class:`Write`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from api.codecs.lobbyupdate import LobbyUpdate
from api.codecs.roundfacts import NONE_BURNED, BurnedBefore
from api.plan.roadevents import TableEvent
from roads import Scorecard
from roads.paytables import PayTable
from roads.shoe import ShoeHead

Kind = Literal["round", "correction", "void", "burn"]


@dataclass(frozen=True, slots=True)
class Base:
    """What an append is computed from: the shoe's head, its version, the name of the pay table
    its rounds are priced under (``variant``) and the shoe's scorecard (the plan adds its round
    to it, in place); for a shoe's first round, the cards reported burned before it (the round
    takes them). ``paytable``: that pay table, when it is not a preset (``None``: the preset
    ``variant`` names)."""

    head: ShoeHead
    version: int
    variant: str
    scorecard: Scorecard
    burned: BurnedBefore = NONE_BURNED
    paytable: PayTable | None = None

    @property
    def priced(self) -> str | PayTable:
        """What the shoe's odds are priced under: the pay table, or the preset's name."""
        return self.paytable if self.paytable is not None else self.variant


@dataclass(frozen=True, slots=True)
class Write:
    """A write, decided and computed. Storage commits it only if the shoe is still what it was
    computed from: at ``base_version``, and for an append (``head`` set) with the same round
    count and current shoe, under the same ``variant``."""

    kind: Kind
    table: str
    shoe: str
    number: int
    base_version: int
    head: ShoeHead | None  # an append's (a correction or a void: None)
    variant: str
    record: dict[str, Any]
    state: bytes  # the scorecard after the write (roads.Scorecard.to_bytes)
    scorecard: Scorecard  # the same, for the process's next write to the shoe
    events: tuple[TableEvent, ...]
    lobby: LobbyUpdate
    # A shoe's first round: the cards burned before it as the table's meta kept them, which the
    # round took (or refused); the commit compares them with the meta's.
    burned_before: str = ""

    @property
    def version(self) -> int:
        """The shoe's version once the write is committed."""
        return self.base_version + 1

    @property
    def opens(self) -> bool:
        """Whether the write opens its shoe (which becomes the table's current one)."""
        return self.head is not None and self.head.opens

    @property
    def void(self) -> bool:
        return self.kind == "void"
