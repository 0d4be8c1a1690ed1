"""A shoe's rounds in order, stored compactly, decoded only when someone reads them.

The service's hot path loads a scorecard (or keeps it), appends one round and saves it again;
it never needs the rounds as objects. So rounds stay in their encoded form until they are asked
for: read from a saved state, appended, or saved once.

Encoding (see :mod:`roads.state` for the integers):

- a header of 2 bytes per round: a flags byte (result 0-2 in bits 0-1; Player pair, Banker pair,
  natural, void, has cards in bits 2-6) and a totals byte (Player in the low nibble, Banker in the
  high one, 15 for unknown);
- then, for each round with cards, ``len(player) | len(banker) << 2`` and one byte per card (its
  index in :data:`roads.cards.CARDS`).

The fixed-width header lets the bead plate and the Big Road's cells be read off without decoding.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, count
from struct import Struct

from roads.cards import CARDS, Card, dealt_order
from roads.round import RESULTS, Round
from roads.state import Reader, StateError

VOID = 32
HAS_CARDS = 64
TIE = RESULTS.index("T")
_UNKNOWN_TOTAL = 15
_SIZES = Struct("<HH")  # rounds, bytes of cards
_RESULT_CODE = {result: code for code, result in enumerate(RESULTS)}
# Translation tables from a flags byte to 1 or 0, so selections run over all flags at once.
_PLAYED = bytes(int(not flags & VOID) for flags in range(256))
_RESULT_OR_VOID = bytes(
    ord("-") if flags & VOID or flags & 3 > TIE else ord(RESULTS[flags & 3]) for flags in range(256)
)
_CELL = bytes(int(not flags & VOID and flags & 3 < TIE) for flags in range(256))
_BAD_RESULT = bytes(int(flags & 3 > TIE) for flags in range(256))
# A round's pairs from its flags: 1 a Banker pair (bit 3), 2 a Player pair (bit 2), 3 both.
_PAIRS = bytes((flags >> 3 & 1) | (flags >> 2 & 1) << 1 for flags in range(256))
_WITH_CARDS = bytes(int(bool(flags & HAS_CARDS)) for flags in range(256))
_PLAYED_WITHOUT_CARDS = bytes(int(not flags & (HAS_CARDS | VOID)) for flags in range(256))


def encode_header(round: Round) -> bytes:
    player = _UNKNOWN_TOTAL if round.player_total is None else round.player_total
    banker = _UNKNOWN_TOTAL if round.banker_total is None else round.banker_total
    flags = (
        _RESULT_CODE[round.result]
        | round.player_pair << 2
        | round.banker_pair << 3
        | round.natural << 4
        | round.void << 5
        | bool(round.player_cards) << 6
    )
    return bytes((flags, player | banker << 4))


def encode_cards(round: Round) -> bytes:
    cards = round.player_cards + round.banker_cards
    return bytes(
        [len(round.player_cards) | len(round.banker_cards) << 2, *[c.index for c in cards]]
    )


class RoundLog:
    """The rounds of one shoe: a prefix still encoded (from a saved state) and decoded rounds."""

    __slots__ = ("_cards", "_headers", "_rounds", "_starts")

    def __init__(self, rounds: list[Round] | None = None) -> None:
        self._headers = b""  # encoded prefix, 2 bytes per round
        self._cards = b""
        self._rounds: list[Round] = rounds if rounds is not None else []
        # Where each encoded round's cards start in ``_cards`` (-1: none), found when first
        # asked for and kept up as rounds are appended: the dealt cards of the last rounds are
        # then read without walking the shoe.
        self._starts: list[int] | None = None

    def __len__(self) -> int:
        return len(self._headers) // 2 + len(self._rounds)

    def append(self, round: Round) -> None:
        if self._rounds:
            self._rounds.append(round)
        else:  # nothing decoded: stay encoded, so saving again encodes only this round
            self._headers += encode_header(round)
            if self._starts is not None:
                self._starts.append(len(self._cards) if round.player_cards else -1)
            if round.player_cards:
                self._cards += encode_cards(round)

    def rounds(self) -> list[Round]:
        """Every round, decoded (once)."""
        if self._headers:
            self._rounds[:0] = _decode(self._headers, self._cards)
            self._headers = self._cards = b""
            self._starts = None
        return self._rounds

    def flags(self) -> bytes:
        """Each round's flags byte (see the module docstring), without decoding any round."""
        if not self._rounds:
            return self._headers[0::2]
        return self._headers[0::2] + bytes(encode_header(r)[0] for r in self._rounds)

    def pairs(self) -> bytes:
        """Each round's pairs (1 a Banker pair, 2 a Player pair, 3 both), without decoding."""
        return self.flags().translate(_PAIRS)

    def played(self) -> list[int]:
        """Indexes of the rounds that are not void (the bead plate), without decoding."""
        return list(compress(count(), self.flags().translate(_PLAYED)))

    def recent_results(self, count: int) -> list[str]:
        """The results (``B``/``P``/``T``) of the last ``count`` played rounds, oldest first,
        without decoding."""
        flags = self.flags().translate(_RESULT_OR_VOID).replace(b"-", b"")
        return list(flags[max(0, len(flags) - count) :].decode()) if count > 0 else []

    def all_with_cards(self) -> bool:
        """Whether every round was reported with its cards (true of an empty log)."""
        return 0 not in self.flags().translate(_WITH_CARDS)

    def cards_used(self, rounds: int | None = None) -> int:
        """The fewest cards the first ``rounds`` rounds (all by default) can have taken from the
        shoe: each round's cards, and 4 for a played round reported without them (a void one
        without cards may never have been dealt). Nothing is decoded."""
        encoded = len(self._headers) // 2
        count = len(self) if rounds is None else min(rounds, len(self))
        head = min(count, encoded)
        flags = self._headers[0 : 2 * head : 2]
        cardless = flags.translate(_PLAYED_WITHOUT_CARDS).count(1)
        # Each encoded round with cards takes one byte for its sizes, then one a card: the
        # bytes before the first card record past the prefix, less one a record.
        end = next((at for at in self._card_starts()[head:] if at >= 0), len(self._cards))
        used = end - flags.translate(_WITH_CARDS).count(1) + 4 * cardless
        for round in self._rounds[: count - head]:
            used += len(round.cards()) or (0 if round.void else 4)
        return used

    def dealt(self, first: int) -> tuple[list[int], list[int]] | None:
        """The cards of round ``first`` (1-based) on, in dealt order (Player, Banker, Player,
        Banker, then the third cards), and the round number of each; ``None`` when one of those
        rounds has no cards."""
        cards: list[int] = []
        numbers: list[int] = []
        for number, hands in enumerate(self._hands_from(first - 1), first):
            if hands is None:
                return None
            order = dealt_order(*hands)
            cards += order
            numbers += [number] * len(order)
        return cards, numbers

    def _hands_from(self, index: int) -> Iterator[tuple[bytes, bytes] | None]:
        """The Player and Banker card indices of round ``index`` (0-based) on (``None``: a round
        reported without cards)."""
        cards, starts = self._cards, self._card_starts()
        for start in starts[index:]:
            if start < 0:
                yield None
                continue
            sizes = cards[start]
            middle = start + 1 + (sizes & 3)
            yield cards[start + 1 : middle], cards[middle : middle + (sizes >> 2)]
        for round in self._rounds[max(0, index - len(starts)) :]:
            if round.player_cards:
                player = bytes(c.index for c in round.player_cards)
                yield player, bytes(c.index for c in round.banker_cards)
            else:
                yield None

    def _card_starts(self) -> list[int]:
        if self._starts is None:
            starts, cards, pos = [], self._cards, 0
            for flags in self._headers[0::2]:
                if flags & HAS_CARDS:
                    starts.append(pos)
                    sizes = cards[pos]
                    pos += 1 + (sizes & 3) + (sizes >> 2)
                else:
                    starts.append(-1)
            self._starts = starts
        return self._starts

    def cells(self) -> list[int]:
        """Indexes of the played Banker/Player rounds (the Big Road's cells), without decoding."""
        return list(compress(count(), self.flags().translate(_CELL)))

    def copy(self) -> RoundLog:
        other = RoundLog(list(self._rounds))
        other._headers, other._cards = self._headers, self._cards
        other._starts = None if self._starts is None else list(self._starts)
        return other

    def to_bytes(self) -> bytes:
        """The rounds' part of the state (see the module docstring): their count, the size of
        their cards, the headers, the cards."""
        if self._rounds:
            # Keep the encoded form from now on: a log that is saved after every append (the
            # service's) then encodes each round once, not once per save.
            self._headers += b"".join(map(encode_header, self._rounds))
            self._cards += b"".join(encode_cards(r) for r in self._rounds if r.player_cards)
            self._rounds = []
            self._starts = None
        headers, cards = self._headers, self._cards
        return b"".join((_SIZES.pack(len(headers) // 2, len(cards)), headers, cards))

    @classmethod
    def read(cls, reader: Reader) -> RoundLog:
        count, size = reader.unpack(_SIZES)
        log = cls()
        log._headers = reader.raw(2 * count)
        log._cards = reader.raw(size)
        if 1 in log._headers[0::2].translate(_BAD_RESULT):
            raise StateError("scorecard state holds an unknown result")
        return log


# Rounds without cards are immutable and few in kind: decoding shares one instance per kind.
_cardless: dict[bytes, Round] = {}


def _decode(headers: bytes, cards: bytes) -> list[Round]:
    rounds = []
    pos = 0
    try:
        for at in range(0, len(headers), 2):
            flags, totals = headers[at], headers[at + 1]
            if flags & HAS_CARDS:
                sizes = cards[pos]
                middle = pos + 1 + (sizes & 3)
                end = middle + (sizes >> 2)
                if end > len(cards):
                    raise StateError("scorecard state is truncated")
                player = tuple([CARDS[index] for index in cards[pos + 1 : middle]])
                banker = tuple([CARDS[index] for index in cards[middle:end]])
                pos = end
                rounds.append(_make_round(flags, totals, player, banker))
            else:
                key = headers[at : at + 2]
                cached = _cardless.get(key)
                if cached is None:
                    cached = _cardless[key] = _make_round(flags, totals, (), ())
                rounds.append(cached)
    except IndexError as error:
        raise StateError("scorecard state is truncated or holds an unknown card") from error
    return rounds


def _make_round(
    flags: int, totals: int, player: tuple[Card, ...], banker: tuple[Card, ...]
) -> Round:
    player_total, banker_total = totals & 15, totals >> 4
    return Round(
        RESULTS[flags & 3],
        None if player_total == _UNKNOWN_TOTAL else player_total,
        None if banker_total == _UNKNOWN_TOTAL else banker_total,
        bool(flags & 4),
        bool(flags & 8),
        bool(flags & 16),
        player,
        banker,
        bool(flags & VOID),
    )
