"""A scorecard's parts (:class:`roads.scoreparts.Parts`) as the compact bytes of
:mod:`roads.state`, and back: the whole layout, in order (header, rounds, dealt cards,
statistics, the Big Road, each derived road). What can be read off the rounds (the bead plate,
each Big Road cell's round) is not stored."""

from __future__ import annotations

from operator import attrgetter
from struct import Struct
from typing import Any

from roads.bigroad import BigRoad
from roads.composition import Composition
from roads.derived import DERIVED_ROADS, DerivedRoad
from roads.roundlog import RoundLog
from roads.scoreparts import Parts
from roads.shoe import DECK_CARDS
from roads.state import FORMAT_VERSION, MAGIC, TAILS, Reader, StateError
from roads.stats import COUNTED, ShoeStats

_HEADER = Struct("<2sBBB")  # magic, format version, tail, decks
# The statistics counters as ShoeStats.counters() gives them, read at once.
_STATS_NAMES = (*COUNTED, "void")
_COUNTERS = attrgetter(*_STATS_NAMES)
_STATS = Struct(f"<{len(_STATS_NAMES) + 1}H")  # their count, then each
_COUNTS = Struct(f"<{len(_STATS_NAMES)}H")


def dump(*parts: Any) -> bytes:
    """The bytes of the parts, given in the order of :class:`Parts` (not made into one: this is
    every write's path). The rounds and the roads keep their bytes as they grow: this joins
    them, and encodes afresh only the few fixed-size parts."""
    tail, decks, log, composition, stats, big_road, derived = parts
    return b"".join(
        (
            _HEADER.pack(MAGIC, FORMAT_VERSION, TAILS.index(tail), decks),
            log.to_bytes(),
            composition.to_bytes(),
            _STATS.pack(len(_STATS_NAMES), *_COUNTERS(stats)),
            big_road.to_bytes(),
            *[road.to_bytes() for road in derived],
        )
    )


def load(data: bytes) -> Parts:
    """The parts :func:`dump` wrote; :class:`StateError` for bytes that are not such a state."""
    try:
        return _read(Reader(data))
    except StateError:
        raise
    except (IndexError, KeyError, ValueError, OverflowError) as error:
        raise StateError(f"not a scorecard state: {error}") from error


def _read(reader: Reader) -> Parts:
    magic, version, tail_code, decks = reader.unpack(_HEADER)
    if magic != MAGIC or version != FORMAT_VERSION:
        raise StateError("not a scorecard state of this format version")
    tail = TAILS[tail_code]
    log = RoundLog.read(reader)
    composition = Composition(decks, reader.raw(DECK_CARDS))
    if reader.u16() != len(_STATS_NAMES):
        raise StateError("scorecard state holds statistics of another kind")
    stats = ShoeStats.from_counters(reader.unpack(_COUNTS))
    big_road = BigRoad.read(reader, tail, log.cells())
    derived = tuple(DerivedRoad.read(reader, name, k, tail) for name, k in DERIVED_ROADS)
    if reader.pos != len(reader.data):
        raise StateError("scorecard state has trailing bytes")
    return Parts(tail, decks, log, composition, stats, big_road, derived)
