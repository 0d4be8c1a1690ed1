// The lobby page: plain JavaScript over the public API (/v1/tables, /v1/good-roads,
// /v1/patterns, /v1/events and the PNG roads). No build step.
//
// Tiles update from the lobby channel (each round event carries the table's tile); the table
// view keeps its roads document by the road patches of its table's channel (./roadfeed.js).
import { RoadFeed } from "./roadfeed.js";

const ROAD_NAMES = {
  big_road: "Big Road",
  big_eye_boy: "Big Eye Boy",
  small_road: "Small Road",
  cockroach_road: "Cockroach Road",
};
const SIDE_LETTER = { B: "B", P: "P", red: "R", blue: "B" };
const BET_NAMES = {
  player: "Player", banker: "Banker", tie: "Tie", super_6: "Super 6",
  player_pair: "Player Pair", banker_pair: "Banker Pair", either_pair: "Either Pair",
  perfect_pair: "Perfect Pair", player_bonus: "Player Bonus", banker_bonus: "Banker Bonus",
};
const percent = (fraction) => `${(100 * fraction).toFixed(2)}%`;
const store = {
  get: (key, fallback) => {
    try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
  },
  set: (key, value) => localStorage.setItem(key, JSON.stringify(value)),
};

const state = {
  tab: "all",
  road: store.get("lobby.road", "big_road"),
  sorted: store.get("lobby.sorted", true),
  theme: store.get("lobby.theme", null) ||
    (matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark"),
  watched: new Set(store.get("lobby.watched", ["banker_streak", "player_streak"])),
  patterns: [],
  tiles: new Map(), // table id -> tile (summary) from /v1/tables
  order: [], // table ids in display order; re-sorted only when the player asks
  badgeCursor: null,
  open: null, // table id shown in the table view
  feed: null, // its RoadFeed
  ask: null,
};

const $ = (selector) => document.querySelector(selector);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((child) => child != null));
  return node;
};

// The odds and the edge flags need a read key (unless the operator made them public): a lobby
// link may carry one (?key=...), kept for the next visits.
const readKey = new URLSearchParams(location.search).get("key") ?? store.get("lobby.key", null);
if (readKey) store.set("lobby.key", readKey);
const keyHeaders = readKey ? { "X-API-Key": readKey } : {};

async function getJSON(url) {
  const answer = await fetch(url, { cache: "no-cache", headers: keyHeaders });
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return answer.json();
}

// Pictures are fetched (revalidated by ETag) and shown from a blob, so a new round's picture
// replaces the old one even though its URL is the same.
const pictureUrls = new WeakMap();
async function showPicture(img, url) {
  try {
    const answer = await fetch(url, { cache: "no-cache" });
    if (!answer.ok) return;
    const blobUrl = URL.createObjectURL(await answer.blob());
    const old = pictureUrls.get(img);
    img.src = blobUrl;
    pictureUrls.set(img, blobUrl);
    if (old) URL.revokeObjectURL(old);
  } catch { /* the next event retries */ }
}

function roadPicture(table, road, extra = "") {
  const cols = road === "big_road" ? 24 : 32;
  return `/v1/tables/${encodeURIComponent(table)}/roads/${road}.png?cols=${cols}&theme=${state.theme}${extra}`;
}

// -- lobby data ----------------------------------------------------------------------------

async function loadTables() {
  const query = new URLSearchParams({ road: state.road });
  if (state.sorted) query.set("sort", "streak");
  if (state.badgeCursor !== null) query.set("since", state.badgeCursor);
  const answer = await getJSON(`/v1/tables?${query}`);
  if (state.badgeCursor === null) state.badgeCursor = answer.cursor;
  const known = new Set(state.order);
  const fresh = answer.tables.map((tile) => tile.table);
  state.tiles = new Map(answer.tables.map((tile) => [tile.table, tile]));
  // Keep the order the player last sorted by; new tables go at the end.
  state.order = state.order.filter((id) => state.tiles.has(id))
    .concat(fresh.filter((id) => !known.has(id)));
  const badge = $("#badge");
  badge.hidden = !state.sorted || !answer.grown;
  badge.textContent = answer.grown || "";
  badge.title = `${answer.grown || 0} tables' current run grew since you sorted`;
  renderTiles();
}

function resort() {
  state.order = [];
  state.badgeCursor = null;
  return loadTables();
}

async function loadPatterns() {
  const answer = await getJSON("/v1/patterns");
  state.patterns = answer.patterns;
  const list = $("#pattern-list");
  list.replaceChildren(...answer.patterns.map((pattern) => {
    const box = el("input", { type: "checkbox", value: pattern.id, checked: state.watched.has(pattern.id) });
    box.addEventListener("change", () => {
      if (box.checked) state.watched.add(pattern.id); else state.watched.delete(pattern.id);
      store.set("lobby.watched", [...state.watched]);
      renderTiles();
      loadGoodRoads();
    });
    return el("label", { title: pattern.description }, box, pattern.name);
  }));
}

function patternName(id) {
  return state.patterns.find((p) => p.id === id)?.name ?? id;
}

async function loadGoodRoads() {
  const status = $("#good-status");
  const grid = $("#good-tiles");
  if (!state.watched.size) {
    status.textContent = "Tick the patterns you want to watch.";
    grid.replaceChildren();
    updateGoodCount(0);
    return;
  }
  const answer = await getJSON(`/v1/good-roads?patterns=${[...state.watched].join(",")}`);
  const byTable = new Map();
  for (const item of answer.good_roads) {
    const entry = byTable.get(item.table) ?? { tile: item.summary, found: [] };
    entry.found.push(item);
    byTable.set(item.table, entry);
  }
  status.textContent = byTable.size
    ? `${byTable.size} table${byTable.size > 1 ? "s" : ""} match a watched pattern now.`
    : "No table matches a watched pattern right now; they appear here the moment one does.";
  grid.replaceChildren(...[...byTable.values()].map(({ tile, found }) =>
    tileNode(tile, found.map((f) => `${patternName(f.pattern)} · since round ${f.since_round}`))));
  updateGoodCount(byTable.size);
}

function updateGoodCount(count) {
  const badge = $("#good-count");
  badge.hidden = !count;
  badge.textContent = count;
}

// -- rendering -----------------------------------------------------------------------------

function tileNode(tile, labels = null) {
  const streak = tile.streaks[state.road].current;
  const watched = tile.good_roads.filter((g) => state.watched.has(g.pattern));
  // A table named before its first shoe has no road to draw yet: say so, not a broken image.
  let img = el("div", { className: "road placeholder", textContent: "Waiting for the first shoe" });
  if (tile.shoe) {
    img = el("img", { className: "road", alt: `${ROAD_NAMES[state.road]} of ${tile.name}`, loading: "lazy" });
    showPicture(img, roadPicture(tile.table, state.road));
  }
  const recent = el("div", { className: "recent" },
    ...tile.recent.slice(-8).map((r) => el("span", { className: `dot ${r}`, textContent: r })));
  const tags = (labels ?? tile.good_roads.map((g) => patternName(g.pattern)))
    .map((text, i) => el("span", {
      className: `tag${labels || state.watched.has(tile.good_roads[i]?.pattern) ? " watched" : ""}`,
      textContent: text,
    }));
  const edges = Object.entries(tile.edge ?? {}).map(([bet, rtp]) =>
    el("span", { className: "tag edge", title: "This bet returns over 100% now", textContent: `${BET_NAMES[bet] ?? bet} ${percent(rtp)}` }));
  const node = el("article", {
    className: `tile${watched.length ? " gold" : ""}`,
    tabIndex: 0,
  },
  el("div", { className: "tile-head" },
    el("h3", { textContent: tile.name }),
    el("span", { className: "variant", textContent: tile.variant.replace("_", " ") }),
    el("span", { className: "muted", textContent: `${tile.rounds_played} rounds` })),
  img,
  el("div", { className: "tile-foot" }, recent,
    el("span", {
      className: `streak ${streak.side ?? ""}`,
      title: `Current run on the ${ROAD_NAMES[state.road]}; longest ${tile.streaks[state.road].longest.length}`,
      textContent: streak.side ? `${SIDE_LETTER[streak.side]} × ${streak.length}` : "–",
    })),
  tags.length || edges.length ? el("div", { className: "tags" }, ...tags, ...edges) : null);
  node.dataset.table = tile.table;
  node.addEventListener("click", () => openTable(tile.table));
  node.addEventListener("keydown", (e) => { if (e.key === "Enter") openTable(tile.table); });
  return node;
}

function renderTiles() {
  const grid = $("#tiles");
  grid.replaceChildren(...state.order.map((id) => tileNode(state.tiles.get(id))));
  $("#status").textContent = state.order.length
    ? `${state.order.length} tables · ${state.sorted ? `sorted by the longest ${ROAD_NAMES[state.road]} streak` : "by name"}`
    : "No tables yet: they appear as soon as a round is reported.";
}

function flash(table) {
  for (const node of document.querySelectorAll(`.tile[data-table="${CSS.escape(table)}"]`)) {
    node.classList.remove("flash");
    void node.offsetWidth; // restart the animation
    node.classList.add("flash");
  }
}

function toast(text, table) {
  const node = el("div", { className: "toast", role: "status", textContent: text });
  node.addEventListener("click", () => { openTable(table); node.remove(); });
  $("#toasts").append(node);
  setTimeout(() => node.remove(), 7000);
}

// -- table view ----------------------------------------------------------------------------

function openTable(table) {
  state.open = table;
  state.ask = null;
  const dialog = $("#table-view");
  if (!dialog.open) dialog.showModal();
  const tile = state.tiles.get(table);
  $("#tv-title").textContent = tile?.name ?? table;
  state.feed?.close();
  state.feed = new RoadFeed(table, () => refreshTable());
}

// What the table view shows: the roads document the feed keeps (stats, streaks, Ask
// previews), and the scorecard picture and odds of the same round.
async function refreshTable() {
  const table = state.open;
  const doc = state.feed?.doc;
  if (!table || !doc) return;
  $("#table-view").dataset.version = `${doc.shoe}:${doc.version}`;
  $("#tv-shoe").textContent = `shoe ${doc.shoe} · round ${doc.rounds}`;
  for (const side of ["B", "P"]) {
    $(`#ask-${side.toLowerCase()}`).setAttribute("aria-pressed", String(state.ask === side));
  }
  $("#probe").textContent = state.ask
    ? Object.entries(doc.probe[state.ask])
      .map(([road, mark]) => `${ROAD_NAMES[road]}: ${mark ?? "—"}`).join(" · ")
    : "";
  renderStats(doc);
  const ask = state.ask ? `&ask=${state.ask}` : "";
  const picture = `/v1/tables/${encodeURIComponent(table)}/roads/scorecard.png?theme=${state.theme}${ask}`;
  const [odds] = await Promise.all([
    getJSON(`/v1/tables/${encodeURIComponent(table)}/odds`).catch(() => null),
    showPicture($("#tv-image"), picture),
  ]);
  if (state.open !== table) return;
  // Without a read key there are no odds to show: the section stays out of sight.
  $("#tv-odds-title").hidden = $("#tv-odds").hidden = !odds;
  if (odds) renderOdds(odds);
}

function renderOdds(odds) {
  const favourable = new Set(odds.favourable);
  const p = odds.probabilities;
  $("#tv-odds-title").textContent = odds.composition_known
    ? `Next round, from the ${odds.cards_left.total} cards left: Banker ${percent(p.banker)} · Player ${percent(p.player)} · Tie ${percent(p.tie)}`
    : "Next round (cards not reported: a fresh shoe's odds)";
  $("#tv-odds").replaceChildren(...Object.entries(odds.rtp).map(([bet, rtp]) =>
    el("div", { className: `stat${favourable.has(bet) ? " favourable" : ""}` },
      el("b", { textContent: percent(rtp) }),
      el("span", { textContent: `${BET_NAMES[bet] ?? bet} · return` }))));
}

function renderStats({ stats, streaks }) {
  const p = stats.percentages;
  const items = [
    ["Banker", `${stats.counts.banker}`, `${p.banker}%`],
    ["Player", `${stats.counts.player}`, `${p.player}%`],
    ["Tie", `${stats.counts.tie}`, `${p.tie}%`],
    ["Banker pair", `${stats.counts.banker_pair}`, `${p.banker_pair}%`],
    ["Player pair", `${stats.counts.player_pair}`, `${p.player_pair}%`],
    ["Naturals", `${stats.counts.natural}`, `${p.natural}%`],
    ["Longest Banker", `${stats.longest_streak.banker}`, "in a row"],
    ["Longest Player", `${stats.longest_streak.player}`, "in a row"],
    ["Dragons", `${stats.dragons}`, "runs of 6+"],
    ["Now", streaks.big_road.current.side ? `${streaks.big_road.current.side} × ${streaks.big_road.current.length}` : "–", "current run"],
  ];
  $("#tv-stats").replaceChildren(...items.map(([label, value, note]) =>
    el("div", { className: "stat" }, el("b", { textContent: value }), el("span", { textContent: `${label} · ${note}` }))));
}

// -- live updates --------------------------------------------------------------------------

let refreshTimer = null;
let refreshDue = Infinity;
function refreshSoon(delay = 250) {
  // Many tables deal at once: one lobby read per burst of events (the soonest one asked for).
  if (Date.now() + delay >= refreshDue) return;
  clearTimeout(refreshTimer);
  refreshDue = Date.now() + delay;
  refreshTimer = setTimeout(async () => {
    refreshTimer = null;
    refreshDue = Infinity;
    await loadTables().catch(() => {});
    if (state.tab === "good") await loadGoodRoads().catch(() => {});
  }, delay);
}

// A round, void or correction on the lobby channel carries the table's tile as it now is.
function updateTile(data) {
  const tile = state.tiles.get(data.table);
  if (!tile || !data.summary) {
    refreshSoon(); // a table this page has not seen yet
    return;
  }
  const fresh = { ...tile, ...data.summary };
  state.tiles.set(data.table, fresh);
  for (const node of document.querySelectorAll(`#tiles .tile[data-table="${CSS.escape(data.table)}"]`)) {
    node.replaceWith(tileNode(fresh));
  }
  // The sort badge counts the runs that grew since the player sorted: read it now and then.
  if (state.sorted) refreshSoon(5000);
}

function listen() {
  const events = new EventSource(readKey ? `/v1/events?key=${encodeURIComponent(readKey)}` : "/v1/events");
  for (const kind of ["round", "correction", "void"]) {
    events.addEventListener(kind, (event) => updateTile(JSON.parse(event.data)));
  }
  for (const kind of ["shoe", "edge", "retired"]) events.addEventListener(kind, () => refreshSoon());
  events.addEventListener("good_road", (event) => {
    const data = JSON.parse(event.data);
    refreshSoon();
    if (data.state !== "start" || !state.watched.has(data.pattern)) return;
    const name = state.tiles.get(data.table)?.name ?? data.table;
    toast(`${patternName(data.pattern)} on ${name}`, data.table);
    setTimeout(() => flash(data.table), 300);
  });
  events.addEventListener("reset", () => resort());
  // The feed starts when the server subscribes (before the stream opens): a change made between
  // the first lobby read and that instant came with no event, so read the lobby again now.
  events.addEventListener("open", () => refreshSoon());
}

// -- controls ------------------------------------------------------------------------------

function applyTheme() {
  document.documentElement.dataset.theme = state.theme;
}

function setup() {
  applyTheme();
  $("#road").value = state.road;
  $("#sort").setAttribute("aria-pressed", String(state.sorted));
  $("#road").addEventListener("change", (e) => {
    state.road = e.target.value;
    store.set("lobby.road", state.road);
    resort();
  });
  $("#sort").addEventListener("click", () => {
    // Sorting again resets the badge; a second click on a fresh sort switches it off.
    if (state.sorted && $("#badge").hidden) state.sorted = false; else state.sorted = true;
    store.set("lobby.sorted", state.sorted);
    $("#sort").setAttribute("aria-pressed", String(state.sorted));
    resort();
  });
  $("#theme").addEventListener("click", () => {
    state.theme = state.theme === "dark" ? "light" : "dark";
    store.set("lobby.theme", state.theme);
    applyTheme();
    renderTiles();
    refreshTable();
  });
  for (const button of document.querySelectorAll(".tabs button")) {
    button.addEventListener("click", () => {
      state.tab = button.dataset.tab;
      for (const other of document.querySelectorAll(".tabs button")) {
        other.setAttribute("aria-selected", String(other === button));
      }
      $("#view-all").hidden = state.tab !== "all";
      $("#view-good").hidden = state.tab !== "good";
      if (state.tab === "good") loadGoodRoads();
    });
  }
  $("#tv-close").addEventListener("click", () => $("#table-view").close());
  $("#table-view").addEventListener("close", () => {
    state.open = null;
    state.feed?.close();
    state.feed = null;
  });
  for (const side of ["B", "P"]) {
    $(`#ask-${side.toLowerCase()}`).addEventListener("click", () => {
      state.ask = state.ask === side ? null : side;
      refreshTable();
    });
  }
}

// For scripts and the browser tests: the roads document the table view holds.
globalThis.lobby = { roadsDocument: () => state.feed?.doc ?? null };

async function main() {
  setup();
  await loadPatterns().catch(() => {});
  await loadTables().catch((error) => { $("#status").textContent = `Cannot load tables (${error.message}).`; });
  loadGoodRoads().catch(() => {});
  listen();
}

main();
