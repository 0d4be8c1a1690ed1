"""Draws the example pictures in docs/ from a simulated shoe with a dragon, ties and pairs.

Run: ``python docs/make_examples.py`` (rewrites docs/scorecard-light.png, docs/scorecard-dark.png
and docs/big-road-ask-banker.png).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

from api.images.paint import paint  # noqa: E402
from api.images.scene import new_cells_of, road_scene, scorecard_scene  # noqa: E402
from roads import Scorecard  # noqa: E402
from roads.simulator import iter_shoes  # noqa: E402


def showcase_shoe() -> Scorecard:
    """The first simulated shoe (seed 2026) with a dragon, ties on cells and both pair kinds."""
    for rounds in iter_shoes(500, seed=2026):
        scorecard = Scorecard.from_rounds(rounds)
        shape = scorecard.as_dict()
        stats = shape["stats"]
        cells = [c for column in shape["big_road"]["columns"] for c in column]
        if (
            stats["dragons"] >= 1
            and any(c["ties"] > 1 for c in cells)
            and stats["counts"]["player_pair"]
            and stats["counts"]["banker_pair"]
        ):
            return scorecard
    raise SystemExit("no showcase shoe among 500")


def main() -> None:
    scorecard = showcase_shoe()
    shape = scorecard.as_dict()
    for theme in ("light", "dark"):
        (DOCS / f"scorecard-{theme}.png").write_bytes(
            paint(scorecard_scene(shape, theme=theme, scale=1.5))
        )
    preview = scorecard.preview("B").as_dict()
    scene = road_scene(preview, "big_road", scale=1.5, new_cells=new_cells_of(shape, preview))
    (DOCS / "big-road-ask-banker.png").write_bytes(paint(scene))


if __name__ == "__main__":
    main()
