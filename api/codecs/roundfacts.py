"""A round's own facts as the studio's game server knows them, beside its cards: its game id, when
it was dealt and by whom. They are kept in the round's record (:mod:`api.codecs.records`), so they
reach the record's chain, the round history, the exports and the round's events.

- ``game_id``: the game server's id of the round, 1-64 characters of :data:`GAME_ID_CHARS`,
  unique per table: the same round sent again under it is a retry, another round under it a 409
  (``{t:TABLE}:games`` maps each of a table's game ids in Redis to its round, ``SHOE:N``);
- ``dealt_at``: when it was dealt, RFC 3339 UTC with milliseconds (:mod:`api.codecs.times`),
  at most :data:`DEALT_AHEAD` after the service's clock and :data:`DEALT_BEFORE` before it; a
  round reported without one is stamped with the service's clock;
- ``dealer``: ``{"id": ..., "name": ...}``, the name optional: a studio sends it once a shift,
  and a table's tile keeps the name of its current dealer until another dealer comes;
- ``burned``: the cards burned after the round, by their faces (``POST .../studio`` burns them
  after the shoe's last round): they leave the cards left, so the exact odds, from then on. A
  scorecard made from the records takes them out (:func:`api.codecs.records.scorecard_of`).

A correction or a void keeps the facts of the round it rewrites: a corrected round is the same
game, dealt at the same time by the same dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from importlib.resources import files
from typing import Any, NamedTuple

from api.codecs.times import now_text, utc_text

# The Lua side: where a game id's round is, and a shoe's game ids mapped and unmapped
# (api.storage.luascript includes it in the scripts that use it).
LUA = files(__package__).joinpath("roundfacts.lua")

GAME_ID_CHARS = r"[A-Za-z0-9_.:-]"
GAME_ID_PATTERN = rf"^{GAME_ID_CHARS}{{1,64}}$"
#: A dealer's id: as a game id.
DEALER_ID_PATTERN = GAME_ID_PATTERN
DEALER_NAME_LENGTH = 64

#: How far a round's ``dealt_at`` may lie from the service's clock: a game server's clock and
#: ours differ by a little (a studio keeps them in step), and a round may reach us late (a game
#: server that was cut off sends what it dealt meanwhile), but not by more than a day.
DEALT_AHEAD = timedelta(seconds=5)
DEALT_BEFORE = timedelta(days=1)

NAMES = ("game_id", "dealt_at", "dealer")  # those a round's report may carry
BURNED = "burned"
BURN_IDS = "burn_ids"  # the report ids of the burns its cards came by (their retry keys)


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """A round's facts; ``None`` for one not known (a round reported before they were)."""

    game_id: str | None = None
    dealt_at: str | None = None  # RFC 3339, UTC, milliseconds
    dealer: dict[str, str] | None = None  # {"id", "name"?}
    burned: tuple[str, ...] = ()  # cards burned after the round
    burn_ids: tuple[str, ...] = ()  # the report ids those burns came with
    paytable: str | None = None  # the name of the pay table the round was priced under

    def fields(self) -> dict[str, Any]:
        """The facts as a record holds them: the known ones, in :data:`NAMES`' order, the pay
        table the round was priced under, then the cards burned after the round and the report
        ids they came with (when there are any)."""
        found = {
            "game_id": self.game_id,
            "dealt_at": self.dealt_at,
            "dealer": self.dealer,
            "paytable": self.paytable,
        }
        known = {name: value for name, value in found.items() if value is not None}
        if self.burned:
            known[BURNED] = list(self.burned)
        if self.burn_ids:
            known[BURN_IDS] = list(self.burn_ids)
        return known

    def priced_under(self, paytable: str) -> RoundFacts:
        """These facts priced under ``paytable`` (a name). Made by the constructor, not
        ``dataclasses.replace``: every round's write takes this step, and ``replace`` costs
        several times more (its fields are the class's own, listed here in full)."""
        return RoundFacts(
            self.game_id, self.dealt_at, self.dealer, self.burned, self.burn_ids, paytable
        )

    def burning(self, cards: Sequence[str], ids: Sequence[str] = ()) -> RoundFacts:
        """These facts with ``cards`` burned after the round too, reported under ``ids``."""
        return replace(self, burned=(*self.burned, *cards), burn_ids=(*self.burn_ids, *ids))

    @property
    def dealer_id(self) -> str | None:
        return self.dealer["id"] if self.dealer is not None else None

    @property
    def dealt_day(self) -> str | None:
        """The UTC day the round was dealt (``YYYY-MM-DD``, ``dealt_at`` being UTC), or
        ``None`` when that is not known."""
        return self.dealt_at[:10] if self.dealt_at is not None else None


NO_FACTS = RoundFacts()


def reported(report: dict[str, Any], now: str | None = None) -> RoundFacts:
    """The facts of a loaded report (``dealt_at`` a datetime, checked by :func:`dealt_rule`),
    stamped with the service's clock ``now`` when it states no ``dealt_at``."""
    dealt = report.get("dealt_at")
    return RoundFacts(
        report.get("game_id"),
        utc_text(dealt) if dealt is not None else (now or now_text()),
        report.get("dealer"),
    )


def in_record(record: dict[str, Any]) -> RoundFacts:
    """The facts a stored record holds (none for a record stored before they were kept)."""
    burned, ids = tuple(record.get(BURNED) or ()), tuple(record.get(BURN_IDS) or ())
    return RoundFacts(
        record.get("game_id"),
        record.get("dealt_at"),
        record.get("dealer"),
        burned,
        ids,
        record.get("paytable"),
    )


def dealt_rule(dealt_at: datetime | None, now: datetime) -> str | None:
    """What a report's ``dealt_at`` breaks (a 422), or ``None``: a time more than
    :data:`DEALT_AHEAD` after the service's clock ``now``, or more than :data:`DEALT_BEFORE`
    before it."""
    if dealt_at is None:
        return None
    if dealt_at > now + DEALT_AHEAD:
        return "dealt_at: ahead of the service's clock"
    if dealt_at < now - DEALT_BEFORE:
        return "dealt_at: more than a day before the service's clock"
    return None


class BurnedBefore(NamedTuple):
    """Cards burned from a shoe before its first round, and the report ids they came with."""

    cards: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()


NONE_BURNED = BurnedBefore()


def burned_before_text(shoe: str, burned: BurnedBefore) -> str:
    """Cards burned from ``shoe`` before its first round, as its table's meta keeps them until
    that round takes them into its record (``burn_pending``): ``SHOE CARD... #ID...``, the
    cards then the report ids, each id after a ``#`` (a shoe id, a card and a report id hold no
    space and no ``#``). One text for one value: the first round's write compares them."""
    return " ".join((shoe, *burned.cards, *(f"#{id}" for id in burned.ids)))


def burned_before_shoe(text: bytes | str | None) -> str | None:
    """The shoe whose cards :func:`burned_before_text` keeps (``None``: none kept)."""
    if not text:
        return None
    return (text.decode() if isinstance(text, bytes) else text).split(" ", 1)[0]


def burned_before(text: bytes | str | None, shoe: str) -> BurnedBefore:
    """What :func:`burned_before_text` keeps of ``shoe`` (nothing: ``text`` is of another shoe,
    or there is none)."""
    if not text:
        return BurnedBefore()
    named, *words = (text.decode() if isinstance(text, bytes) else text).split(" ")
    if named != shoe:
        return BurnedBefore()
    cards = tuple(word for word in words if not word.startswith("#"))
    return BurnedBefore(cards, tuple(word[1:] for word in words if word.startswith("#")))


def game_place(shoe: str, number: int) -> str:
    """Where ``{t:TABLE}:games`` says a game id's round is: ``SHOE:N`` (a shoe id holds no
    ``:``)."""
    return f"{shoe}:{number}"


def read_place(place: bytes | str) -> tuple[str, int]:
    """The (shoe, round number) :func:`game_place` wrote."""
    text = place.decode() if isinstance(place, bytes) else place
    shoe, _, number = text.rpartition(":")
    return shoe, int(number)
