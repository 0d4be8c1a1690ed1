"""Small readers shared by the tests: roads drawn as text, marks as letters."""

from roads import Scorecard


def big_road_rows(scorecard: Scorecard) -> str:
    """The Big Road's display grid as text rows (``.`` = empty), joined by `` / ``."""
    cells = {
        (cell["col"], cell["row"]): cell["result"]
        for column in scorecard.as_dict()["big_road"]["columns"]
        for cell in column
    }
    width = max((col for col, _ in cells), default=-1) + 1
    return " / ".join(
        "".join(cells.get((col, row), ".") for col in range(width)) for row in range(6)
    )


def marks(scorecard: Scorecard, road: str) -> str:
    """A derived road's marks as ``r``/``b`` letters."""
    return "".join(mark[0] for mark in scorecard.as_dict()[road]["marks"])


def probe_letters(scorecard: Scorecard, side: str) -> str:
    """Ask Banker / Ask Player marks as ``r``/``b``/``-`` (Big Eye Boy, Small, Cockroach)."""
    probe = scorecard.probe()[side]
    names = ("big_eye_boy", "small_road", "cockroach_road")
    return "".join((probe[name] or "-")[0] for name in names)
