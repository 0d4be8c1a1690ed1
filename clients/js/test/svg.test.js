import assert from "node:assert/strict";
import { test } from "node:test";
import { askCell, cancelledMarks, documentCells, tileCells } from "../src/cells.js";
import { pictureSize, roadSvg, style } from "../src/svg.js";

const cellsOf = (svg) => [...svg.matchAll(/data-cell="([^"]+)"/g)].map((m) => m[1]);

test("a tile road's cells, with ties, pairs and the leading ties", () => {
  const drawn = tileCells({ from: 2, cols: "BB,.P,.....B", extras: [[2, 1, 2, 1], [3, 1, 0, 2]], lead: 1 });
  assert.deepEqual(drawn.cells, [
    { col: 2, row: 0, value: "B" },
    { col: 2, row: 1, value: "B", ties: 2, bankerPair: true, playerPair: false },
    { col: 3, row: 1, value: "P", ties: 0, bankerPair: false, playerPair: true },
    { col: 4, row: 5, value: "B" },
  ]);
  assert.equal(drawn.lead, 1);
  assert.deepEqual(tileCells({ from: 0, cols: "rb,b" }).cells.map((c) => c.value), ["red", "blue", "blue"]);
});

test("the SVG draws every cell in view, the newest columns, at the PNG's size", () => {
  const drawn = tileCells({ from: 0, cols: "B,P,B,P" });
  const svg = roadSvg("big_road", drawn, { cols: 3 });
  assert.deepEqual(cellsOf(svg), ["1,0,P", "2,0,B", "3,0,P"]);
  assert.deepEqual(pictureSize("big_road", 3, 2), [120, 240]);
  assert.match(svg, /width="60" height="120"/);
  assert.match(svg, new RegExp(style.colors.P));
});

test("a document's roads, a bead's letter or total, and Ask Banker's cell highlighted", () => {
  const doc = {
    bead_plate: [{ col: 0, row: 0, result: "P", winning_total: 8, banker_pair: false, player_pair: true }],
    big_road: { leading_ties: 0, columns: [[{ col: 0, row: 0, result: "P", ties: 1, banker_pair: false, player_pair: true }]] },
    big_eye_boy: { columns: [] },
    probe: { B: { big_eye_boy: null, small_road: null, cockroach_road: null } },
    next_cells: { B: { bead_plate: [0, 1], big_road: [1, 0], big_eye_boy: null, small_road: null, cockroach_road: null } },
  };
  const bead = roadSvg("bead_plate", documentCells(doc, "bead_plate"), { bead: { show: "totals" } });
  assert.match(bead, />8<\/text>/);
  const letters = roadSvg("bead_plate", documentCells(doc, "bead_plate"), { bead: { letters: { P: "闲" } } });
  assert.match(letters, />闲<\/text>/);
  const added = askCell(doc, "big_road", "B");
  assert.deepEqual(added, { col: 1, row: 0, value: "B" });
  assert.equal(askCell(doc, "big_eye_boy", "B"), null);
  const preview = roadSvg("big_road", documentCells(doc, "big_road"), { added: [added] });
  assert.deepEqual(cellsOf(preview), ["0,0,P", "1,0,B"]);
  assert.match(preview, new RegExp(`stroke="${style.highlight}"`));
});

test("a cancelled round's X: on the bead after it, or where the next bead goes", () => {
  // Rounds 1 B, 2 cancelled, 3 P, then 4 and 5 cancelled: beads of rounds 1 and 3.
  const beads = [{ round: 1, col: 0, row: 0 }, { round: 3, col: 0, row: 1 }];
  assert.deepEqual(cancelledMarks(beads, 3), [{ col: 0, row: 1, count: 1 }, { col: 0, row: 2, count: 2 }]);
  assert.deepEqual(cancelledMarks(beads, 1), [{ col: 0, row: 1, count: 1 }]);
  const drawn = { cells: [{ col: 0, row: 0, value: "B" }], lead: 0, cancelled: [{ col: 0, row: 1, count: 2 }] };
  const svg = roadSvg("bead_plate", drawn, { cols: 4 });
  assert.match(svg, /data-cancelled="0,1,2"/);
  assert.equal(svg.match(/<line /g).length, 2, "two strokes, an X");
});

test("text is escaped", () => {
  const svg = roadSvg("bead_plate", { cells: [{ col: 0, row: 0, value: "B" }] }, { bead: { letters: { B: "<&>" } }, label: 'a "b"' });
  assert.match(svg, /&#60;&#38;&#62;/);
  assert.match(svg, /aria-label="a &#34;b&#34;"/);
});
