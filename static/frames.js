// The lobby in frames (/v1/events): each frame holds, per table, what changed since the
// frame before; applying them in order keeps every tile. The reference is api/codecs/frames.py.
const RECENT = 12; // results a tile lists (roads.lobby.RECENT)
const LOBBY_ROADS = ["big_road", "big_eye_boy", "small_road", "cockroach_road"];

const clone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

// Apply `frame` to `tiles` (a Map of table -> tile), in place; the tables it changed, each with
// the tile it replaced (undefined for a new one), and the tables it removed.
export function applyFrame(tiles, frame) {
  const changed = new Map();
  const removed = [];
  if (frame.full) {
    for (const table of tiles.keys()) if (!(table in frame.tables)) removed.push(table);
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
      tiles.delete(table);
      removed.push(table);
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
    // A run longer than the road's longest is its longest too (the delta says nothing more).
    if (run[1] > streak.longest.length) streak.longest = { side: run[0], length: run[1] };
  });
  if (delta.good) {
    tile.good_roads = Object.entries(delta.good).map(([pattern, since]) => ({ pattern, since_round: since }));
  }
  for (const [key, value] of Object.entries(delta)) {
    if (["results", "runs", "good"].includes(key)) continue;
    if (key === "streaks") {
      for (const [road, parts] of Object.entries(value)) Object.assign(tile.streaks[road], clone(parts));
    } else {
      tile[key] = clone(value);
    }
  }
}

// The Good Roads a table started matching between two tiles of it.
export function goodRoadsStarted(before, after) {
  const had = new Set((before?.good_roads ?? []).map((found) => found.pattern));
  return (after?.good_roads ?? []).filter((found) => !had.has(found.pattern));
}
