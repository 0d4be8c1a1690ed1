// Roads drawn as SVG, with the look of the service's PNGs: both draw from one description of
// the geometry and colours (style.js, which api/images/scene.py reads too). A picture keeps the
// newest `cols` columns of its road, as the PNGs do. A picture is described as nodes
// (markup.js), then written as SVG text (`roadSvg`) or built as elements (`roadSvgElement`): every
// value (a cell's column, a label, a letter) is escaped or set as an attribute, never markup.
import { escape, node, toElement, toMarkup } from "./markup.js";
import style from "./style.js";

export { escape, style };

const M = style.marks;
const fixed = (n) => Number(Number(n).toFixed(2));

// Width and height in pixels of a picture of `road` with `cols` columns at `scale`.
export function pictureSize(road, cols = style.default_cols[road], scale = 1) {
  const cell = style.cell * scale;
  return [Math.round(cols * cell), Math.round(style.rows * cell)];
}

// The first grid column shown: the newest `cols` whole columns (api/images/scene.first_visible).
export function firstVisible(cells, cols) {
  const last = cells.reduce((most, cell) => Math.max(most, cell.col), 0);
  return Math.max(0, last + 1 - cols);
}

function circle(x, y, d, color, filled) {
  const at = [["cx", fixed(x)], ["cy", fixed(y)], ["r", fixed(d / 2)]];
  if (filled) return [node("circle", [...at, ["fill", color]])];
  const width = d * style.ring_width;
  return [node("circle", [...at, ["fill", "none"], ["stroke", color], ["stroke-width", fixed(width)]])];
}

function slash(x, y, half, color, width) {
  return [node("line", [
    ["x1", fixed(x - half)], ["y1", fixed(y + half)], ["x2", fixed(x + half)], ["y2", fixed(y - half)],
    ["stroke", color], ["stroke-width", fixed(width)], ["stroke-linecap", "round"],
  ])];
}

// A letter or number `size` pixels tall (a capital's height), centred on (x, y).
function glyph(x, y, text, size, color) {
  const font = style.font;
  const common = [
    ["text-anchor", "middle"], ["font-family", `${font.family}, sans-serif`], ["font-weight", font.weight], ["fill", color],
  ];
  text = String(text);
  if (/^[\x20-\x7e]*$/.test(text)) {
    const em = size / font.cap_height;
    return [node("text", [["x", fixed(x)], ["y", fixed(y + size / 2)], ["font-size", fixed(em)], ...common], text)];
  }
  return [node("text", [
    ["x", fixed(x)], ["y", fixed(y)], ["font-size", fixed(size * 1.15)], ["dominant-baseline", "central"], ...common,
  ], text)];
}

function ties(x, y, cell, count) {
  const marks = slash(x, y, cell * M.tie.slash, style.colors.T, cell * M.tie.width);
  if (count > 1) {
    const at = cell * M.tie.count_offset;
    marks.push(...glyph(x + at, y + at, String(count), cell * M.tie.count, style.colors.T));
  }
  return marks;
}

function pairs(x, y, cell, item) {
  const offset = cell * M.pair.offset;
  const d = cell * M.pair.dot;
  const marks = [];
  if (item.bankerPair) marks.push(...circle(x - offset, y - offset, d, style.colors.B, true));
  if (item.playerPair) marks.push(...circle(x + offset, y + offset, d, style.colors.P, true));
  return marks;
}

// The text of a Bead Plate bead: its letter (in `bead.letters`), or the winning total.
function beadText(item, bead) {
  if (bead.show === "totals" && item.total !== null && item.total !== undefined) return String(item.total);
  return bead.letters?.[item.value] ?? item.value;
}

function marksOf(road, item, x, y, cell, theme, bead) {
  const color = style.colors[item.value];
  if (road === "bead_plate") {
    return [...circle(x, y, cell * M.bead.disc, color, true), ...pairs(x, y, cell, item),
      ...glyph(x, y, beadText(item, bead), cell * M.bead.text, style.themes[theme].text)];
  }
  if (road === "big_road") {
    return [...circle(x, y, cell * M.big_road.ring, color, false), ...pairs(x, y, cell, item),
      ...(item.ties ? ties(x, y, cell, item.ties) : [])];
  }
  if (road === "big_eye_boy") return circle(x, y, cell * M.big_eye_boy.ring, color, false);
  if (road === "small_road") return circle(x, y, cell * M.small_road.disc, color, true);
  return slash(x, y, cell * M.cockroach_road.slash, color, cell * M.cockroach_road.width);
}

// The X of cancelled rounds, at the top right of the cell centred on (x, y).
function cancelledX(x, y, cell, theme) {
  const mark = M.cancelled;
  const cx = x + cell * mark.offset;
  const cy = y - cell * mark.offset;
  const color = style.themes[theme].cancelled;
  const h = cell * mark.half;
  const line = (x1, y1, x2, y2) => node("line", [
    ["x1", fixed(x1)], ["y1", fixed(y1)], ["x2", fixed(x2)], ["y2", fixed(y2)],
    ["stroke", color], ["stroke-width", fixed(cell * mark.width)], ["stroke-linecap", "round"],
  ]);
  return [line(cx - h, cy + h, cx + h, cy - h), line(cx - h, cy - h, cx + h, cy + h)];
}

function highlight(x, y, cell) {
  const h = cell / 2 - M.highlight.inset;
  const width = Math.max(M.highlight.least, cell * M.highlight.width);
  return [node("rect", [
    ["x", fixed(x - h)], ["y", fixed(y - h)], ["width", fixed(2 * h)], ["height", fixed(2 * h)],
    ["fill", "none"], ["stroke", style.highlight], ["stroke-width", fixed(width)],
  ])];
}

// One road as SVG text. `road`: a name of ROADS; `drawn`: its cells (cells.js: tileCells,
// documentCells); options: `cols` shown, `theme` ("light", "dark"), `scale`, `bead` ({show:
// "letters" | "totals", letters: {B, P, T}}), `added` (cells drawn highlighted on top, as Ask
// Banker / Ask Player shows the next one), `label` (what a screen reader says).
export function roadSvg(road, drawn, options = {}) {
  return toMarkup(picture(road, drawn, options));
}

// The same picture as an <svg> element of `doc` (the page's document by default), built node by
// node: what a page under a strict Content-Security-Policy (no innerHTML) puts in.
export function roadSvgElement(road, drawn, options = {}, doc = globalThis.document) {
  return toElement(picture(road, drawn, options), doc);
}

function picture(road, drawn, options) {
  const cols = options.cols ?? style.default_cols[road];
  const theme = options.theme ?? "light";
  const scale = options.scale ?? 1;
  const bead = { show: "letters", ...(options.bead ?? {}) };
  const added = options.added ?? [];
  const cell = style.cell * scale;
  const [width, height] = pictureSize(road, cols, scale);
  const colours = style.themes[theme];
  const every = drawn.cells.concat(added);
  const crosses = drawn.cancelled ?? [];
  const first = firstVisible(every.concat(crosses), cols);

  // A grid line covers whole pixels, as the PNG renderer's do (Agg puts a thin straight line
  // on the pixel right of its coordinate): crisp, not blurred across two.
  const snap = (at) => fixed(Math.floor(at) + style.grid_width / 2);
  let lines = "";
  for (let col = 0; col <= cols; col += 1) lines += `M${snap(col * cell)} 0V${height}`;
  for (let row = 0; row <= style.rows; row += 1) lines += `M0 ${snap(row * cell)}H${width}`;
  const parts = [
    node("rect", [["width", width], ["height", height], ["fill", colours.background]]),
    node("path", [["d", lines], ["stroke", colours.grid], ["stroke-width", style.grid_width], ["fill", "none"]]),
  ];
  const newCells = new Set(added.map((item) => `${item.col},${item.row}`));
  const crossAt = new Map(crosses.map((cross) => [`${cross.col},${cross.row}`, cross]));
  const crossNode = (cross, x, y) => node("g", [["data-cancelled", `${cross.col},${cross.row},${cross.count}`]],
    ...cancelledX(x, y, cell, theme));
  for (const item of every) {
    if (item.col < first) continue;
    const x = (item.col - first + 0.5) * cell;
    const y = (item.row + 0.5) * cell;
    const key = `${item.col},${item.row}`;
    const marks = marksOf(road, item, x, y, cell, theme, bead);
    const cross = crossAt.get(key);
    if (cross) {
      // Layered as the PNG paints: above the disc and the pair dots, below the letter and the
      // highlight (the bead's last mark is its letter).
      marks.splice(marks.length - 1, 0, crossNode(cross, x, y));
      crossAt.delete(key);
    }
    if (newCells.has(key)) marks.push(...highlight(x, y, cell));
    parts.push(node("g", [["data-cell", `${key},${item.value}`]], ...marks));
  }
  for (const cross of crossAt.values()) {
    if (cross.col < first) continue;
    parts.push(crossNode(cross, (cross.col - first + 0.5) * cell, (cross.row + 0.5) * cell));
  }
  if (road === "big_road" && drawn.lead && first === 0) parts.push(...ties(0.5 * cell, 0.5 * cell, cell, drawn.lead));
  const attrs = [
    ["xmlns", "http://www.w3.org/2000/svg"], ["width", width], ["height", height],
    ["viewBox", `0 0 ${width} ${height}`], ["role", "img"],
  ];
  if (options.label) attrs.push(["aria-label", options.label]);
  return node("svg", attrs, ...parts);
}
