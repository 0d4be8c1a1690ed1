"""The table of the derived roads' runs: how often, in simulated shoes, each derived road has
shown a run of at least ``k`` marks of a colour by each hand. :mod:`roads.rarity` answers the
chance of a derived road's run from it, because the exact chain would have to remember the last
``k + 1`` Big Road column lengths in full (a red mark needs two lengths to be *equal*), too many
states to sum exactly.

The shoes are hands drawn independently with a fresh 8-deck shoe's outcome probabilities (the
model of :mod:`roads.rarity`), many shoes at once in numpy arrays; the marks follow the rule of
:mod:`roads.derived`: road ``k`` gives a new column's first result red when the two columns
before it, ``k`` apart, have the same length, and any other result blue when the column ``k``
to the left has exactly as many results as the current one had before it.

``python -m roads.derivedsim`` makes the shipped table (``roads/data/derived_runs.json``); it
is seeded, so the same command makes the same file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from roads.derived import DERIVED_ROADS
from roads.shoe import HANDS

TABLE = Path(__file__).with_name("data") / "derived_runs.json"
ROADS = tuple(name for name, _ in DERIVED_ROADS)
COLOURS = ("red", "blue", "either")
SHOES = 1_000_000
SEED = 20261126
LONGEST = 120  # longer than any run a shoe of HANDS hands can hold


def first_hits(
    shoes: int, hands: int, probabilities: tuple[float, float, float], seed: int
) -> np.ndarray:
    """For each derived road, colour (red, blue, either) and run length, how many of ``shoes``
    simulated shoes first showed a run that long at each hand: an array indexed
    ``[road, colour, length, hand]`` (hand 0 is the first). ``probabilities``: Banker, Player,
    Tie."""
    rng = np.random.default_rng(seed)
    banker, player, _ = probabilities
    hits = np.zeros((len(ROADS), len(COLOURS), LONGEST + 1, hands), dtype=np.int64)
    side = np.zeros(shoes, dtype=np.int8)  # 0 before the first result, 1 Banker, 2 Player
    # the lengths of the 4 columns before the current one (0: no such column), then the current
    columns = np.zeros((shoes, 5), dtype=np.int16)
    run = np.zeros((len(ROADS), shoes), dtype=np.int16)  # the current run of marks
    colour = np.zeros((len(ROADS), shoes), dtype=np.int8)  # its colour: 0 none, 1 red, 2 blue
    longest = np.zeros((len(ROADS), 3, shoes), dtype=np.int16)  # per colour: red, blue, either
    for hand in range(hands):
        draw = rng.random(shoes)
        result = np.where(draw < banker, 1, np.where(draw < banker + player, 2, 0)).astype(np.int8)
        played = result != 0
        same = played & (result == side)
        new = played & ~same
        columns[same, 4] += 1
        columns[new, :4] = columns[new, 1:]
        columns[new, 4] = 1
        side[new] = result[new]
        for road, (_, k) in enumerate(DERIVED_ROADS):
            mark = _marks(columns, same, new, k)
            _follow(mark, run[road], colour[road], longest[road], hits[road], hand)
    return hits


def _marks(columns: np.ndarray, same: np.ndarray, new: np.ndarray, k: int) -> np.ndarray:
    """Road ``k``'s mark for this hand in each shoe: 0 none, 1 red, 2 blue."""
    mark = np.zeros(len(columns), dtype=np.int8)
    # a result below the top of its column: blue when column n - k is as long as the column was
    against = columns[:, 4 - k]
    below = same & (against > 0)
    mark[below] = np.where(against[below] == columns[below, 4] - 1, 2, 1)
    # a new column: red when the column before it is as long as the one k before that
    before, earlier = columns[:, 3], columns[:, 3 - k]
    opened = new & (earlier > 0)
    mark[opened] = np.where(before[opened] == earlier[opened], 1, 2)
    return mark


def _follow(
    mark: np.ndarray,
    run: np.ndarray,
    colour: np.ndarray,
    longest: np.ndarray,
    hits: np.ndarray,
    hand: int,
) -> None:
    """Add this hand's marks to one road's runs, counting each run length a shoe reaches for
    the first time (per colour, and for either colour) at ``hand``."""
    marked = mark > 0
    grows = marked & (mark == colour)
    run[grows] += 1
    restarts = marked & ~grows
    run[restarts] = 1
    colour[marked] = mark[marked]
    for index, of_colour in ((0, colour == 1), (1, colour == 2), (2, colour > 0)):
        record = marked & of_colour & (run > longest[index])
        lengths = run[record]
        longest[index][record] = lengths
        hits[index, :, hand] += np.bincount(lengths, minlength=LONGEST + 1)[: LONGEST + 1]


def table(
    shoes: int = SHOES, seed: int = SEED, chunk: int = 250_000, hands: int = HANDS
) -> dict[str, Any]:
    """The shipped table: for each road, colour and run length, the hand (1-based) of the first
    shoe to show it and how many shoes first showed it at each hand from then on."""
    from roads.odds import fresh_odds

    odds = fresh_odds()["probabilities"]
    probabilities = (odds["banker"], odds["player"], odds["tie"])
    total = np.zeros((len(ROADS), len(COLOURS), LONGEST + 1, hands), dtype=np.int64)
    for part, start in enumerate(range(0, shoes, chunk)):
        total += first_hits(min(chunk, shoes - start), hands, probabilities, seed + part)
    runs: dict[str, dict[str, list[list[Any]]]] = {}
    for r, road in enumerate(ROADS):
        runs[road] = {}
        for c, name in enumerate(COLOURS):
            rows = []
            for length in range(1, LONGEST + 1):
                counts = total[r, c, length]
                seen = np.flatnonzero(counts)
                if len(seen):
                    first, last = int(seen[0]), int(seen[-1])
                    rows.append([length, first + 1, counts[first : last + 1].tolist()])
            runs[road][name] = rows
    return {
        "shoes": shoes,
        "seed": seed,
        "hands": hands,
        "probabilities": dict(zip(("banker", "player", "tie"), probabilities, strict=True)),
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Make the derived roads' run table.")
    parser.add_argument("--shoes", type=int, default=SHOES)
    parser.add_argument("--out", type=Path, default=TABLE)
    args = parser.parse_args()
    made = table(args.shoes)
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(made, separators=(",", ":")) + "\n")
    print(f"{args.out}: {made['shoes']:,} shoes, {args.out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
