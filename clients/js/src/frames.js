// The lobby in frames (GET /v1/events without `tables`): the first frame a client gets holds every
// table's tile; each next one holds, per table, what changed since the frame before. Applying
// them in order keeps every tile. The reference, with every rule, is api/codecs/frames.py.

import { REFUSED_TOKENS } from "./jsonpatch.js";

export const RECENT = 12; // results a tile lists (roads.lobby.RECENT)
export const LOBBY_ROADS = ["big_road", "big_eye_boy", "small_road", "cockroach_road"];
export const TILE_COLUMNS = 14; // grid columns a tile holds of each road (roads.tileroads)

const clone = (value) => (value === undefined ? value : structuredClone(value));

// What a client holding the tiles at `cursor` (null: none yet) does with `frame` when nothing else
// orders the frames for it (a fan-out such as nchan): "apply" it, "skip" it (its changes are in
// the tiles already) or "restart" from a full frame (one was missed).
export function step(cursor, frame) {
  if (frame.full) return "apply";
  if (cursor !== null && frame.cursor <= cursor) return "skip";
  return cursor !== null && frame.after === cursor ? "apply" : "restart";
}

// Apply `frame` to `tiles` (a Map of table -> tile), in place. Returns the tables it changed, each
// with the tile it replaced (undefined for a new one), and the tables it removed.
export function applyFrame(tiles, frame) {
  const changed = new Map();
  const removed = [];
  if (frame.full) {
    for (const table of tiles.keys()) if (!Object.hasOwn(frame.tables, table)) removed.push(table);
    const before = new Map(tiles);
    tiles.clear();
    for (const [table, tile] of Object.entries(frame.tables)) {
      tiles.set(table, clone(tile));
      changed.set(table, before.get(table));
    }
    return { changed, removed };
  }
  for (const [table, delta] of Object.entries(frame.tables)) {
    if (delta.retired) {
      if (tiles.delete(table)) removed.push(table);
    } else if (delta.tile) {
      changed.set(table, tiles.get(table));
      tiles.set(table, clone(delta.tile));
    } else if (tiles.has(table)) {
      const old = tiles.get(table);
      const tile = clone(old);
      applyDelta(tile, delta);
      tiles.set(table, tile);
      changed.set(table, old);
    }
  }
  return { changed, removed };
}

const SPECIAL = new Set(["results", "runs", "good", "cells"]);
// Never a tile's own field: set on an object, each would reach its prototype (frameschema.js
// drops a frame naming one before it gets here).
const REFUSED = new Set(REFUSED_TOKENS);

function applyDelta(tile, delta) {
  if (delta.results) {
    // rounds_played grows by the results, and version too unless the delta names it (below).
    tile.recent = tile.recent.concat(delta.results).slice(-RECENT);
    tile.rounds_played += delta.results.length;
    tile.version += delta.results.length;
  }
  (delta.runs ?? []).forEach((run, at) => {
    if (!run) return;
    const streak = tile.streaks[LOBBY_ROADS[at]];
    streak.current = { side: run[0], length: run[1] };
    // The chance of a run this long in a shoe, and at one of the lobby's tables (roads/rarity.py).
    if (run.length > 2) Object.assign(streak.current, { chance: run[2], lobby_chance: run[3] });
    // A run longer than the road's longest is its longest too (the delta says nothing more).
    if (run[1] > streak.longest.length) streak.longest = { side: run[0], length: run[1] };
  });
  (delta.cells ?? []).forEach((change, at) => {
    if (change) tile.roads[LOBBY_ROADS[at]] = applyRoadChange(tile.roads[LOBBY_ROADS[at]], change);
  });
  if (delta.good) {
    tile.good_roads = Object.entries(delta.good).map(([pattern, since]) => ({ pattern, since_round: since }));
  }
  for (const [key, value] of Object.entries(delta)) {
    if (SPECIAL.has(key) || REFUSED.has(key)) continue;
    if (key === "streaks") {
      for (const [road, parts] of Object.entries(value)) {
        if (LOBBY_ROADS.includes(road)) Object.assign(tile.streaks[road], clone(parts));
      }
    } else {
      tile[key] = clone(value);
    }
  }
}

const split = (cols) => (cols ? cols.split(",") : []);

// A tile road ({from, cols, extras?, lead?}) after one change of a delta's `cells`: the grid
// columns from `at` on are `cols`, and on the Big Road its extras from `at` on are `extras`;
// then the tile keeps its newest TILE_COLUMNS columns.
export function applyRoadChange(road, [at, cols, extras]) {
  const first = road.from;
  const texts = split(road.cols).slice(0, at - first).concat(split(cols));
  const shown = Math.max(first, first + texts.length - TILE_COLUMNS);
  let kept = road.extras ?? [];
  if (extras !== undefined) kept = kept.filter((extra) => extra[0] < at).concat(clone(extras));
  const result = { from: shown, cols: texts.slice(shown - first).join(",") };
  kept = kept.filter((extra) => extra[0] >= shown);
  if (kept.length) result.extras = kept;
  if (road.lead !== undefined) result.lead = road.lead;
  return result;
}

// The Good Roads a table started matching between two tiles of it.
export function goodRoadsStarted(before, after) {
  const had = new Set((before?.good_roads ?? []).map((found) => found.pattern));
  return (after?.good_roads ?? []).filter((found) => !had.has(found.pattern));
}
