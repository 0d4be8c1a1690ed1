// One table's roads document, kept current by the road patches of its channel
// (GET /v1/events?tables=ID): read once, then patched; read again only after a gap or a reset.
// A client that may read the odds (a read key, or odds made public) gets the next round's odds
// with every event too: no request a round.
import { applyPatch } from "./jsonpatch.js";

const ROAD_EVENTS = ["round", "void", "correction", "burn"];

export class TableFeed {
  // `table`: its id; options: `base` (the service's address, "" for this page's), `key` (a read
  // key: the odds), `odds` (read the odds once on opening: by default with a key; a service that
  // made the odds public sends them to every client), `onChange(feed)` (called when the document
  // or the odds changed), `EventSource` and `fetch` (for other runtimes).
  constructor(table, options = {}) {
    this.table = table;
    this.base = options.base ?? "";
    this.key = options.key ?? null;
    this.wantsOdds = options.odds ?? Boolean(this.key);
    this.onChange = options.onChange ?? (() => {});
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.doc = null;
    this.odds = null; // the next round's odds, as GET /v1/tables/{table}/odds answers them
    this.pending = []; // events that came before the first document
    this.loading = null;
    this.reads = 0; // documents read whole (once, unless a gap or a reset forced another)
    const query = new URLSearchParams({ tables: table });
    if (this.key) query.set("key", this.key);
    const Source = options.EventSource ?? globalThis.EventSource;
    this.source = new Source(`${this.base}/v1/events?${query}`);
    for (const kind of ROAD_EVENTS) {
      this.source.addEventListener(kind, (event) => this.receive(JSON.parse(event.data)));
    }
    this.source.addEventListener("reset", () => this.load());
    this.load();
  }

  close() {
    this.source.close();
  }

  get headers() {
    return this.key ? { "X-API-Key": this.key } : {};
  }

  // Read the document whole (and, for a client with a key, the odds of the round it is at).
  async load() {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const path = `${this.base}/v1/tables/${encodeURIComponent(this.table)}`;
        const answer = await this.fetch(`${path}/roads`, { cache: "no-cache" });
        if (!answer.ok) return;
        this.reads += 1;
        this.doc = await answer.json();
        if (this.wantsOdds && this.odds === null) {
          const odds = await this.fetch(`${path}/odds`, { cache: "no-cache", headers: this.headers });
          if (odds.ok) this.odds = await odds.json();
        }
        const waiting = this.pending;
        this.pending = [];
        for (const data of waiting) this.apply(data);
        this.onChange(this);
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
    if (this.apply(data)) this.onChange(this);
  }

  // Apply one event's patch (and take its odds); false when it changed nothing. A version this
  // client does not hold the base of (a missed event) makes it read the document whole.
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
    } catch {
      this.load();
      return false;
    }
    if (data.odds) this.odds = { table: data.table, shoe: data.shoe, version: data.version, ...data.odds };
    return true;
  }
}
