"""A scorecard's state bytes, kept as it grows (:mod:`roads.keptstate`), equal the state encoded
from scratch, whatever happened to the scorecard before: rounds added one at a time (ties,
voids, pairs, with cards or results only), copies, corrections, voids, states read back.

The reference, :func:`from_scratch`, is the encoder the library had before it kept its bytes
(commit 48eb24d), written again here from :mod:`roads.state`'s layout: it encodes every round,
column, tie and grid column of the scorecard's parts each time.
"""

from __future__ import annotations

import sys
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roads import Round, Scorecard, StateError
from roads.cards import CARDS
from roads.grid import GridLayout
from roads.roundlog import encode_cards, encode_header
from roads.simulator import deal_shoe
from roads.state import FORMAT_VERSION, MAGIC, TAILS
from tests.strategies import dealt_shoes, results, tails

_SYMBOLS = ("B", "P", "red", "blue")


def _u16(value: int) -> bytes:
    return value.to_bytes(2, "little")


def _u16s(values: list[int]) -> bytes:
    packed = array("H", values)
    if sys.byteorder != "little":
        packed.byteswap()
    return _u16(len(values)) + packed.tobytes()


def _columns(sides: list[str], lengths: list[int]) -> bytes:
    return bytes([_SYMBOLS.index(sides[0]) if sides else 0]) + _u16s(lengths)


def _layout(layout: GridLayout) -> bytes:
    occupancy = layout.occupancy()
    start, col, row, turned = layout.cursor()
    return (
        _u16(len(occupancy)) + occupancy + _u16(start + 1) + _u16(col) + bytes([row | turned << 3])
    )


def from_scratch(scorecard: Scorecard) -> bytes:
    """The scorecard's state, every part encoded from its values (the encoder of 48eb24d)."""
    rounds = scorecard.rounds
    big = scorecard.big_road
    tied = [cell for cell, ties in enumerate(big.ties) if ties]
    stats = scorecard._stats.counters()
    parts = [
        MAGIC,
        bytes([FORMAT_VERSION, TAILS.index(scorecard.tail), scorecard.decks]),
        _u16(len(rounds)),
        _u16(sum(len(encode_cards(r)) for r in rounds if r.player_cards)),
        b"".join(map(encode_header, rounds)),
        b"".join(encode_cards(r) for r in rounds if r.player_cards),
        bytes(scorecard.composition.dealt(card) for card in CARDS),
        _u16s(list(stats)),
        _columns(big.columns.sides, big.columns.lengths),
        _u16(big.leading_ties),
        _u16s(tied),
        _u16s([big.ties[cell] for cell in tied]),
        _layout(big.layout),
    ]
    for road in scorecard.derived:
        parts += [_columns(road.columns.sides, road.columns.lengths), _layout(road.layout)]
    return b"".join(parts)


def assert_state(scorecard: Scorecard) -> None:
    """The kept bytes are the bytes from scratch, they read back to the same scorecard, and a
    scorecard read from them keeps bytes that are right too."""
    data = scorecard.to_bytes()
    assert data == from_scratch(scorecard)
    restored = Scorecard.from_bytes(data)
    assert restored.to_bytes() == data
    assert restored.as_dict() == scorecard.as_dict()


def bare(rounds: list[Round]) -> list[Round]:
    """The rounds as results only (no cards, no totals), voids kept."""
    return [Round(r.result).voided() if r.void else Round(r.result) for r in rounds]


@settings(max_examples=40, deadline=None)
@given(dealt_shoes(max_voids=6), tails, st.booleans())
def test_bytes_after_every_round_equal_the_bytes_from_scratch(rounds, tail, with_cards):
    """After every add (dealt shoes: ties, pairs, naturals, voids; with cards or results
    only), the kept bytes equal the bytes from scratch and those of the same rounds built at
    once; every tenth state also reads back to a scorecard that goes on growing right."""
    rounds = rounds if with_cards else bare(rounds)
    scorecard = Scorecard(tail=tail)
    for number, round in enumerate(rounds, 1):
        scorecard.add(round)
        data = scorecard.to_bytes()
        assert data == from_scratch(scorecard)
        if number % 10 == 0:
            assert data == Scorecard.from_rounds(rounds[:number], tail=tail).to_bytes()
            scorecard = Scorecard.from_bytes(data)  # go on from the bytes, as the service does
    assert_state(scorecard)


@settings(max_examples=60, deadline=None)
@given(results, tails, st.integers(0, 7))
def test_bytes_of_streaky_results_written_now_and_then(results, tail, every):
    """Dragons, long tie runs, leading ties, tails that turn: bytes written after some adds
    only (``every``: 0 only at the end) equal the bytes from scratch."""
    scorecard = Scorecard(tail=tail)
    for number, result in enumerate(results, 1):
        scorecard.add(result)
        if every and number % every == 0:
            assert scorecard.to_bytes() == from_scratch(scorecard)
    assert_state(scorecard)


@settings(max_examples=40, deadline=None)
@given(dealt_shoes(), tails, st.data())
def test_bytes_after_copy_replace_and_void(rounds, tail, data):
    """A copy keeps what was kept and grows apart from its original; a correction and a void
    rebuild the scorecard: its bytes are right after each, and after more rounds."""
    split = data.draw(st.integers(1, len(rounds) - 1))
    scorecard = Scorecard.from_rounds(rounds[:split], tail=tail)
    scorecard.to_bytes()
    copy = scorecard.copy()
    copy.add("T")
    copy.add("B")
    assert copy.to_bytes() == from_scratch(copy)
    assert scorecard.to_bytes() == from_scratch(scorecard)
    number = data.draw(st.integers(1, split))
    scorecard.replace(number, data.draw(st.sampled_from(["B", "P", "T"])))
    assert scorecard.to_bytes() == from_scratch(scorecard)
    scorecard.void(data.draw(st.integers(1, split)))
    assert scorecard.to_bytes() == from_scratch(scorecard)
    for round in rounds[split:]:
        scorecard.add(round)
        copy.add(round)
    assert_state(scorecard)
    assert_state(copy)


def test_a_worked_example():
    """B T P P T T B, then a void of round 3: the bytes of each part, written out."""
    scorecard = Scorecard()
    for result in "BTPPTTB":
        scorecard.add(result)
    data = scorecard.to_bytes()
    assert data == from_scratch(scorecard)
    # Big Road: B | P P | B; the tie after B on cell 0, two ties after the second P (cell 2).
    big = bytes([0]) + _u16s([1, 2, 1]) + _u16(0) + _u16s([0, 2]) + _u16s([1, 2])
    # Grid: columns 0, 1 (two rows), 2; the cursor on column 2 row 0.
    big += _u16(3) + bytes([1, 3, 1]) + _u16(3) + _u16(2) + bytes([0])
    assert big in data
    scorecard.void(3)
    assert scorecard.to_bytes() == from_scratch(scorecard)
    assert_state(scorecard)


def test_a_state_read_back_keeps_growing_right_from_every_point():
    """A dealt shoe saved and read back after each round, then added to: as the service does
    when it holds no scorecard of the shoe."""
    rounds = deal_shoe(11)
    data = Scorecard(tail="drop").to_bytes()
    for round in rounds:
        scorecard = Scorecard.from_bytes(data)
        scorecard.add(round)
        data = scorecard.to_bytes()
        assert data == from_scratch(scorecard)


def test_unordered_ties_in_a_state_are_written_in_order():
    """A state whose tied cells are out of order (not as this library writes them) reads back,
    and is written as from scratch: nothing of those bytes is kept."""
    scorecard = Scorecard.from_rounds("BTBTPT")
    data = scorecard.to_bytes()
    ordered = _u16s([0, 1, 2]) + _u16s([1, 1, 1])
    assert ordered in data
    swapped = data.replace(ordered, _u16s([1, 0, 2]) + _u16s([1, 1, 1]))
    restored = Scorecard.from_bytes(swapped)
    assert restored.to_bytes() == data == from_scratch(restored)


def test_tie_counts_that_do_not_match_the_tied_cells_are_refused():
    data = Scorecard.from_rounds("BTBTPT").to_bytes()
    ordered = _u16s([0, 1, 2]) + _u16s([1, 1, 1])
    with pytest.raises(StateError):
        Scorecard.from_bytes(data.replace(ordered, _u16s([0, 1, 2]) + _u16s([1, 1]) + b"\0\0"))
