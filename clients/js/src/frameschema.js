// What a lobby frame may hold (api/codecs/frames.py says what each part means): a frame from the
// network is checked before it is applied, and one that does not match is dropped, the feed then
// starting again from a full frame (lobbyfeed.js). So a forged or broken frame can neither put a
// value of the wrong kind into a tile (a road's `from` that is markup, not a column) nor reach
// Object.prototype through a member named __proto__, constructor or prototype.
//
// A field this client does not know is kept as it comes (a newer service may send more), as long
// as no member of it is named so.
import { LOBBY_ROADS, RECENT } from "./frames.js";
import { REFUSED_TOKENS } from "./jsonpatch.js";

const REFUSED = new Set(REFUSED_TOKENS);
const TABLE = /^[A-Za-z0-9_-]{1,64}$/; // a table's id (api/http/requests.ID_PATTERN)
const COLS = /^[BPrb.]*(?:,[BPrb.]*)*$/; // a tile road's columns (roads.tileroads)

class Problem extends Error {}

function need(ok, what) {
  if (!ok) throw new Problem(what);
}

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value) => Number.isSafeInteger(value) && value >= 0;
const isChance = (value) => value === null || (typeof value === "number" && Number.isFinite(value));
const isSide = (value) => value === null || ["B", "P", "red", "blue"].includes(value);
const isResults = (value) => Array.isArray(value) && value.every((r) => r === "B" || r === "P" || r === "T");

// No member of `value`, at any depth, is named as REFUSED says.
function safe(value, where) {
  if (Array.isArray(value)) {
    value.forEach((item, at) => safe(item, `${where}[${at}]`));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      need(!REFUSED.has(key), `${where}: a member named ${key}`);
      safe(item, `${where}.${key}`);
    }
  }
}

function streak(value, where, current) {
  need(isObject(value) && isSide(value.side) && isCount(value.length), `${where}: not a run`);
  if (current) need(isChance(value.chance ?? null) && isChance(value.lobby_chance ?? null), `${where}: not a chance`);
}

function streaks(value, where, whole) {
  need(isObject(value), `${where}: not the runs`);
  for (const [road, runs] of Object.entries(value)) {
    need(LOBBY_ROADS.includes(road) && isObject(runs), `${where}: not a lobby road: ${road}`);
    if (whole || runs.current !== undefined) streak(runs.current, `${where}.${road}.current`, true);
    if (whole || runs.longest !== undefined) streak(runs.longest, `${where}.${road}.longest`, false);
  }
  if (whole) need(LOBBY_ROADS.every((road) => Object.hasOwn(value, road)), `${where}: a lobby road missing`);
}

const isExtras = (value) => Array.isArray(value)
  && value.every((extra) => Array.isArray(extra) && extra.length === 4 && extra.every(isCount));

function road(value, where) {
  need(isObject(value) && isCount(value.from), `${where}.from: not a column`);
  need(typeof value.cols === "string" && COLS.test(value.cols), `${where}.cols: not columns`);
  need(value.extras === undefined || isExtras(value.extras), `${where}.extras: not extras`);
  need(value.lead === undefined || isCount(value.lead), `${where}.lead: not a count`);
}

function roads(value, where) {
  need(isObject(value), `${where}: not the roads`);
  for (const name of LOBBY_ROADS) road(value[name], `${where}.${name}`);
}

// The fields a tile and a delta share, each checked where it is present.
const FIELDS = {
  table: (v) => typeof v === "string" && TABLE.test(v),
  name: (v) => typeof v === "string",
  variant: (v) => typeof v === "string",
  shoe: (v) => v === null || typeof v === "string",
  version: isCount,
  rounds_played: isCount,
  recent: (v) => isResults(v) && v.length <= RECENT,
  good_roads: (v) => Array.isArray(v) && v.every((g) => isObject(g) && typeof g.pattern === "string" && isCount(g.since_round)),
  edge: (v) => isObject(v) && Object.values(v).every((rtp) => typeof rtp === "number" && Number.isFinite(rtp)),
};

function fields(value, where) {
  for (const [key, ok] of Object.entries(FIELDS)) {
    if (value[key] !== undefined) need(ok(value[key]), `${where}.${key}: not what a tile holds`);
  }
  if (value.roads !== undefined) roads(value.roads, `${where}.roads`);
}

function tile(value, where) {
  need(isObject(value), `${where}: not a tile`);
  for (const key of [...Object.keys(FIELDS), "streaks", "roads"]) need(Object.hasOwn(value, key), `${where}.${key}: missing`);
  fields(value, where);
  streaks(value.streaks, `${where}.streaks`, true);
}

const isRun = (run) => run === null || (Array.isArray(run) && run.length >= 2 && run.length <= 4
  && isSide(run[0]) && isCount(run[1]) && run.slice(2).every(isChance));
const isCellChange = (change) => change === null || (Array.isArray(change) && change.length >= 2
  && change.length <= 3 && isCount(change[0]) && typeof change[1] === "string" && COLS.test(change[1])
  && (change.length === 2 || isExtras(change[2])));

function delta(value, where) {
  need(isObject(value), `${where}: not a delta`);
  if (value.retired !== undefined) return need(value.retired === true, `${where}.retired: not true`);
  if (value.tile !== undefined) return tile(value.tile, `${where}.tile`);
  fields(value, where);
  if (value.streaks !== undefined) streaks(value.streaks, `${where}.streaks`, false);
  need(value.results === undefined || isResults(value.results), `${where}.results: not results`);
  need(value.runs === undefined || (Array.isArray(value.runs) && value.runs.length <= LOBBY_ROADS.length
    && value.runs.every(isRun)), `${where}.runs: not runs`);
  need(value.cells === undefined || (Array.isArray(value.cells) && value.cells.length <= LOBBY_ROADS.length
    && value.cells.every(isCellChange)), `${where}.cells: not cells`);
  need(value.good === undefined || (isObject(value.good) && Object.values(value.good).every(isCount)),
    `${where}.good: not Good Roads`);
}

// Why `frame` is not a lobby frame (a text naming the first part that is wrong), or null when it
// is one.
export function frameProblem(frame) {
  try {
    need(isObject(frame), "not an object");
    need(isCount(frame.cursor), "cursor: not a count");
    need(frame.full === undefined || frame.full === true, "full: not true");
    if (!frame.full) need(isCount(frame.after), "after: not a count");
    need(isObject(frame.tables), "tables: not an object");
    for (const [table, part] of Object.entries(frame.tables)) {
      need(TABLE.test(table), `tables: not a table id: ${table}`);
      safe(part, `tables.${table}`);
      if (frame.full) tile(part, `tables.${table}`);
      else delta(part, `tables.${table}`);
    }
    return null;
  } catch (error) {
    if (error instanceof Problem) return error.message;
    throw error;
  }
}
