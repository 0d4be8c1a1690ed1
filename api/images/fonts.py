"""The fonts the pictures draw their letters and numbers in: DejaVu Sans bold (matplotlib's own)
for Latin letters and digits, and for Chinese letters (the Bead Plate's 庄 闲 和) a CJK font of
the host, when it has one (Debian's fonts-wqy-microhei or fonts-noto-cjk; the test command
installs the first). Without one, a picture draws a text it cannot render in its Latin form
(:func:`can_draw`); nothing is drawn as empty boxes.
"""

from __future__ import annotations

from functools import cache

from matplotlib.font_manager import FontProperties, findSystemFonts, fontManager

from api.images.scene import STYLE

FONT = STYLE["font"]  # the font the SVG of clients/js asks for too
LATIN = FontProperties(family=FONT["family"], weight=FONT["weight"])
LATIN_CAP_HEIGHT: float = FONT["cap_height"]  # DejaVu Sans capital height, in ems

# Font files of CJK families Debian ships, by a part of their file names.
_CJK_FILES = ("wqy-microhei", "wqy-zenhei", "NotoSansCJK", "NotoSansSC", "DroidSansFallback")


@cache
def cjk() -> FontProperties | None:
    """A CJK font of this host, registered with matplotlib once; ``None`` when it has none."""
    for path in sorted(findSystemFonts()):
        if any(part in path for part in _CJK_FILES):
            fontManager.addfont(path)
            return FontProperties(fname=path)
    return None


def can_draw(text: str) -> bool:
    """Whether the pictures can draw ``text``: Latin always, Chinese with a CJK font."""
    return text.isascii() or cjk() is not None


def font_for(text: str) -> FontProperties:
    """The font ``text`` is drawn in (see :func:`can_draw` first)."""
    if text.isascii():
        return LATIN
    found = cjk()
    if found is None:
        raise ValueError(f"no font on this host draws {text!r}")
    return found
