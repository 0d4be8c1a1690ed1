"""Fingerprints that find a shoe whose cards repeat an earlier shoe's order (a cold deck, a
shuffler replaying, a re-streamed video), however far apart in tables and days.

**k-grams.** A *k-gram* is :data:`K` consecutive dealt cards, suits included; its fingerprint
is the cards themselves, one byte each (:func:`fingerprint`: no hash, so two k-grams share a
fingerprint only when they are the same cards). Two independent fair 8-deck shoes have the
same card at a given place with chance 1/52, so a given k-gram matches another place with
chance ``52 ** -K``, about 7e-18 for ``K = 10``: a shoe's ~90 indexed k-grams against an index
of two million entries match by chance about once in 800 million shoes.

**Winnowing.** Indexing every k-gram would cost a key per card. Of each run of :data:`W`
consecutive k-grams only the one whose CRC-32 is least is an *anchor*
(Schleimer, Wilkerson and Aiken, 2003): the choice depends on the cards alone, so a replayed
stretch of at least ``K + W - 1`` cards (16: four rounds hold at least 16 cards) holds a window
whose anchor both shoes chose. About ``2 / (W + 1)`` of the k-grams are anchors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from zlib import crc32

K = 10
W = 7
#: The longest replayed stretch that can go unnoticed, in cards.
GUARANTEE = K + W - 1


def fingerprint(cards: Sequence[int]) -> str:
    """The k-gram's exact fingerprint: its card indices as hexadecimal bytes."""
    return bytes(cards).hex()


@dataclass(frozen=True, slots=True)
class Anchor:
    """An indexed k-gram: it starts at card ``position`` (0-based in the shoe's dealt cards)."""

    position: int
    fingerprint: str


def anchors(cards: Sequence[int], start: int = 0, offset: int = 0) -> list[Anchor]:
    """The anchors of the windows that end at or after card ``start`` of ``cards``, oldest first
    and each once; ``cards`` may be the tail of a shoe whose first card is card ``offset``.
    Windows reaching before ``cards`` are left out (give ``GUARANTEE - 1`` cards of context)."""
    data = bytes(cards)
    first = max(W - 1, start - K + 1)  # the first window's last k-gram
    # Each k-gram as one number that orders by CRC, then rightmost first (robust winnowing: a
    # tie keeps choosing the same k-gram), so a window's anchor is its least number. Only the
    # k-grams of the windows asked for.
    low = first - W + 1
    grams = [crc32(data[at : at + K]) << 16 | 0xFFFF - at for at in range(low, len(data) - K + 1)]
    found: dict[int, Anchor] = {}
    for end in range(first - low, len(grams)):
        at = 0xFFFF - (min(grams[end - W + 1 : end + 1]) & 0xFFFF)
        if at not in found:
            found[at] = Anchor(at + offset, data[at : at + K].hex())
    return sorted(found.values(), key=lambda anchor: anchor.position)
