// What a road picture draws, read from the service's data: a tile's roads (the lobby's frames
// keep them) or a table's roads document (its patches keep it). The service places every cell;
// nothing here decides where a result goes.
//
// A road's cells: { cells: [{ col, row, value, ties, bankerPair, playerPair, total }], lead }
// where `value` is "B", "P" or "T" on the Bead Plate and the Big Road, "red" or "blue" on a
// derived road; `lead` counts the Big Road's ties before its first cell. A roads document's
// Bead Plate adds `cancelled`: [{ col, row, count }], where its cancelled rounds' X stands.

export const ROADS = ["bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_road"];
const VALUES = { B: "B", P: "P", r: "red", b: "blue" };

// The cells of a tile's road ({from, cols, extras, lead}: roads.tileroads).
export function tileCells(tileRoad) {
  const cells = [];
  const texts = tileRoad.cols ? tileRoad.cols.split(",") : [];
  const at = new Map();
  texts.forEach((text, index) => {
    [...text].forEach((letter, row) => {
      if (letter === ".") return;
      const cell = { col: tileRoad.from + index, row, value: VALUES[letter] };
      at.set(`${cell.col},${row}`, cell);
      cells.push(cell);
    });
  });
  for (const [col, row, ties, pairs] of tileRoad.extras ?? []) {
    const cell = at.get(`${col},${row}`);
    if (!cell) continue;
    cell.ties = ties;
    cell.bankerPair = Boolean(pairs & 1);
    cell.playerPair = Boolean(pairs & 2);
  }
  return { cells, lead: tileRoad.lead ?? 0 };
}

// The cells of `road` in a roads document (GET /v1/tables/{table}/roads).
export function documentCells(doc, road) {
  if (road === "bead_plate") {
    return {
      cells: doc.bead_plate.map((bead) => ({
        col: bead.col, row: bead.row, value: bead.result, total: bead.winning_total,
        bankerPair: bead.banker_pair, playerPair: bead.player_pair,
      })),
      lead: 0,
      cancelled: cancelledMarks(doc.bead_plate, doc.stats?.void_rounds ?? 0),
    };
  }
  const items = doc[road].columns.flat();
  if (road === "big_road") {
    return {
      cells: items.map((item) => ({
        col: item.col, row: item.row, value: item.result, ties: item.ties,
        bankerPair: item.banker_pair, playerPair: item.player_pair,
      })),
      lead: doc.big_road.leading_ties,
    };
  }
  return { cells: items.map((item) => ({ col: item.col, row: item.row, value: item.color })), lead: 0 };
}

// Ask Banker / Ask Player: the cell a next `side` ("B" or "P") would add to `road`, from the
// document's next_cells and probe; null where that road would get no mark.
export function askCell(doc, road, side) {
  const place = doc.next_cells?.[side]?.[road];
  if (!place) return null;
  const value = road === "bead_plate" || road === "big_road" ? side : doc.probe[side][road];
  return value ? { col: place[0], row: place[1], value } : null;
}

// Where the Bead Plate marks cancelled rounds with an X (roads/beadplate.py cancelled_marks): a
// cancelled round takes no bead, so its X stands on the cell of the bead after it (a gap in the
// beads' round numbers, which count void rounds too), or, after the last bead, on the cell the
// next bead takes; `count`: how many rounds were cancelled there.
export function cancelledMarks(beads, voidRounds) {
  const marks = [];
  let before = 0;
  for (const bead of beads) {
    const gap = bead.round - before - 1;
    if (gap > 0) marks.push({ col: bead.col, row: bead.row, count: gap });
    before = bead.round;
  }
  const after = voidRounds - marks.reduce((sum, mark) => sum + mark.count, 0);
  if (after > 0) marks.push({ col: Math.floor(beads.length / 6), row: beads.length % 6, count: after });
  return marks;
}
