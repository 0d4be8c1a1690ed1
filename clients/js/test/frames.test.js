import assert from "node:assert/strict";
import { test } from "node:test";
import { applyFrame, applyRoadChange, goodRoadsStarted, step, TILE_COLUMNS } from "../src/frames.js";

const road = (from, cols, extras) => (extras ? { from, cols, extras } : { from, cols });

test("a change replaces the columns from its column on", () => {
  assert.deepEqual(applyRoadChange(road(0, "BB,P"), [1, "PP"]), road(0, "BB,PP"));
  assert.deepEqual(applyRoadChange(road(0, "BB,P"), [2, "B"]), road(0, "BB,P,B"));
  assert.deepEqual(applyRoadChange(road(0, ""), [0, "B"]), road(0, "B"));
});

test("the tile keeps the newest columns, and the extras in them", () => {
  const full = Array.from({ length: TILE_COLUMNS }, (_, i) => (i % 2 ? "P" : "B")).join(",");
  const before = road(3, full, [[3, 0, 1, 0], [9, 0, 0, 2]]);
  const after = applyRoadChange(before, [3 + TILE_COLUMNS, "P"]);
  assert.equal(after.from, 4);
  assert.equal(after.cols.split(",").length, TILE_COLUMNS);
  assert.deepEqual(after.extras, [[9, 0, 0, 2]]);
});

test("the Big Road's extras from the change's column on are the change's", () => {
  const before = { from: 0, cols: "B,P", extras: [[0, 0, 0, 1], [1, 0, 1, 0]], lead: 2 };
  const after = applyRoadChange(before, [1, "P", [[1, 0, 2, 0]]]);
  assert.deepEqual(after, { from: 0, cols: "B,P", extras: [[0, 0, 0, 1], [1, 0, 2, 0]], lead: 2 });
  assert.deepEqual(applyRoadChange(before, [1, "P", []]).extras, [[0, 0, 0, 1]]);
});

test("a frame's delta keeps a tile", () => {
  const tile = {
    table: "t1", shoe: "s1", version: 3, rounds_played: 3, recent: ["B", "B", "P"],
    streaks: Object.fromEntries(["big_road", "big_eye_boy", "small_road", "cockroach_road"].map(
      (r) => [r, { current: { side: null, length: 0 }, longest: { side: null, length: 0 } }])),
    good_roads: [], edge: {},
    roads: { big_road: road(0, "BB,P"), big_eye_boy: road(0, ""), small_road: road(0, ""), cockroach_road: road(0, "") },
  };
  const tiles = new Map([["t1", tile]]);
  const { changed } = applyFrame(tiles, {
    cursor: 2, after: 1,
    tables: { t1: { results: ["P"], runs: [["P", 2]], cells: [[1, "PP"], null, null, null], good: { player_streak: 3 } } },
  });
  const now = tiles.get("t1");
  assert.equal(changed.get("t1"), tile);
  assert.equal(now.rounds_played, 4);
  assert.equal(now.version, 4);
  assert.deepEqual(now.recent, ["B", "B", "P", "P"]);
  assert.deepEqual(now.streaks.big_road.current, { side: "P", length: 2 });
  assert.deepEqual(now.streaks.big_road.longest, { side: "P", length: 2 });
  assert.deepEqual(now.roads.big_road, road(0, "BB,PP"));
  assert.deepEqual(goodRoadsStarted(tile, now), [{ pattern: "player_streak", since_round: 3 }]);
  assert.equal(tile.rounds_played, 3, "the old tile is not changed");
  applyFrame(tiles, { cursor: 3, after: 2, tables: { t1: { retired: true } } });
  assert.equal(tiles.size, 0);
});

test("a run keeps the chance the frame states beside it", () => {
  const empty = { current: { side: null, length: 0, chance: null, lobby_chance: null }, longest: { side: null, length: 0 } };
  const tile = {
    table: "t1", shoe: "s1", version: 1, rounds_played: 1, recent: ["B"], good_roads: [], edge: {},
    streaks: Object.fromEntries(["big_road", "big_eye_boy", "small_road", "cockroach_road"].map((r) => [r, structuredClone(empty)])),
    roads: {},
  };
  const tiles = new Map([["t1", tile]]);
  applyFrame(tiles, { cursor: 2, after: 1, tables: { t1: { runs: [["B", 8, 0.135, 0.766], null, ["red", 3, 0.999, 1]] } } });
  const now = tiles.get("t1").streaks;
  assert.deepEqual(now.big_road.current, { side: "B", length: 8, chance: 0.135, lobby_chance: 0.766 });
  assert.deepEqual(now.big_road.longest, { side: "B", length: 8 });
  assert.deepEqual(now.small_road.current, { side: "red", length: 3, chance: 0.999, lobby_chance: 1 });
  assert.deepEqual(now.big_eye_boy, empty);
});

test("a client applies the next frame, skips old ones and restarts after a gap", () => {
  assert.equal(step(null, { full: true, cursor: 5 }), "apply");
  assert.equal(step(null, { cursor: 6, after: 5 }), "restart");
  assert.equal(step(5, { cursor: 6, after: 5 }), "apply");
  assert.equal(step(6, { cursor: 6, after: 5 }), "skip");
  assert.equal(step(6, { cursor: 9, after: 8 }), "restart");
});
