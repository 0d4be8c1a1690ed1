// A user's TypeScript, checked by `tsc --noEmit -p test/types` against index.d.ts: it imports
// every name the package declares, by the package's own name as a user would, and uses each
// (tsconfig's noUnusedLocals fails on an import left unused). tests/clients/test_npm_package.py
// runs it and checks that the imports name every export of index.d.ts.
// Run as it is, it makes no request: the feeds are only built by `watch`, which nothing calls.
import {
  applyFrame,
  applyPatch,
  applyRoadChange,
  askCell,
  cancelledMarks,
  documentCells,
  escape,
  firstVisible,
  frameProblem,
  goodRoadsStarted,
  LOBBY_ROADS,
  LobbyFeed,
  pictureSize,
  RECENT,
  REFUSED_TOKENS,
  RETRY_MOST,
  ROADS,
  roadSvg,
  roadSvgElement,
  step,
  style,
  TableFeed,
  TILE_COLUMNS,
  tileCells,
} from "baccarat-roads-client";
import type {
  Bounds,
  CancelledMark,
  Cell,
  Colour,
  CurrentRun,
  Dealer,
  Drawn,
  Frame,
  FrameChange,
  LobbyFeedOptions,
  LobbyRoad,
  Operation,
  Result,
  Road,
  RoadsDocument,
  Side,
  Streak,
  SvgOptions,
  TableFeedOptions,
  TableStatus,
  Tile,
  TileRoad,
} from "baccarat-roads-client";

const bigRoad: TileRoad = { from: 0, cols: "BB,P", extras: [[0, 1, 1, 3]], lead: 0 };
const empty: TileRoad = { from: 0, cols: "" };
const run: CurrentRun = { side: "B", length: 2, chance: 0.41, lobby_chance: null };
const longest: Streak = { side: "B", length: 2 };
const roads = Object.fromEntries(
  LOBBY_ROADS.map((road: LobbyRoad) => [road, road === "big_road" ? bigRoad : empty]),
) as Record<LobbyRoad, TileRoad>;
const streaks = Object.fromEntries(
  LOBBY_ROADS.map((road: LobbyRoad) => [road, { current: run, longest }]),
) as Tile["streaks"];
const recent: Result[] = ["B", "B", "P"];
const tableLimits: Bounds = { min: 10, max: 5000 };
const betting: TableStatus = "betting";
const dealer: Dealer = { id: "d-117", name: "Mei" };
const tile: Tile = {
  table: "alpha",
  name: "Alpha",
  variant: "punto_banco",
  limits: { table: tableLimits, bets: { tie: { min: 1, max: 500 } } },
  status: betting,
  status_until: "2026-11-27T08:00:15.000Z",
  status_reason: null,
  dealer,
  shoe: "s1",
  version: 3,
  rounds_played: 3,
  recent: recent.slice(-RECENT),
  streaks,
  good_roads: [{ pattern: "long_banker", since_round: 1 }],
  edge: {},
  roads,
};

// The lobby's frames: a full frame, then a delta that follows it.
const full: Frame = {
  cursor: 1,
  full: true,
  server_time: "2026-11-27T08:00:00.000Z",
  tables: { alpha: { ...tile } },
};
const tiles = new Map<string, Tile>();
const first: FrameChange = applyFrame(tiles, full);
const delta: Frame = { cursor: 2, after: 1, tables: { alpha: { rounds_played: 4 } } };
const problem: string | null = frameProblem(JSON.parse(JSON.stringify(delta)) as unknown);
const next: "apply" | "skip" | "restart" = step(full.cursor, delta);
const changed: FrameChange = next === "apply" && problem === null ? applyFrame(tiles, delta) : first;
const started = goodRoadsStarted(changed.changed.get("alpha"), tiles.get("alpha"));
const grown: TileRoad = applyRoadChange(bigRoad, [1, "PP", [[1, 0, 0, 1]]]);
const window: number = Math.min(TILE_COLUMNS, grown.cols.split(",").length);

// A table's roads document (its first round: Banker), kept by JSON Patch; the tokens a patch
// may not name.
const opened: RoadsDocument = {
  bead_plate: [{ col: 0, row: 0, result: "B", winning_total: 8, banker_pair: false, player_pair: false }],
  big_road: {
    columns: [[{ col: 0, row: 0, result: "B", ties: 0, banker_pair: false, player_pair: false }]],
    leading_ties: 0,
  },
  big_eye_boy: { columns: [] },
  small_road: { columns: [] },
  cockroach_road: { columns: [] },
  next_cells: { B: { big_eye_boy: [1, 0] }, P: {} },
  probe: { B: { big_eye_boy: "red" }, P: {} },
};
const bead = { col: 0, row: 1, result: "B", winning_total: 7, banker_pair: true, player_pair: false };
const patch: Operation[] = [{ op: "add", path: "/bead_plate/-", value: bead }];
const doc: RoadsDocument = applyPatch<RoadsDocument>(opened, patch);
const refused: boolean = REFUSED_TOKENS.includes("__proto__");

// Pictures: cells from a tile and from a document, Ask Banker's next cell, SVG as text.
const side: Side = "B";
const colour: Colour = "red";
const drawn: Drawn = tileCells(tiles.get("alpha")?.roads.big_road ?? bigRoad);
const all: Road[] = ROADS.filter((road: Road) => road !== "bead_plate");
const beads: Drawn = documentCells(doc, "bead_plate");
const crosses: CancelledMark[] = beads.cancelled ?? cancelledMarks(doc.bead_plate, doc.stats.void_rounds);
const ask: Cell | null = askCell(doc, "big_eye_boy", side);
const added: Cell[] = ask ? [ask] : [{ col: 0, row: 0, value: colour }];
const options: SvgOptions = { cols: window, theme: "dark", scale: 2, added, label: escape("<Alpha>") };
const svg: string = roadSvg("big_road", drawn, options) + roadSvg("bead_plate", beads);
const [width, height]: [number, number] = pictureSize("big_road", firstVisible(drawn.cells, 14) + 14);
const colours: unknown = style["colors"];

// The feeds: built only when a page calls this (with its own EventSource and fetch, or the
// browser's), never on import.
export function watch(base: string, onPicture: (table: string, picture: SVGSVGElement) => void) {
  const lobbyOptions: LobbyFeedOptions = {
    base,
    onFrame: ({ changed: tables }: FrameChange, frame: Frame, feed: LobbyFeed) => {
      for (const table of tables.keys()) {
        const road = feed.tiles.get(table)?.roads.big_road;
        if (road && frame.cursor > 0) onPicture(table, roadSvgElement("big_road", tileCells(road)));
      }
    },
    onDrop: (why: string, feed: LobbyFeed) => {
      // A feed fed what is not a frame starts again, waiting at most RETRY_MOST ms.
      console.warn(`frame ${feed.frames + feed.dropped} dropped (${why}); next try within ${RETRY_MOST} ms`);
    },
  };
  const tableOptions: TableFeedOptions = {
    base,
    odds: false,
    onChange: (feed: TableFeed) => {
      if (feed.doc) onPicture(feed.table, roadSvgElement("big_road", documentCells(feed.doc, "big_road")));
    },
  };
  const lobby = new LobbyFeed(lobbyOptions);
  const table = new TableFeed("alpha", tableOptions);
  return () => {
    lobby.close();
    table.close();
  };
}

export const seen = { started, refused, all, svg, width, height, colours, crosses };
