// The lobby in frames: every table's tile, kept by the frames of GET /v1/events (no `tables`).
// The first frame holds every tile; each next one what changed. A frame that does not follow the
// one held (after a reconnect, or through a fan-out that does not order frames, such as nchan)
// makes the feed start again from a full frame, as frames.step says.
import { applyFrame, step } from "./frames.js";

export class LobbyFeed {
  // Options: `base` (the service's address, "" for this page's), `key` (a read key: the tiles'
  // edge flags), `url` (another address of the same frames, e.g. a fan-out's), `onFrame(change,
  // frame, feed)` (after each frame applied: `change.changed`, a Map of table -> the tile it
  // replaced; `change.removed`, the tables gone), `tiles` (the Map to keep them in),
  // `EventSource` (for other runtimes).
  constructor(options = {}) {
    this.options = options;
    this.tiles = options.tiles ?? new Map();
    this.cursor = null;
    this.frames = 0; // frames applied
    this.restarts = 0;
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
    this.source.addEventListener("frame", (event) => this.receive(JSON.parse(event.data)));
    this.source.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    this.source.addEventListener("reset", () => this.restart());
  }

  close() {
    this.source?.close();
  }

  // Start again from a full frame: a new stream without Last-Event-ID.
  restart() {
    this.restarts += 1;
    this.cursor = null;
    this.close();
    this.open();
  }

  receive(frame) {
    const action = step(this.cursor, frame);
    if (action === "skip") return;
    if (action === "restart") {
      this.restart();
      return;
    }
    const change = applyFrame(this.tiles, frame);
    this.cursor = frame.cursor;
    this.frames += 1;
    this.onFrame(change, frame, this);
  }
}
