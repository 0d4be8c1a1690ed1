// The lobby in frames: every table's tile, kept by the frames of GET /v1/events (no `tables`).
// The first frame holds every tile; each next one what changed. A frame that does not follow the
// one held (after a reconnect, or through a fan-out that does not order frames, such as nchan)
// makes the feed start again from a full frame, as frames.step says. So does a frame that is not
// one (not JSON, or not the shape frameschema.js checks): it is dropped, never applied in part.
// A feed that must start again at once after starting again (a source that keeps sending what is
// not a frame) waits longer each time, up to RETRY_MOST milliseconds: it does not hammer it.
import { applyFrame, step } from "./frames.js";
import { frameProblem } from "./frameschema.js";

export const RETRY_MOST = 30000;

export class LobbyFeed {
  // Options: `base` (the service's address, "" for this page's), `key` (a read key: the tiles'
  // edge flags), `url` (another address of the same frames, e.g. a fan-out's), `onFrame(change,
  // frame, feed)` (after each frame applied: `change.changed`, a Map of table -> the tile it
  // replaced; `change.removed`, the tables gone), `tiles` (the Map to keep them in),
  // `EventSource` (for other runtimes), `onDrop(problem, feed)` (a frame dropped: what was
  // wrong with it), `setTimeout` (for tests).
  constructor(options = {}) {
    this.options = options;
    this.tiles = options.tiles ?? new Map();
    this.cursor = null;
    this.frames = 0; // frames applied
    this.restarts = 0;
    this.dropped = 0; // frames dropped as not frames
    this.failing = 0; // restarts since a frame was last applied
    this.waiting = null; // the timer of a restart put off
    this.onFrame = options.onFrame ?? (() => {});
    this.source = null;
    this.open();
  }

  url() {
    if (this.options.url) return this.options.url;
    const query = new URLSearchParams();
    if (this.options.key) query.set("key", this.options.key);
    const text = query.toString();
    return `${this.options.base ?? ""}/v1/events${text ? `?${text}` : ""}`;
  }

  open() {
    const Source = this.options.EventSource ?? globalThis.EventSource;
    this.source = new Source(this.url());
    this.source.addEventListener("frame", (event) => this.receiveText(event.data));
    this.source.addEventListener("message", (event) => this.receiveText(event.data));
    this.source.addEventListener("reset", () => this.restart());
  }

  close() {
    this.source?.close();
    if (this.waiting !== null) (this.options.clearTimeout ?? globalThis.clearTimeout)(this.waiting);
    this.waiting = null;
  }

  // Start again from a full frame: a new stream without Last-Event-ID (at once the first time,
  // then later each time until a frame applies again).
  restart() {
    this.restarts += 1;
    this.cursor = null;
    this.close();
    const wait = this.failing ? Math.min(RETRY_MOST, 500 * 2 ** (this.failing - 1)) : 0;
    this.failing += 1;
    if (!wait) {
      this.open();
      return;
    }
    this.waiting = (this.options.setTimeout ?? globalThis.setTimeout)(() => {
      this.waiting = null;
      this.open();
    }, wait);
  }

  // An event's text: a frame, or something to drop.
  receiveText(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      this.drop("not JSON");
      return;
    }
    this.receive(frame);
  }

  drop(problem) {
    this.dropped += 1;
    this.options.onDrop?.(problem, this);
    this.restart();
  }

  receive(frame) {
    const problem = frameProblem(frame);
    if (problem !== null) {
      this.drop(problem);
      return;
    }
    const action = step(this.cursor, frame);
    if (action === "skip") return;
    if (action === "restart") {
      this.restart();
      return;
    }
    let change;
    try {
      change = applyFrame(this.tiles, frame);
    } catch (error) { // a delta for a tile it does not fit: what is held is not to be trusted
      this.drop(String(error?.message ?? error));
      return;
    }
    this.cursor = frame.cursor;
    this.frames += 1;
    this.failing = 0;
    this.onFrame(change, frame, this);
  }
}
