"""The fonts the pictures draw their letters and numbers in: DejaVu Sans bold (matplotlib's own)
for Latin letters and digits (Vietnamese's too), for Chinese, Japanese and Korean letters (the
Bead Plate's 庄 闲 和, 莊 閒) a CJK font of the host, and for Thai a Thai one, when it has them
(Debian's fonts-wqy-microhei or fonts-noto-cjk, fonts-thai-tlwg; the test command installs the
first and the last). Without one, a picture draws a text it cannot render in its Latin form
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


# Thai font files Debian ships (fonts-thai-tlwg's Loma, Garuda ...; Noto's).
_THAI_FILES = ("Loma", "Garuda", "Norasi", "Kinnari", "Sawasdee", "NotoSansThai", "tlwg")


def _first(parts: tuple[str, ...]) -> FontProperties | None:
    for path in sorted(findSystemFonts()):
        if any(part in path for part in parts):
            fontManager.addfont(path)
            return FontProperties(fname=path)
    return None


@cache
def cjk() -> FontProperties | None:
    """A CJK font of this host, registered with matplotlib once; ``None`` when it has none."""
    return _first(_CJK_FILES)


@cache
def thai() -> FontProperties | None:
    """A Thai font of this host, registered with matplotlib once; ``None`` when it has none."""
    return _first(_THAI_FILES)


def _latin(text: str) -> bool:
    """Text DejaVu Sans draws: Latin letters, Vietnamese's among them, and digits."""
    return all(ord(char) < 0x2000 and not 0x0E00 <= ord(char) <= 0x0E7F for char in text)


def _font(text: str) -> FontProperties | None:
    if _latin(text):
        return LATIN
    if any(0x0E00 <= ord(char) <= 0x0E7F for char in text):
        return thai()
    return cjk()


def can_draw(text: str) -> bool:
    """Whether the pictures can draw ``text``: Latin always, Thai with a Thai font, Chinese,
    Japanese and Korean with a CJK one."""
    return _font(text) is not None


def font_for(text: str) -> FontProperties:
    """The font ``text`` is drawn in (see :func:`can_draw` first)."""
    found = _font(text)
    if found is None:
        raise ValueError(f"no font on this host draws {text!r}")
    return found
