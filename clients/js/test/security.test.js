// What data from the network cannot do to a page using the client: reach Object.prototype
// through a JSON Patch or a frame, become markup in a road's SVG, or be applied when it is not a
// frame.
import assert from "node:assert/strict";
import { test } from "node:test";
import { tileCells } from "../src/cells.js";
import { LOBBY_ROADS } from "../src/frames.js";
import { frameProblem } from "../src/frameschema.js";
import { applyPatch, REFUSED_TOKENS } from "../src/jsonpatch.js";
import { LobbyFeed } from "../src/lobbyfeed.js";
import { escape, roadSvg, roadSvgElement } from "../src/svg.js";

const HOSTILE = '"><img src=x onerror=alert(1)>';

test("a patch naming __proto__, constructor or prototype is refused, and nothing is polluted", () => {
  const paths = ["/__proto__/polluted", "/a/constructor/prototype/polluted", "/prototype", "/a/__proto__"];
  for (const path of paths) {
    for (const op of ["add", "replace", "remove", "test"]) {
      assert.throws(() => applyPatch({ a: {} }, [{ op, path, value: 1 }]), /refused JSON Pointer token/, `${op} ${path}`);
    }
    assert.throws(() => applyPatch({ a: {} }, [{ op: "copy", from: path, path: "/b" }]), /refused/);
    assert.throws(() => applyPatch({ a: {} }, [{ op: "move", from: "/a", path }]), /refused/);
  }
  assert.deepEqual(REFUSED_TOKENS, ["__proto__", "constructor", "prototype"]);
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
  // What an object inherits is no member of the document.
  assert.throws(() => applyPatch({}, [{ op: "test", path: "/toString", value: null }]), /no such path/);
  assert.throws(() => applyPatch({}, [{ op: "add", path: "/hasOwnProperty/x", value: 1 }]), /no such path/);
  // A value is data, whatever its members are named.
  const after = applyPatch({}, [{ op: "add", path: "/v", value: JSON.parse('{"__proto__": {"polluted": 1}}') }]);
  assert.equal(after.v.polluted, undefined);
  assert.equal({}.polluted, undefined);
});

test("a tile road whose from is markup is drawn as text: no element is made of it", () => {
  const drawn = tileCells({ from: HOSTILE, cols: "B,P" });
  const svg = roadSvg("big_road", drawn, { cols: 14, label: HOSTILE });
  assert.doesNotMatch(svg, /<img/);
  assert.doesNotMatch(svg, /onerror=alert\(1\)>/);
  assert.match(svg, /data-cell="&#34;&#62;&#60;img src=x onerror=alert\(1\)&#62;0,0,B"/);
  // Every tag in the text is one the client writes.
  const tags = new Set([...svg.matchAll(/<([a-zA-Z][^\s/>]*)/g)].map((m) => m[1]));
  assert.deepEqual([...tags].sort(), ["circle", "g", "path", "rect", "svg"]);
  // Unescaped, the text holds no quote or bracket that could end an attribute or open a tag.
  for (const [, value] of svg.matchAll(/="([^"]*)"/g)) assert.doesNotMatch(value, /[<>"]/);
  assert.equal(escape(HOSTILE), "&#34;&#62;&#60;img src=x onerror=alert(1)&#62;");
});

// A Document enough for roadSvgElement: it records every element made and every attribute set.
function recordingDocument() {
  const made = [];
  const element = (namespace, tag) => {
    const node = { namespace, tag, attributes: {}, children: [],
      setAttribute(name, value) { this.attributes[name] = value; },
      appendChild(child) { this.children.push(child); return child; } };
    made.push(node);
    return node;
  };
  return { made, createElementNS: element, createTextNode: (text) => ({ text }) };
}

test("the SVG built as elements sets the hostile value as an attribute's text", () => {
  const doc = recordingDocument();
  const svg = roadSvgElement("big_road", tileCells({ from: HOSTILE, cols: "B" }), { label: HOSTILE }, doc);
  assert.deepEqual([...new Set(doc.made.map((node) => node.tag))].sort(), ["circle", "g", "path", "rect", "svg"]);
  assert.ok(doc.made.every((node) => node.namespace === "http://www.w3.org/2000/svg"));
  assert.equal(svg.attributes["aria-label"], HOSTILE);
  const cell = doc.made.find((node) => node.tag === "g");
  assert.equal(cell.attributes["data-cell"], `${HOSTILE}0,0,B`);
  const letters = roadSvgElement("bead_plate", { cells: [{ col: 0, row: 0, value: "B" }] }, { bead: { letters: { B: HOSTILE } } }, doc);
  const text = doc.made.find((node) => node.tag === "text");
  assert.deepEqual(text.children, [{ text: HOSTILE }]);
  assert.ok(letters);
});

const emptyTile = (table) => ({
  table, name: "T", variant: "standard", shoe: null, version: 0, rounds_played: 0, recent: [],
  streaks: Object.fromEntries(LOBBY_ROADS.map((r) => [r, { current: { side: null, length: 0 }, longest: { side: null, length: 0 } }])),
  good_roads: [], edge: {},
  roads: Object.fromEntries(LOBBY_ROADS.map((r) => [r, { from: 0, cols: "" }])),
});

test("a frame that is not one is named so; a frame is not", () => {
  const full = { cursor: 5, full: true, tables: { t1: emptyTile("t1") } };
  assert.equal(frameProblem(full), null);
  assert.equal(frameProblem({ cursor: 6, after: 5, tables: { t1: { results: ["B"], cells: [[0, "B"], null, null, null], runs: [["B", 1, 0.5, 1]] } } }), null);
  const bad = {
    "a road's from that is markup": { cursor: 6, after: 5, tables: { t1: { roads: { ...emptyTile("t1").roads, big_road: { from: HOSTILE, cols: "" } } } } },
    "a tile whose from is markup": { cursor: 5, full: true, tables: { t1: { ...emptyTile("t1"), roads: { ...emptyTile("t1").roads, big_road: { from: HOSTILE, cols: "B" } } } } },
    "columns that are markup": { cursor: 6, after: 5, tables: { t1: { cells: [[0, "<img>"], null, null, null] } } },
    "__proto__ in the streaks": { cursor: 6, after: 5, tables: { t1: JSON.parse('{"streaks": {"__proto__": {"polluted": 1}}}') } },
    "constructor in a tile": { cursor: 6, after: 5, tables: { t1: JSON.parse('{"edge": {"constructor": {"prototype": {"x": 1}}}}') } },
    "no cursor": { after: 5, tables: {} },
    "no after": { cursor: 6, tables: {} },
    "a table id that is not one": { cursor: 6, after: 5, tables: { "<b>": { retired: true } } },
    "a run of a side that is not one": { cursor: 6, after: 5, tables: { t1: { runs: [["<x>", 1]] } } },
    "a result that is not one": { cursor: 6, after: 5, tables: { t1: { results: ["X"] } } },
    "a tile with a road missing": { cursor: 5, full: true, tables: { t1: { ...emptyTile("t1"), roads: {} } } },
    "not an object": [1, 2],
  };
  for (const [what, frame] of Object.entries(bad)) assert.notEqual(frameProblem(frame), null, what);
  assert.equal({}.polluted, undefined);
});

// An EventSource the test drives: `emit(type, data)` delivers an event to the feed.
function fakeSources() {
  const opened = [];
  class Source {
    constructor(url) { this.url = url; this.listeners = {}; this.closed = false; opened.push(this); }
    addEventListener(type, listener) { (this.listeners[type] ??= []).push(listener); }
    close() { this.closed = true; }
    emit(type, data) { for (const listener of this.listeners[type] ?? []) listener({ data }); }
  }
  return { opened, Source };
}

test("a bad frame is dropped and the feed starts again from a full frame, waiting longer each time", () => {
  const { opened, Source } = fakeSources();
  const timers = [];
  const drops = [];
  const feed = new LobbyFeed({
    EventSource: Source, setTimeout: (run, ms) => timers.push({ run, ms }), onDrop: (problem) => drops.push(problem),
  });
  opened[0].emit("frame", JSON.stringify({ cursor: 5, full: true, tables: { t1: emptyTile("t1") } }));
  assert.equal(feed.cursor, 5);
  const hostile = { cursor: 6, after: 5, tables: { t1: { roads: { ...emptyTile("t1").roads, big_road: { from: HOSTILE, cols: "B" } } } } };
  opened[0].emit("frame", JSON.stringify(hostile));
  assert.equal(feed.tiles.get("t1").roads.big_road.from, 0, "nothing of the bad frame applied");
  assert.equal(feed.dropped, 1);
  assert.match(drops[0], /big_road\.from/);
  assert.ok(opened[0].closed);
  assert.equal(opened.length, 2, "a new stream at once, without Last-Event-ID (a new EventSource)");
  assert.equal(feed.cursor, null);
  opened[1].emit("frame", "not json");
  assert.equal(feed.dropped, 2);
  assert.equal(opened.length, 2, "a second restart in a row waits");
  assert.equal(timers[0].ms, 500);
  timers[0].run();
  assert.equal(opened.length, 3);
  opened[2].emit("message", JSON.stringify({ cursor: 6, full: true, tables: { t1: emptyTile("t1"), t2: emptyTile("t2") } }));
  assert.equal(feed.cursor, 6);
  assert.equal(feed.tiles.size, 2);
  assert.equal(feed.failing, 0, "a frame applied: the next restart is at once again");
  assert.equal({}.polluted, undefined);
});
