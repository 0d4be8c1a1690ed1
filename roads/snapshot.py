"""A scorecard's parts (:class:`roads.scoreparts.Parts`) as the compact bytes of
:mod:`roads.state`, and back: the whole layout, in order (header, rounds, dealt cards,
statistics, the Big Road, each derived road). What can be read off the rounds (the bead plate,
each Big Road cell's round) is not stored."""

from __future__ import annotations

from typing import Any

from roads.bigroad import BigRoad
from roads.composition import Composition
from roads.derived import DERIVED_ROADS, DerivedRoad
from roads.roundlog import RoundLog
from roads.scoreparts import Parts
from roads.shoe import DECK_CARDS
from roads.state import FORMAT_VERSION, MAGIC, TAILS, Reader, StateError, Writer
from roads.stats import ShoeStats


def dump(*parts: Any) -> bytes:
    """The bytes of the parts, given in the order of :class:`Parts` (not made into one: this is
    every write's path)."""
    tail, decks, log, composition, stats, big_road, derived = parts
    writer = Writer()
    writer.raw(MAGIC)
    writer.u8(FORMAT_VERSION)
    writer.u8(TAILS.index(tail))
    writer.u8(decks)
    log.write(writer)
    writer.raw(composition.to_bytes())
    writer.u16s(list(stats.counters()))
    big_road.write(writer)
    for road in derived:
        road.write(writer)
    return bytes(writer.buf)


def load(data: bytes) -> Parts:
    """The parts :func:`dump` wrote; :class:`StateError` for bytes that are not such a state."""
    try:
        return _read(Reader(data))
    except StateError:
        raise
    except (IndexError, KeyError, ValueError, OverflowError) as error:
        raise StateError(f"not a scorecard state: {error}") from error


def _read(reader: Reader) -> Parts:
    if reader.raw(2) != MAGIC or reader.u8() != FORMAT_VERSION:
        raise StateError("not a scorecard state of this format version")
    tail = TAILS[reader.u8()]
    decks = reader.u8()
    log = RoundLog.read(reader)
    composition = Composition(decks, reader.raw(DECK_CARDS))
    stats = ShoeStats.from_counters(tuple(reader.u16s()))
    big_road = BigRoad.read(reader, tail, log.cells())
    derived = tuple(DerivedRoad(name, k, tail) for name, k in DERIVED_ROADS)
    for road in derived:
        road.read(reader)
    if reader.pos != len(reader.data):
        raise StateError("scorecard state has trailing bytes")
    return Parts(tail, decks, log, composition, stats, big_road, derived)
