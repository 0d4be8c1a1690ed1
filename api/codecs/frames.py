"""A frame of the lobby feed: the changes of every table's tile since the previous frame, as
``{"cursor": N, "after": M, "tables": {TABLE: delta}}`` (``"full": true``, and no ``after``,
when ``tables`` holds every table's whole tile instead, which replaces what a client held).
``server_time`` is the service's clock as the frame was built (RFC 3339, the countdown's
reference for a tile's ``status_until``).
``cursor`` is the lobby's cursor at the frame; ``after``, the cursor of the frame it applies to
(of those carrying anything for the client), so a client that reads frames from a fan-out
without ordering of its own (nchan) can tell that it missed one: it applies a frame whose
``after`` is the cursor it holds, skips one whose ``cursor`` it has passed, and on any other
starts again from a full frame.

A client holds the tiles of a frame (the feed's first frame for it is a full one) and applies
each next frame in order; a delta names only what changed since the frame before:

- ``results``: the results the tile's ``recent`` gained (oldest first): ``rounds_played`` grows
  by as many, and so does ``version`` unless the delta names it; ``recent`` whole instead when
  it changed otherwise (a new shoe, a correction, a void);
- ``runs``: the current run of each lobby road, in :data:`roads.lobby.LOBBY_ROADS` order, as
  ``[side, length, chance, lobby_chance]``, ``null`` where it did not change (the tile's
  ``streaks[road]["current"]`` in a third of the bytes); a run longer than the road's longest
  is its longest too; ``streaks``: only the longest runs that changed otherwise
  (``{road: {"longest": ...}}``), merged into the tile's;
- ``good``: the Good Roads matched now as ``{pattern: since_round}`` (the tile's ``good_roads``,
  in that order, in half the bytes);
- ``cells``: what changed of the cells each lobby road shows (the tile's ``roads``, see
  :mod:`roads.tileroads`), in :data:`roads.lobby.LOBBY_ROADS` order, ``null`` where nothing did:
  ``[at, cols]`` says that the grid columns from ``at`` on are now ``cols`` (that form), and on
  the Big Road ``[at, cols, extras]`` that its ``extras`` from column ``at`` on are now those;
  the client then keeps the newest :data:`roads.tileroads.TILE_COLUMNS` columns (``from`` moves
  on, and the extras before it go). ``roads`` whole instead when it changed otherwise;
- any other field (``shoe``, ``version``, ``rounds_played``, ``edge``, ``name``, ``variant``,
  ``next_variant``, ``limits``, ``status``, ``status_until``, ``status_reason``): its new value
  whole;
- ``{"tile": {...}}``: a table new to the lobby, whole; ``{"retired": true}``: gone from it.

:func:`apply` is the client's side, in Python (the tests, and the reference for
``static/`` and ``clients/js/``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from roads.lobby import LOBBY_ROADS, RECENT
from roads.tileroads import TILE_COLUMNS

Tile = dict[str, Any]
MERGED = ("streaks",)  # fields whose deltas hold only the parts that changed


def tile_delta(old: Tile | None, new: Tile | None) -> dict[str, Any] | None:
    """What a frame says of a table whose tile went from ``old`` to ``new`` (``None``: absent
    from the lobby); ``None`` when nothing changed."""
    if new is None:
        return {"retired": True} if old is not None else None
    if old is None:
        return {"tile": new}
    delta: dict[str, Any] = {}
    for key, value in new.items():
        if key in ("recent", "streaks", "good_roads", "roads"):
            continue
        if value != old.get(key):
            delta[key] = value
    if new["good_roads"] != old.get("good_roads"):
        delta["good"] = {found["pattern"]: found["since_round"] for found in new["good_roads"]}
    runs, longest = _streak_changes(old.get("streaks") or {}, new["streaks"])
    if runs:
        delta["runs"] = runs
    if longest:
        delta["streaks"] = longest
    cells = _cells_changes(old.get("roads"), new["roads"])
    if cells is None:
        delta["roads"] = new["roads"]
    elif cells:
        delta["cells"] = cells
    gained = _gained(old, new)
    if gained is None:
        delta["recent"] = new["recent"]
    elif gained:
        delta["results"] = gained
        del delta["rounds_played"]  # grows by the results
        if new["version"] == old["version"] + len(gained):
            delta.pop("version", None)
    return delta or None


def _gained(old: Tile, new: Tile) -> list[str] | None:
    """The results ``new`` added to ``old``'s recent ones (``[]``: none), or ``None`` when
    ``recent`` changed in another way."""
    count = new["rounds_played"] - old["rounds_played"]
    if new.get("shoe") != old.get("shoe") or count < 0:
        return None
    if count == 0:
        return [] if new["recent"] == old["recent"] else None
    gained = new["recent"][-count:] if count <= len(new["recent"]) else None
    if gained is None or (old["recent"] + gained)[-RECENT:] != new["recent"]:
        return None
    return gained


def _streak_changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[list[list | None], dict[str, dict]]:
    """The current runs that changed, as ``[side, length, chance, lobby_chance]``, and the
    longest that changed."""
    runs: list[list | None] = []
    longest = {}
    for road in LOBBY_ROADS:
        streak, old = after[road], before.get(road) or {}
        current, moved = streak["current"], streak["current"] != old.get("current")
        run = [current["side"], current["length"]]
        if "chance" in current:  # a tile stored before runs had their chance has none
            run += [current["chance"], current["lobby_chance"]]
        runs.append(run if moved else None)
        if streak["longest"] == old.get("longest"):
            continue
        grown = (old.get("longest") or {}).get("length", 0) < current["length"]
        said = streak["longest"] == {"side": run[0], "length": run[1]}
        if not (moved and grown and said):  # else the run says it
            longest[road] = {"longest": streak["longest"]}
    return (runs if any(run is not None for run in runs) else []), longest


def _cells_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list | None:
    """Each lobby road's change as ``cells`` says it (``[]``: none changed), or ``None`` when one
    cannot be said so (the whole ``roads`` goes)."""
    if before is None:
        return None
    changes: list[list | None] = []
    for road in LOBBY_ROADS:
        old, new = before.get(road), after[road]
        if old == new:
            changes.append(None)
            continue
        change = _road_change(old, new) if old is not None else None
        if change is None or apply_road_change(old, change) != new:
            return None
        changes.append(change)
    return changes if any(change is not None for change in changes) else []


def _columns(road: Mapping[str, Any]) -> dict[int, str]:
    texts = road["cols"].split(",") if road["cols"] else []
    return {road["from"] + index: text for index, text in enumerate(texts)}


def _road_change(old: Mapping[str, Any], new: Mapping[str, Any]) -> list | None:
    if old.get("lead") != new.get("lead"):
        return None
    old_columns, new_columns = _columns(old), _columns(new)
    old_extras = {tuple(extra) for extra in old.get("extras", ())}
    new_extras = {tuple(extra) for extra in new.get("extras", ())}
    differ = [col for col in old_columns.keys() | new_columns.keys()
              if old_columns.get(col) != new_columns.get(col)]  # fmt: skip
    differ += [extra[0] for extra in old_extras ^ new_extras]
    at = min((col for col in differ if col >= new["from"]), default=None)
    if at is None or at < old["from"]:
        return None
    change: list = [at, ",".join(text for col, text in new_columns.items() if col >= at)]
    if any(extra[0] >= at for extra in old_extras | new_extras):
        change.append([extra for extra in new.get("extras", ()) if extra[0] >= at])
    return change


def apply_road_change(road: Mapping[str, Any], change: list) -> dict[str, Any]:
    """A tile road (:mod:`roads.tileroads`) after one change of a delta's ``cells``."""
    at, text = change[0], change[1]
    first = road["from"]
    texts = road["cols"].split(",") if road["cols"] else []
    texts = texts[: at - first] + (text.split(",") if text else [])
    shown = max(first, first + len(texts) - TILE_COLUMNS)
    extras = list(road.get("extras", ()))
    if len(change) > 2:
        extras = [extra for extra in extras if extra[0] < at] + [list(e) for e in change[2]]
    result: dict[str, Any] = {"from": shown, "cols": ",".join(texts[shown - first :])}
    extras = [extra for extra in extras if extra[0] >= shown]
    if extras:
        result["extras"] = extras
    if "lead" in road:
        result["lead"] = road["lead"]
    return result


def step(cursor: int | None, frame: Mapping[str, Any]) -> str:
    """What a client holding the tiles at ``cursor`` (``None``: none yet) does with ``frame``
    when nothing else orders the frames for it (nchan): ``"apply"`` it (a full frame, or the one
    right after ``cursor``), ``"skip"`` it (its changes are in what the client holds already),
    or ``"restart"`` from a full frame (the client missed one)."""
    if frame.get("full"):
        return "apply"
    if cursor is not None and frame["cursor"] <= cursor:
        return "skip"
    return "apply" if cursor is not None and frame["after"] == cursor else "restart"


def apply(tiles: dict[str, Tile], frame: Mapping[str, Any]) -> None:
    """Apply ``frame`` to a client's ``tiles`` (by table), in place."""
    if frame.get("full"):
        tiles.clear()
        tiles.update(copy.deepcopy(dict(frame["tables"])))
        return
    for table, delta in frame["tables"].items():
        if delta.get("retired"):
            tiles.pop(table, None)
        elif "tile" in delta:
            tiles[table] = copy.deepcopy(delta["tile"])
        else:
            _apply_delta(tiles[table], delta)


def _apply_delta(tile: Tile, delta: Mapping[str, Any]) -> None:
    if "results" in delta:
        results = delta["results"]
        tile["recent"] = (tile["recent"] + list(results))[-RECENT:]
        tile["rounds_played"] += len(results)
        tile["version"] += len(results)  # unless the delta names it (below)
    for road, run in zip(LOBBY_ROADS, delta.get("runs", ()), strict=False):
        if run is not None:
            streak = tile["streaks"][road]
            streak["current"] = {"side": run[0], "length": run[1]}
            if len(run) > 2:
                streak["current"].update(chance=run[2], lobby_chance=run[3])
            if run[1] > streak["longest"]["length"]:
                streak["longest"] = {"side": run[0], "length": run[1]}
    for road, change in zip(LOBBY_ROADS, delta.get("cells", ()), strict=False):
        if change is not None:
            tile["roads"][road] = apply_road_change(tile["roads"][road], change)
    if "good" in delta:
        tile["good_roads"] = [
            {"pattern": pattern, "since_round": since} for pattern, since in delta["good"].items()
        ]
    for key, value in delta.items():
        if key in ("results", "runs", "good", "cells"):
            continue
        if key in MERGED:
            _merge(tile.setdefault(key, {}), value)
        else:
            tile[key] = copy.deepcopy(value)


def _merge(into: dict[str, Any], parts: Mapping[str, Any]) -> None:
    for key, value in parts.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)
