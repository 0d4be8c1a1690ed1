// baccarat-roads-client: a live lobby's tiles and a table's roads, kept from the service's event
// stream and drawn as SVG in the look of its PNGs. No dependency, no build step.
export { applyFrame, applyRoadChange, goodRoadsStarted, LOBBY_ROADS, RECENT, step, TILE_COLUMNS } from "./frames.js";
export { frameProblem } from "./frameschema.js";
export { applyPatch, REFUSED_TOKENS } from "./jsonpatch.js";
export { askCell, cancelledMarks, documentCells, ROADS, tileCells } from "./cells.js";
export { escape, firstVisible, pictureSize, roadSvg, roadSvgElement, style } from "./svg.js";
export { LobbyFeed, RETRY_MOST } from "./lobbyfeed.js";
export { TableFeed } from "./tablefeed.js";
