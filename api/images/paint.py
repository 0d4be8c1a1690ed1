"""Paint a :class:`~api.images.scene.Scene` to PNG bytes with matplotlib (Agg, object API).

Speed comes from reuse and from drawing each kind of mark as one collection:
- a Figure, canvas and axes per picture size and theme are kept (data coordinates are pixels,
  y down; 72 dpi so a point is a pixel); each picture only swaps the collections;
- rings and discs are one ``EllipseCollection`` each, slashes, grid and highlights one
  ``LineCollection`` each, and letters and numbers one scatter ``PathCollection`` per glyph,
  whose marker path is made once;
- PNG bytes come straight from the Agg buffer through Pillow: a 64-colour palette, so a
  composite is about 5 KB (serving it from cache is cheaper too).

matplotlib is not thread-safe, so painting holds one lock; it is CPU work under the GIL anyway.
"""

from __future__ import annotations

import io
import threading
from functools import cache

import numpy as np
from cachetools import LRUCache
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import EllipseCollection, LineCollection, PathCollection
from matplotlib.figure import Figure
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import IdentityTransform
from PIL import Image

from api.images.fonts import LATIN_CAP_HEIGHT, cjk, font_for
from api.images.scene import HIGHLIGHT, MARKS, STYLE, THEMES, Scene

DPI = 72  # one point is one pixel
_FIGURES_KEPT = 24
_lock = threading.Lock()
_figures: LRUCache[tuple[int, int, str], tuple[Figure, FigureCanvasAgg, object]] = LRUCache(
    maxsize=_FIGURES_KEPT
)


def paint(scene: Scene) -> bytes:
    """The scene as PNG bytes."""
    with _lock:
        _, canvas, axes = _figure(scene.width, scene.height, scene.theme)
        for collection in list(axes.collections):
            collection.remove()
        _draw(axes, scene)
        canvas.draw()
        image = Image.frombuffer(
            "RGBA", (scene.width, scene.height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1
        )
        # A scorecard has a handful of colours and their antialiased edges: a 64-colour palette
        # keeps it looking the same at a quarter of the bytes, for the same encoding time.
        palette = image.convert("RGB").quantize(colors=64, method=Image.Quantize.FASTOCTREE)
        out = io.BytesIO()
        palette.save(out, format="PNG", compress_level=6)
        return out.getvalue()


def _figure(width: int, height: int, theme: str):
    key = (width, height, theme)
    kept = _figures.get(key)
    if kept is not None:
        return kept
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    figure.patch.set_facecolor(THEMES[theme]["background"])
    canvas = FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.set_axis_off()
    axes.set_facecolor(THEMES[theme]["background"])
    _figures[key] = (figure, canvas, axes)
    return figure, canvas, axes


def _draw(axes, scene: Scene) -> None:
    theme = THEMES[scene.theme]
    axes.add_collection(
        LineCollection(scene.grid, colors=theme["grid"], linewidths=STYLE["grid_width"]),
        autolim=False,
    )
    _ellipses(axes, scene.discs, filled=True)
    _ellipses(axes, scene.rings, filled=False)
    _ellipses(axes, scene.dots, filled=True)
    if scene.slashes:
        axes.add_collection(
            LineCollection(
                [((x0, y0), (x1, y1)) for x0, y0, x1, y1, _, _ in scene.slashes],
                colors=[color for *_, color, _ in scene.slashes],
                linewidths=[width for *_, width in scene.slashes],
                capstyle="round",
            ),
            autolim=False,
        )
    if scene.highlights:
        squares = []
        mark = MARKS["highlight"]
        for x, y, cell in scene.highlights:
            h = cell / 2 - mark["inset"]
            corners = [
                (x - h, y - h),
                (x + h, y - h),
                (x + h, y + h),
                (x - h, y + h),
                (x - h, y - h),
            ]
            squares.append(corners)
        width = max(mark["least"], scene.highlights[0][2] * mark["width"])
        axes.add_collection(
            LineCollection(squares, colors=HIGHLIGHT, linewidths=width), autolim=False
        )
    if scene.glyphs:
        glyphs = PathCollection(
            [_glyph(text) for _, _, text, _, _ in scene.glyphs],
            sizes=[size**2 for _, _, _, size, _ in scene.glyphs],
            offsets=[(x, y) for x, y, _, _, _ in scene.glyphs],
            offset_transform=axes.transData,
            facecolors=[color for *_, color in scene.glyphs],
            linewidths=0,
        )
        glyphs.set_transform(IdentityTransform())
        axes.add_collection(glyphs, autolim=False)


def _ellipses(axes, marks: list[tuple[float, float, float, str]], *, filled: bool) -> None:
    if not marks:
        return
    sizes = np.array([d for _, _, d, _ in marks])
    colors = [color for *_, color in marks]
    axes.add_collection(
        EllipseCollection(
            sizes,
            sizes,
            np.zeros(len(marks)),
            units="xy",
            offsets=[(x, y) for x, y, _, _ in marks],
            offset_transform=axes.transData,
            facecolors=colors if filled else "none",
            edgecolors="none" if filled else colors,
            linewidths=0 if filled else sizes * STYLE["ring_width"],
        ),
        autolim=False,
    )


@cache
def _glyph(text: str) -> Path:
    """``text`` as a path in its font (:mod:`api.images.fonts`), centred on the origin, one unit
    per capital's height; a Chinese letter as tall as a capital (made once per text: laying out
    the text is the slow part)."""
    path = TextPath((0, 0), text, size=1, prop=font_for(text))
    low, high = path.vertices.min(axis=0), path.vertices.max(axis=0)
    height = LATIN_CAP_HEIGHT if text.isascii() else high[1] - low[1]
    return Path((path.vertices - (low + high) / 2) / height, path.codes)


def warm_up() -> None:
    """Load matplotlib's fonts and caches now (gunicorn's preload) so no request pays for it."""
    from api.images.scene import scorecard_scene
    from roads import Scorecard
    from roads.simulator import deal_shoe

    shape = Scorecard.from_rounds(deal_shoe(1)).as_dict()
    for theme in THEMES:
        paint(scorecard_scene(shape, theme=theme))
    # The letters of every language's Bead Plate (api/http/catalogues.py), and the totals.
    letters = ["B", "P", "T", "G", "S", "J", "E", *map(str, range(40))]
    for text in letters + (["庄", "闲", "和"] if cjk() is not None else []):
        _glyph(text)
