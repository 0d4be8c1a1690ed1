// One table's roads document, kept current by the road patches of its channel
// (/v1/events?tables=ID): fetched once, then patched; fetched again only after a gap.
import { applyPatch } from "./jsonpatch.js";

const ROAD_EVENTS = ["round", "void", "correction"];

export class RoadFeed {
  // `onChange(doc)` is called with every new version of the document.
  constructor(table, onChange) {
    this.table = table;
    this.onChange = onChange;
    this.doc = null;
    this.pending = []; // events that came before the first document
    this.loading = null;
    this.fetches = 0; // documents fetched whole (once, unless a gap forced another)
    this.source = new EventSource(`/v1/events?tables=${encodeURIComponent(table)}`);
    for (const kind of ROAD_EVENTS) {
      this.source.addEventListener(kind, (event) => this.receive(JSON.parse(event.data)));
    }
    this.source.addEventListener("reset", () => this.load());
    this.load();
  }

  close() {
    this.source.close();
  }

  async load() {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const answer = await fetch(`/v1/tables/${encodeURIComponent(this.table)}/roads`,
          { cache: "no-cache" });
        if (!answer.ok) return;
        this.fetches += 1;
        this.doc = await answer.json();
        const waiting = this.pending;
        this.pending = [];
        for (const data of waiting) this.apply(data);
        this.onChange(this.doc);
      } catch { /* the next event tries again */ } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  receive(data) {
    if (data.patch === undefined) return;
    if (this.loading || !this.doc) {
      this.pending.push(data);
      return;
    }
    if (this.apply(data)) this.onChange(this.doc);
  }

  // Apply one event's patch; false when it changed nothing. A version this page does not hold
  // the base of (a missed event) makes it fetch the document whole.
  apply(data) {
    const doc = this.doc;
    const sameShoe = doc && doc.shoe === data.shoe;
    if (data.base_version === null) {
      if (sameShoe && doc.version >= data.version) return false;
    } else if (!sameShoe || doc.version !== data.base_version) {
      if (sameShoe && doc.version >= data.version) return false; // already held
      this.load();
      return false;
    }
    try {
      this.doc = applyPatch(doc ?? {}, data.patch);
      return true;
    } catch {
      this.load();
      return false;
    }
  }
}
