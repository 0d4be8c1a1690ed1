"""What the integrity watch keeps of a day's drift (:mod:`roads.integrity.drift`), as its scripts
write it and the drift evaluator reads it.

- **A round waiting for its day's tally** (the list ``{lobby}:integrity:rounds``):
  ``TABLE DAY OBSERVED SIDE EXPECT``, then `` DEALER`` when the round named its dealer,
  space-separated; the round's outcomes (1 or 0, -1 unknown)
  and their chances comma-separated in :data:`~roads.integrity.drift.OUTCOMES` order, the side 1
  Banker, 2 Player, 0 a tie. The watch's Lua writes it with :data:`LUA`'s ``tally_round`` from
  the write's watch part (:mod:`api.codecs.watchupdate`, whose texts it takes as they are); the
  evaluator reads it with :func:`decode_round`.
- **A table's tally of a day** (the hash ``{lobby}:integrity:drift:DAY``, a field per table; and
  a dealer's, ``{lobby}:integrity:dealers:DAY``, a field per dealer): the
  numbers of :data:`~roads.integrity.drift.FIELDS`, comma-separated. The script that adds a batch
  of rounds to it reads and writes it with ``read_tally`` and ``tally_text`` (Lua's text of a
  number: 14 significant digits); the operators' reads and the evaluator read it with
  :func:`decode_tally`.
"""

from __future__ import annotations

from importlib.resources import files

from roads.integrity.drift import DayTally, RoundEntry

# The Lua side: functions the scripts that use these formats include (api.storage.luascript).
LUA = files(__package__).joinpath("tallies.lua")


def _text(raw: str | bytes) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def encode_round(entry: RoundEntry) -> str:
    """``entry`` as the watch keeps it (the Lua writes the same from the watch part's texts)."""
    observed = ",".join(map(str, entry.observed))
    expect = ",".join(map(repr, entry.expect))
    dealer = f" {entry.dealer}" if entry.dealer else ""
    return f"{entry.table} {entry.day} {observed} {entry.side} {expect}{dealer}"


def decode_round(raw: str | bytes) -> RoundEntry:
    """A round waiting for its day's tally."""
    table, day, observed, side, expect, *dealer = _text(raw).split(" ")
    return RoundEntry(
        table,
        day,
        tuple(int(x) for x in observed.split(",")),
        int(side),
        tuple(float(x) for x in expect.split(",")),
        dealer[0] if dealer else "",
    )


def encode_tally(tally: DayTally) -> str:
    """A tally as kept (each number exactly; the Lua keeps 14 significant digits)."""
    return ",".join(map(repr, tally.values))


def decode_tally(raw: str | bytes) -> DayTally:
    """A table's tally of a day (``ValueError`` when it has not the tally's count of numbers)."""
    return DayTally(tuple(float(part) for part in _text(raw).split(",")))
