// Types of baccarat-roads-client (src/index.js). The shapes are the service's (its OpenAPI
// document at /openapi.json names them: TileSchema, RoadsSchema, OddsSchema).

export type Side = "B" | "P";
export type Result = "B" | "P" | "T";
export type Colour = "red" | "blue";
export type LobbyRoad = "big_road" | "big_eye_boy" | "small_road" | "cockroach_road";
export type Road = "bead_plate" | LobbyRoad;

/** A road as a tile draws it: its newest grid columns, placed by the service. */
export interface TileRoad {
  /** The first grid column shown. */
  from: number;
  /** Each column from `from` on, its rows from the top (B/P, or r/b; "." empty), joined by ",". */
  cols: string;
  /** Big Road: [col, row, ties, pairs (1 Banker pair, 2 Player pair, 3 both)]. */
  extras?: [number, number, number, number][];
  /** Big Road: the ties before its first cell. */
  lead?: number;
}

export interface Streak {
  side: string | null;
  length: number;
}

/** A tile's current run, with how unusual it is (null without a run). */
export interface CurrentRun extends Streak {
  /** The chance that a shoe shows a run at least this long (of this side or colour). */
  chance?: number | null;
  /** The chance that at least one of the lobby's tables does: 1 - (1 - chance)^tables. */
  lobby_chance?: number | null;
}

/** A stake's bounds, in the table's currency. */
export interface Bounds {
  min: number;
  max: number;
}

/** What the table is doing, as the studio last reported it. */
export type TableStatus = "open" | "betting" | "dealing" | "shuffling" | "paused" | "closed";

/** A dealer as a round names them: the name once the studio sent it. */
export interface Dealer {
  id: string;
  name?: string;
}

/** A table's lobby tile (GET /v1/tables, and the lobby's frames). */
export interface Tile {
  table: string;
  name: string;
  /** The pay table in force (GET /v1/paytables). */
  variant: string;
  /** The pay table from the table's next shoe's first round (null: none; absent from an
   * earlier release's tiles). */
  next_variant?: string | null;
  /** The table's limits (null: none; absent from an earlier release's tiles). */
  limits?: { table?: Bounds; bets?: Record<string, Bounds> } | null;
  status?: TableStatus;
  /** RFC 3339: when betting closes, or a shuffle or pause ends; count down to it against the
   * frame's `server_time`, not the browser's clock. */
  status_until?: string | null;
  status_reason?: string | null;
  /** Who deals at the table, as its last round said (null: none; absent from an earlier
   * release's tiles). */
  dealer?: Dealer | null;
  /** The tile's format (2 since 0.11.0; absent from an earlier release's tiles). */
  format?: number;
  shoe: string | null;
  version: number;
  rounds_played: number;
  recent: Result[];
  streaks: Record<LobbyRoad, { current: CurrentRun; longest: Streak }>;
  good_roads: { pattern: string; since_round: number }[];
  edge: Record<string, number>;
  roads: Record<LobbyRoad, TileRoad>;
}

/** A frame of the lobby feed: every tile (`full`), or each changed table's delta. */
export interface Frame {
  cursor: number;
  after?: number;
  full?: boolean;
  /** The service's clock as the frame was built (RFC 3339). */
  server_time?: string;
  tables: Record<string, Record<string, unknown>>;
}

export interface FrameChange {
  /** Each table the frame changed, with the tile it replaced (undefined: new). */
  changed: Map<string, Tile | undefined>;
  removed: string[];
}

export const RECENT: number;
export const LOBBY_ROADS: LobbyRoad[];
export const TILE_COLUMNS: number;
export const ROADS: Road[];

export function applyFrame(tiles: Map<string, Tile>, frame: Frame): FrameChange;
/**
 * Why `frame` (as parsed from the network) is not a lobby frame: a text naming the first part
 * that is wrong (a value of the wrong kind, a member named __proto__, constructor or prototype),
 * or null when it is one. LobbyFeed drops such a frame and starts again from a full frame.
 */
export function frameProblem(frame: unknown): string | null;
export function step(cursor: number | null, frame: Frame): "apply" | "skip" | "restart";
export function applyRoadChange(road: TileRoad, change: [number, string, number[][]?]): TileRoad;
export function goodRoadsStarted(
  before: Tile | undefined,
  after: Tile | undefined,
): { pattern: string; since_round: number }[];

export type Operation = { op: string; path: string; value?: unknown; from?: string };
/** The JSON Pointer tokens applyPatch refuses: "__proto__", "constructor", "prototype". */
export const REFUSED_TOKENS: readonly string[];
/**
 * RFC 6902: the document after `patch` (the one given is not changed). Throws on a patch that
 * does not apply, and on a pointer holding one of REFUSED_TOKENS; a path reaches a document's
 * own members only.
 */
export function applyPatch<T>(doc: T, patch: Operation[]): T;

/** A cell a road picture draws. */
export interface Cell {
  col: number;
  row: number;
  value: Result | Colour;
  ties?: number;
  bankerPair?: boolean;
  playerPair?: boolean;
  /** Bead Plate: the winning hand's total, when the cards were reported. */
  total?: number | null;
}

/** Where a roads document's Bead Plate marks `count` cancelled rounds with an X. */
export interface CancelledMark {
  col: number;
  row: number;
  count: number;
}

export interface Drawn {
  cells: Cell[];
  lead: number;
  /** A roads document's Bead Plate: its cancelled rounds' X marks. */
  cancelled?: CancelledMark[];
}

/** A roads document: GET /v1/tables/{table}/roads (RoadsSchema). */
export type RoadsDocument = Record<string, any>;

export function tileCells(road: TileRoad): Drawn;
export function documentCells(doc: RoadsDocument, road: Road): Drawn;
/** Where the Bead Plate marks cancelled rounds: the beads' round numbers and the shoe's void count. */
export function cancelledMarks(beads: Array<{ round: number; col: number; row: number }>, voidRounds: number): CancelledMark[];
/** Ask Banker / Ask Player: the cell a next `side` adds to `road` (null: no mark there). */
export function askCell(doc: RoadsDocument, road: Road, side: Side): Cell | null;

export interface SvgOptions {
  /** Columns shown (the newest); by default the PNGs' (style.default_cols). */
  cols?: number;
  theme?: "light" | "dark";
  scale?: number;
  bead?: { show?: "letters" | "totals"; letters?: Partial<Record<Result, string>> };
  /** Cells drawn highlighted on top: Ask Banker / Ask Player. */
  added?: Cell[];
  /** What a screen reader says of the picture. */
  label?: string;
}

/**
 * One road as SVG text, in the look of the service's PNGs (one style.js for both). Every value
 * in it is escaped: data never becomes markup.
 */
export function roadSvg(road: Road, drawn: Drawn, options?: SvgOptions): string;
/**
 * The same picture as an <svg> element of `doc` (the page's document by default), built node by
 * node with no markup parsed: for pages whose policy refuses innerHTML (Trusted Types).
 */
export function roadSvgElement(road: Road, drawn: Drawn, options?: SvgOptions, doc?: Document): SVGSVGElement;
/** A value as text in markup (an attribute's value or text between tags): & < > " ' escaped. */
export function escape(value: unknown): string;
export function pictureSize(road: Road, cols?: number, scale?: number): [number, number];
export function firstVisible(cells: Cell[], cols: number): number;
export const style: Record<string, any>;

export interface LobbyFeedOptions {
  /** The service's address ("" for the page's own). */
  base?: string;
  /** A read key: the tiles' edge flags. */
  key?: string | null;
  /** Another address of the same frames (a fan-out's). */
  url?: string;
  onFrame?: (change: FrameChange, frame: Frame, feed: LobbyFeed) => void;
  /** The Map to keep the tiles in (a new one by default). */
  tiles?: Map<string, Tile>;
  EventSource?: typeof EventSource;
  /** A frame was dropped (not JSON, or not a frame: see frameProblem): what was wrong. */
  onDrop?: (problem: string, feed: LobbyFeed) => void;
  /** Timers (for tests): a restart right after a restart waits, longer each time. */
  setTimeout?: typeof setTimeout;
  clearTimeout?: typeof clearTimeout;
}

/** The longest a feed waits before starting again (ms), after restarts in a row. */
export const RETRY_MOST: number;

/** Every table's tile, kept by the lobby's frames. */
export class LobbyFeed {
  constructor(options?: LobbyFeedOptions);
  readonly tiles: Map<string, Tile>;
  readonly cursor: number | null;
  readonly frames: number;
  readonly restarts: number;
  /** Frames dropped as not frames (each followed by a restart). */
  readonly dropped: number;
  restart(): void;
  close(): void;
}

export interface TableFeedOptions {
  base?: string;
  /** A read key: the next round's odds with every event. */
  key?: string | null;
  /** Read the odds once on opening (by default with a key; public odds need no key). */
  odds?: boolean;
  onChange?: (feed: TableFeed) => void;
  EventSource?: typeof EventSource;
  fetch?: typeof fetch;
}

/** One table's roads document, kept by its patches; its odds, by its events. */
export class TableFeed {
  constructor(table: string, options?: TableFeedOptions);
  readonly table: string;
  readonly doc: RoadsDocument | null;
  /** As GET /v1/tables/{table}/odds answers (OddsSchema); null without a key. */
  readonly odds: Record<string, any> | null;
  /** Documents read whole: one, unless a gap or a reset forced another. */
  readonly reads: number;
  close(): void;
}
