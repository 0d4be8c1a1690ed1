"""The drawing layer: what a scorecard picture shows, as lists of marks in pixel coordinates.

A :class:`Scene` is built from the canonical roads JSON only, so it agrees with the JSON cell for
cell by construction, and tests can check it without looking at pixels. Coordinates are pixels,
x to the right and y down from the top-left corner.

Conventions of live-table scorecards:
- Banker red, Player blue, Tie green. Grid lines like a scorecard.
- Bead Plate: filled circles with the letter (B/P/T, or a language's own) or the winning total.
- Big Road: hollow circles; ties a green slash through the cell with the count when more than
  one; leading ties on the first cell; Banker Pair a small red dot (top left), Player Pair a
  small blue dot (bottom right).
- Big Eye Boy hollow circles, Small Road solid dots, Cockroach Road slashes, red or blue.
- A cancelled round takes no bead: a small X at the top right of the cell of the bead after
  it, or of the cell the next bead takes (:func:`roads.beadplate.cancelled_marks`).
- The view keeps the newest whole columns: it starts at ``last column + 1 - cols``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# The look of the roads, shared with the JavaScript client's SVG (clients/js/src/svg.js): sizes,
# colours and each mark's proportions are read from one file, so the two cannot drift apart. It
# is an ES module whose default export is strict JSON (a JSON module would not load everywhere),
# packaged with the client's modules (api.resources).
from api.resources import STYLE as STYLE_FILE
from roads.beadplate import cancelled_marks


def read_style(text: str) -> dict[str, Any]:
    """The JSON after ``export default`` in the style module's text."""
    _, found, body = text.partition("export default ")
    if not found:
        raise ValueError(f"{STYLE_FILE} has no 'export default'")
    return json.loads(body.strip().removesuffix(";"))


STYLE: dict[str, Any] = read_style(STYLE_FILE.read_text(encoding="utf-8"))
MARKS: dict[str, dict[str, float]] = STYLE["marks"]

ROWS: int = STYLE["rows"]
BASE_CELL: int = STYLE["cell"]  # pixels per Big Road cell at scale 1
ROADS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road")
DEFAULT_COLS: dict[str, int] = STYLE["default_cols"]
COLORS: dict[str, str] = STYLE["colors"]
HIGHLIGHT: str = STYLE["highlight"]
THEMES: dict[str, dict[str, str]] = STYLE["themes"]


@dataclass(frozen=True)
class Bead:
    """What a Bead Plate bead shows: ``letters`` (the result's letter, in ``letters``: B/P/T, or
    a language's own, G/B/P in Italian, 庄/闲/和 in Chinese), or ``totals`` (the winning hand's
    total, the letter where it is not known)."""

    show: str = "letters"
    letters: tuple[tuple[str, str], ...] = (("B", "B"), ("P", "P"), ("T", "T"))

    def text(self, result: str, total: int | None) -> str:
        if self.show == "letters" or total is None:
            return dict(self.letters)[result]
        return str(total)


MAX_PIXELS = 4_000_000  # larger pictures are refused: nobody needs them and they cost


def picture_size(road: str, cols: int | None, scale: float) -> tuple[int, int]:
    """Width and height in pixels of a picture of ``road`` (or ``"scorecard"``)."""
    cell = BASE_CELL * scale
    if road == "scorecard":
        big_cols = cols or DEFAULT_COLS["scorecard"]
        return round((big_cols + max(4, big_cols // 3)) * cell), round(ROWS * cell * 2)
    return round((cols or DEFAULT_COLS[road]) * cell), round(ROWS * cell)


@dataclass
class Scene:
    """Everything one picture shows. Each list holds one kind of mark."""

    width: int
    height: int
    theme: str
    grid: list[tuple[tuple[float, float], tuple[float, float]]] = field(default_factory=list)
    rings: list[tuple[float, float, float, str]] = field(default_factory=list)  # x, y, d, color
    discs: list[tuple[float, float, float, str]] = field(default_factory=list)  # x, y, d, color
    dots: list[tuple[float, float, float, str]] = field(default_factory=list)  # pair dots
    slashes: list[tuple[float, float, float, float, str, float]] = field(default_factory=list)
    glyphs: list[tuple[float, float, str, float, str]] = field(
        default_factory=list
    )  # x,y,text,size,color
    highlights: list[tuple[float, float, float]] = field(default_factory=list)  # x, y, cell size
    cells: list[tuple[str, int, int, str]] = field(default_factory=list)  # road, col, row, what


@dataclass(frozen=True)
class Panel:
    """One road's grid inside a picture: its top-left corner, cell size and visible columns."""

    road: str
    x: float
    y: float
    cell: float
    cols: int


def road_scene(
    shape: dict[str, Any],
    road: str,
    *,
    cols: int | None = None,
    theme: str = "light",
    scale: float = 1.0,
    bead: Bead = Bead(),
    new_cells: set[tuple[str, int, int]] | None = None,
) -> Scene:
    """A picture of one road."""
    cols = cols or DEFAULT_COLS[road]
    cell = BASE_CELL * scale
    width, height = picture_size(road, cols, scale)
    scene = Scene(width=width, height=height, theme=theme)
    draw_panel(scene, shape, Panel(road, 0, 0, cell, cols), bead, new_cells or set())
    return scene


def scorecard_scene(
    shape: dict[str, Any],
    *,
    cols: int | None = None,
    theme: str = "light",
    scale: float = 1.0,
    bead: Bead = Bead(),
    new_cells: set[tuple[str, int, int]] | None = None,
) -> Scene:
    """The classic composite: Bead Plate and Big Road on top; Big Eye Boy below at half-size
    cells across the whole width; Small Road and Cockroach Road side by side under it.
    ``cols`` counts Big Road columns; the Bead Plate gets a third as many."""
    big_cols = cols or DEFAULT_COLS["scorecard"]
    bead_cols = max(4, big_cols // 3)
    cell = BASE_CELL * scale
    half = cell / 2
    width_cells = big_cols + bead_cols
    width, height = picture_size("scorecard", big_cols, scale)
    scene = Scene(width=width, height=height, theme=theme)
    top = ROWS * cell
    panels = [
        Panel("bead_plate", 0, 0, cell, bead_cols),
        Panel("big_road", bead_cols * cell, 0, cell, big_cols),
        Panel("big_eye_boy", 0, top, half, width_cells * 2),
        Panel("small_road", 0, top + ROWS * half, half, width_cells),
        Panel("cockroach_road", width_cells * cell / 2, top + ROWS * half, half, width_cells),
    ]
    for panel in panels:
        draw_panel(scene, shape, panel, bead, new_cells or set())
    return scene


def picture_scene(shape: dict[str, Any], picture: str, **options: Any) -> Scene:
    """The scene of ``picture``: one road by name, or ``"scorecard"`` for the composite."""
    if picture == "scorecard":
        return scorecard_scene(shape, **options)
    return road_scene(shape, picture, **options)


def items_of(shape: dict[str, Any], road: str) -> list[dict[str, Any]]:
    """The road's items with their grid cells, from the roads JSON."""
    if road == "bead_plate":
        return shape["bead_plate"]
    return [item for column in shape[road]["columns"] for item in column]


def first_visible(items: list[dict[str, Any]], cols: int) -> int:
    """The first grid column shown: the view keeps the newest ``cols`` whole columns."""
    last = max((item["col"] for item in items), default=0)
    return max(0, last + 1 - cols)


def draw_panel(
    scene: Scene,
    shape: dict[str, Any],
    panel: Panel,
    bead: Bead,
    new_cells: set[tuple[str, int, int]],
) -> None:
    cell, road = panel.cell, panel.road
    width, height = panel.cols * cell, ROWS * cell
    for col in range(panel.cols + 1):
        x = panel.x + col * cell
        scene.grid.append(((x, panel.y), (x, panel.y + height)))
    for row in range(ROWS + 1):
        y = panel.y + row * cell
        scene.grid.append(((panel.x, y), (panel.x + width, y)))

    items = items_of(shape, road)
    crosses = cancelled_of(shape) if road == "bead_plate" else []
    first = first_visible(items + crosses, panel.cols)
    for item in items:
        col, row = item["col"], item["row"]
        if col < first:
            continue
        x = panel.x + (col - first + 0.5) * cell
        y = panel.y + (row + 0.5) * cell
        draw_item(scene, road, item, x, y, cell, bead)
        if (road, col, row) in new_cells:
            scene.highlights.append((x, y, cell))
    for cross in crosses:
        if cross["col"] >= first:
            x = panel.x + (cross["col"] - first + 0.5) * cell
            draw_cancelled(scene, x, panel.y + (cross["row"] + 0.5) * cell, cell)
    if road == "big_road" and shape["big_road"]["leading_ties"] and first == 0:
        # Ties before any Banker/Player result sit on the first cell.
        x, y = panel.x + 0.5 * cell, panel.y + 0.5 * cell
        draw_ties(scene, x, y, cell, shape["big_road"]["leading_ties"])


def cancelled_of(shape: dict[str, Any]) -> list[dict[str, Any]]:
    """The Bead Plate's cancelled-round marks, as cells (``col``, ``row``, ``count``)."""
    marks = cancelled_marks(shape["bead_plate"], shape["stats"]["void_rounds"])
    return [{"col": col, "row": row, "count": count} for col, row, count in marks]


def draw_cancelled(scene: Scene, x: float, y: float, cell: float) -> None:
    """The X of cancelled rounds, at the top right of the cell centred on (x, y)."""
    mark = MARKS["cancelled"]
    cx, cy, half = x + cell * mark["offset"], y - cell * mark["offset"], cell * mark["half"]
    color, width = THEMES[scene.theme]["cancelled"], cell * mark["width"]
    scene.slashes.append((cx - half, cy + half, cx + half, cy - half, color, width))
    scene.slashes.append((cx - half, cy - half, cx + half, cy + half, color, width))


def draw_item(scene: Scene, road: str, item: dict, x: float, y: float, cell: float, bead: Bead):
    col, row = item["col"], item["row"]
    if road == "bead_plate":
        color = COLORS[item["result"]]
        scene.discs.append((x, y, cell * MARKS["bead"]["disc"], color))
        text = bead.text(item["result"], item["winning_total"])
        scene.glyphs.append((x, y, text, cell * MARKS["bead"]["text"], THEMES[scene.theme]["text"]))
        draw_pairs(scene, item, x, y, cell)
        scene.cells.append((road, col, row, item["result"]))
    elif road == "big_road":
        scene.rings.append((x, y, cell * MARKS["big_road"]["ring"], COLORS[item["result"]]))
        if item["ties"]:
            draw_ties(scene, x, y, cell, item["ties"])
        draw_pairs(scene, item, x, y, cell)
        scene.cells.append((road, col, row, item["result"]))
    else:
        color = COLORS[item["color"]]
        mark = MARKS[road]
        if road == "big_eye_boy":
            scene.rings.append((x, y, cell * mark["ring"], color))
        elif road == "small_road":
            scene.discs.append((x, y, cell * mark["disc"], color))
        else:
            half = cell * mark["slash"]
            scene.slashes.append(
                (x - half, y + half, x + half, y - half, color, cell * mark["width"])
            )
        scene.cells.append((road, col, row, item["color"]))


def draw_ties(scene: Scene, x: float, y: float, cell: float, ties: int) -> None:
    tie = MARKS["tie"]
    half = cell * tie["slash"]
    scene.slashes.append((x - half, y + half, x + half, y - half, COLORS["T"], cell * tie["width"]))
    if ties > 1:
        at = cell * tie["count_offset"]
        scene.glyphs.append((x + at, y + at, str(ties), cell * tie["count"], COLORS["T"]))


def draw_pairs(scene: Scene, item: dict, x: float, y: float, cell: float) -> None:
    offset, size = cell * MARKS["pair"]["offset"], cell * MARKS["pair"]["dot"]
    if item["banker_pair"]:
        scene.dots.append((x - offset, y - offset, size, COLORS["B"]))
    if item["player_pair"]:
        scene.dots.append((x + offset, y + offset, size, COLORS["P"]))


def new_cells_of(before: dict[str, Any], after: dict[str, Any]) -> set[tuple[str, int, int]]:
    """The cells the preview ``after`` has that ``before`` has not (what Ask Banker/Player adds)."""
    cells = set()
    for road in ROADS:
        old = {(item["col"], item["row"]) for item in items_of(before, road)}
        cells |= {
            (road, item["col"], item["row"])
            for item in items_of(after, road)
            if (item["col"], item["row"]) not in old
        }
    return cells
