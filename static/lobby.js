// The lobby page: plain JavaScript modules over the public API (/v1/patterns once, then only the
// event stream) and the JavaScript client (clients/js, served at /client/). No build step.
//
// Tiles are kept by the lobby's frames (the client's LobbyFeed: a full frame, then each table's
// changes) and drawn from them, roads included; sorting, the sort badge and the Good Roads tab
// are worked out from the tiles. The table view keeps its roads document by the road patches of
// its table's channel. Nothing is requested a round or an event.
// Modules: i18n.js (languages), router.js (deep links), tiles.js, tableview.js (with
// pastshoes.js, the table's earlier shoes), goodroads.js.
import { goodRoadsStarted, LobbyFeed } from "/client/index.js";
import { GoodRoads } from "./goodroads.js";
import { chosenLanguage, current, LANGUAGES, t, useLanguage } from "./i18n.js";
import { prefs } from "./prefs.js";
import { Router } from "./router.js";
import { TableView } from "./tableview.js";
import { el, leftText, roadName, tileNode } from "./tiles.js";

const SEARCH_FROM = 13; // tables from which the lobby offers a search box

const state = {
  tab: "all",
  road: prefs.get("lobby.road", "big_road"),
  sorted: prefs.get("lobby.sorted", true),
  theme: prefs.get("lobby.theme", null) ||
    (matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark"),
  favourites: new Set(prefs.get("lobby.favourites", [])),
  pinned: prefs.get("lobby.pinned", []), // tables pinned first, in the order pinned (seed 003)
  hidden: new Set(prefs.get("lobby.hidden", [])), // tables the player hid, until shown again
  filter: { text: "", variant: "", favourites: false, stake: null },
  clockOffset: 0, // how far the service's clock is ahead of this browser's (ms), from the frames
  tiles: new Map(), // table id -> tile, kept by the lobby's frames
  order: [], // table ids in display order; re-sorted only when the player asks
  grown: new Set(), // tables whose run on the sorted road grew since the player sorted
  framed: false, // the first frame came
};

const $ = (selector) => document.querySelector(selector);

// The odds and the edge flags need a read key (unless the operator made them public): a lobby
// link may carry one (?key=...), kept for the next visits.
const readKey = new URLSearchParams(location.search).get("key") ?? prefs.get("lobby.key", null);
if (readKey) prefs.set("lobby.key", readKey);
const keyHeaders = readKey ? { "X-API-Key": readKey } : {};

async function getJSON(url) {
  const answer = await fetch(url, { cache: "no-cache", headers: keyHeaders });
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return answer.json();
}

const router = new Router((route) => show(route));
const goodRoads = new GoodRoads({
  getJSON, view: () => view(), render: () => render(), tiles: () => state.tiles,
});
const tableView = new TableView({
  tile: (id) => state.tiles.get(id),
  theme: () => state.theme,
  readKey,
  onClose: () => router.closeTable(),
});

// What a tile shows and does (see tiles.js).
function view() {
  return {
    road: state.road,
    theme: state.theme,
    favourites: state.favourites,
    watched: goodRoads.watched,
    shownPatterns: goodRoads.shownPatterns(),
    onOpen: (table) => router.go({ tab: state.tab, table }),
    onFavourite: toggleFavourite,
    pinned: new Set(pinnedNow()),
    onPin: togglePin,
    onHide: hideTable,
    clockOffset: state.clockOffset,
  };
}

// -- lobby data ----------------------------------------------------------------------------

// Longest current run first on the road shown (then the longest run), as GET /v1/tables?sort=
// streak orders them; else by table id.
function sortKey(tile) {
  const runs = tile.streaks[state.road];
  return [runs.current.length, runs.longest.length];
}

function resort() {
  const ids = [...state.tiles.keys()].sort();
  if (state.sorted) {
    ids.sort((a, b) => {
      const [x, y] = [sortKey(state.tiles.get(a)), sortKey(state.tiles.get(b))];
      return y[0] - x[0] || y[1] - x[1];
    });
  }
  state.order = ids;
  state.grown.clear();
  showBadge();
  render();
}

// The sort badge: how many tables' runs on the sorted road grew since the player sorted.
function showBadge() {
  const badge = $("#badge");
  const grown = state.grown.size;
  badge.hidden = !state.sorted || !grown;
  badge.textContent = grown || "";
  badge.title = t("sort.badge", { n: grown });
}

// A run grew: the same side, longer (roads.lobby.run_changes).
function runGrew(before, after) {
  const old = before?.streaks?.[state.road]?.current;
  const now = after.streaks[state.road].current;
  return Boolean(old && now.side && now.side === old.side && now.length > old.length);
}

// -- the All tables view -------------------------------------------------------------------

const folded = (text) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

// A stake the table's limits take (api/codecs/tablestatus.py's admits: a table without limits
// takes none).
function admits(limits, stake) {
  const bounds = limits?.table;
  return Boolean(bounds) && (bounds.min ?? 0) <= stake && stake <= (bounds.max ?? Infinity);
}

function shown(tile) {
  const { text, variant, favourites, stake } = state.filter;
  return (!text || folded(tile.name).includes(folded(text)) || folded(tile.table).includes(folded(text)))
    && (!variant || tile.variant === variant)
    && (stake === null || admits(tile.limits, stake))
    && (!favourites || state.favourites.has(tile.table));
}

// Every countdown on the page, by the service's clock: once a second, no request.
function tick() {
  for (const node of document.querySelectorAll("[data-until]")) {
    const text = leftText(node.dataset.until, state.clockOffset);
    if (node.textContent !== text) node.textContent = text;
  }
}

// Seed 003: up to three tables pinned on a desktop, one on a phone.
const PHONE = matchMedia("(max-width: 640px)");
const mostPinned = () => (PHONE.matches ? 1 : 3);

// The tables pinned first now: the newest pins a screen holds, of the tables the lobby has.
function pinnedNow() {
  return state.pinned.filter((id) => state.tiles.has(id)).slice(-mostPinned());
}

function render() {
  const total = state.order.length;
  $("#search-box").hidden = total < SEARCH_FROM;
  // The pinned tables first, in the order pinned and out of the sorting; then the favourites,
  // each group in the order the player sorted by. A hidden table is not shown.
  const pinned = pinnedNow();
  const rest = state.order.filter((id) => !pinned.includes(id) && !state.hidden.has(id))
    .sort((a, b) => state.favourites.has(b) - state.favourites.has(a));
  const ids = [...pinned.filter((id) => !state.hidden.has(id)), ...rest];
  const tiles = ids.map((id) => state.tiles.get(id)).filter(shown);
  const current_ = view();
  $("#tiles").replaceChildren(...tiles.map((tile) => tileNode(tile, current_)));
  const order = state.sorted ? t("status.sorted", { road: roadName(state.road) }) : t("status.by_name");
  let status = total ? `${t("status.count", { n: total })} · ${order}` : t("status.none");
  if (total && tiles.length < total) {
    status = tiles.length ? `${t("status.filtered", { n: tiles.length, total })} · ${order}` : t("status.no_match");
  }
  $("#status").textContent = status;
  renderHidden();
}

function toggleFavourite(table) {
  if (state.favourites.has(table)) state.favourites.delete(table); else state.favourites.add(table);
  prefs.set("lobby.favourites", [...state.favourites]);
  render();
  if (state.tab === "good") goodRoads.load();
  document.querySelector(`.tile[data-table="${CSS.escape(table)}"] .star`)?.focus();
}

// Pin a table first (the oldest pin goes when a screen holds no more), or unpin it.
function togglePin(table) {
  const pinned = pinnedNow();
  state.pinned = pinned.includes(table)
    ? pinned.filter((id) => id !== table)
    : [...pinned, table].slice(-mostPinned());
  prefs.set("lobby.pinned", state.pinned);
  render();
  if (state.tab === "good") goodRoads.load();
  document.querySelector(`.tile[data-table="${CSS.escape(table)}"] .pin`)?.focus();
}

// Hide a table from the list; the settings list it, to show it again.
function hideTable(table) {
  state.hidden.add(table);
  state.pinned = state.pinned.filter((id) => id !== table);
  prefs.set("lobby.hidden", [...state.hidden]);
  prefs.set("lobby.pinned", state.pinned);
  render();
  if (state.tab === "good") goodRoads.load();
  $("#tiles").focus();
}

function showTable(table) {
  state.hidden.delete(table);
  prefs.set("lobby.hidden", [...state.hidden]);
  render();
}

// The settings' list of hidden tables, each with a button that shows it again.
function renderHidden() {
  const hidden = [...state.hidden];
  $("#hidden-tables").hidden = hidden.length === 0;
  $("#hidden-list").replaceChildren(...hidden.map((table) => {
    const name = state.tiles.get(table)?.name ?? table;
    const button = el("button", { className: "pill", type: "button", textContent: t("hidden.show", { table: name }) });
    button.addEventListener("click", () => showTable(table));
    return el("li", {}, button);
  }));
}

function flash(table) {
  for (const node of document.querySelectorAll(`.tile[data-table="${CSS.escape(table)}"]`)) {
    const box = node.getBoundingClientRect();
    if (box.bottom < 0 || box.top > innerHeight) continue; // out of sight: no glow to paint
    node.classList.remove("flash");
    void node.offsetWidth; // restart the animation
    node.classList.add("flash");
  }
}

// A big lobby starts several Good Roads a second: a few notices at a time are read, a pile is
// not (and each costs the page a repaint): the newest TOASTS stay.
const TOASTS = 3;

function toast(text, table) {
  const node = el("button", { className: "toast", type: "button", textContent: text });
  node.addEventListener("click", () => { router.go({ tab: state.tab, table }); node.remove(); });
  const box = $("#toasts");
  box.append(node);
  while (box.children.length > TOASTS) box.firstElementChild.remove();
  setTimeout(() => node.remove(), 7000);
}

// -- views and deep links ------------------------------------------------------------------

function show(route) {
  state.tab = route.tab;
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const selected = tab.dataset.tab === route.tab;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
  }
  $("#view-all").hidden = route.tab !== "all";
  $("#view-good").hidden = route.tab !== "good";
  if (route.tab === "good") goodRoads.load();
  if (route.table) tableView.open(route.table); else tableView.close();
}

// -- live updates --------------------------------------------------------------------------

// The lobby in frames: the first holds every tile, each next one what changed since.
function onFrame({ changed: touched, removed }, frame) {
  const first = !state.framed;
  state.framed = true;
  if (frame.server_time) state.clockOffset = Date.parse(frame.server_time) - Date.now();
  // A full frame (the first, or after a restart) names every table: redraw only those whose
  // tile is not the same.
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const changed = new Map([...touched].filter(([table, before]) => !same(before, state.tiles.get(table))));
  if (first) {
    resort();
  } else {
    const known = new Set(state.order);
    state.order = state.order.filter((id) => state.tiles.has(id))
      .concat([...state.tiles.keys()].filter((id) => !known.has(id)));
    if (removed.length || [...changed.keys()].some((id) => !known.has(id))) {
      render();
    } else {
      for (const table of changed.keys()) {
        const fresh = state.tiles.get(table);
        for (const node of document.querySelectorAll(`#tiles .tile[data-table="${CSS.escape(table)}"]`)) {
          if (shown(fresh)) node.replaceWith(tileNode(fresh, view()));
        }
      }
    }
  }
  let goodChanged = false;
  for (const [table, before] of changed) {
    const after = state.tiles.get(table);
    if (JSON.stringify(before?.good_roads ?? []) !== JSON.stringify(after.good_roads)) goodChanged = true;
    if (frame.full) continue; // what a player missed while away is not news
    if (runGrew(before, after)) state.grown.add(table);
    for (const found of goodRoadsStarted(before, after)) {
      if (!goodRoads.notices({ table, pattern: found.pattern, state: "start" })) continue;
      const said = t("toast.good", { pattern: t(`pattern.${found.pattern}.name`), table: after.name ?? table });
      const unusual = goodRoads.unusual(found.pattern);
      toast(unusual ? `${said} · ${unusual}` : said, table);
      setTimeout(() => flash(table), 300);
    }
  }
  for (const table of removed) state.grown.delete(table);
  showBadge();
  if ((first || goodChanged || removed.length) && state.tab === "good") goodRoads.load();
}

function listen() {
  new LobbyFeed({ key: readKey, tiles: state.tiles, onFrame });
}

// -- controls ------------------------------------------------------------------------------

function applyTheme() {
  document.documentElement.dataset.theme = state.theme;
}

async function changeLanguage(code) {
  await useLanguage(code, { remember: true });
  await goodRoads.loadPatterns().catch(() => {});
  render();
  tableView.retranslate();
  if (state.tab === "good") goodRoads.load();
}

function setupTabs() {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  for (const [index, tab] of tabs.entries()) {
    tab.addEventListener("click", () => router.go({ tab: tab.dataset.tab, table: null }));
    // Arrow keys move between the tabs (WAI-ARIA tabs pattern).
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = tabs[(index + step + tabs.length) % tabs.length];
      next.focus();
      router.go({ tab: next.dataset.tab, table: null });
    });
  }
}

function setup() {
  applyTheme();
  const languages = $("#lang");
  languages.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) =>
    el("option", { value: code, textContent: name, lang: code })));
  languages.value = current();
  languages.addEventListener("change", () => changeLanguage(languages.value));
  $("#road").value = state.road;
  $("#sort").setAttribute("aria-pressed", String(state.sorted));
  $("#road").addEventListener("change", (e) => {
    state.road = e.target.value;
    prefs.set("lobby.road", state.road);
    resort();
  });
  $("#sort").addEventListener("click", () => {
    // Sorting again resets the badge; a second click on a fresh sort switches it off.
    if (state.sorted && $("#badge").hidden) state.sorted = false; else state.sorted = true;
    prefs.set("lobby.sorted", state.sorted);
    $("#sort").setAttribute("aria-pressed", String(state.sorted));
    resort();
  });
  $("#theme").addEventListener("click", () => {
    state.theme = state.theme === "dark" ? "light" : "dark";
    prefs.set("lobby.theme", state.theme);
    applyTheme();
    render();
    tableView.refresh();
  });
  $("#search").addEventListener("input", (e) => { state.filter.text = e.target.value.trim(); render(); });
  $("#variant").addEventListener("change", (e) => { state.filter.variant = e.target.value; render(); });
  $("#stake").addEventListener("input", (e) => {
    const stake = e.target.value === "" ? null : Number(e.target.value);
    state.filter.stake = Number.isFinite(stake) ? stake : null;
    render();
  });
  setInterval(tick, 1000);
  PHONE.addEventListener("change", render); // a phone holds one pinned table, a desktop three
  $("#favourites-only").addEventListener("click", (e) => {
    state.filter.favourites = !state.filter.favourites;
    e.currentTarget.setAttribute("aria-pressed", String(state.filter.favourites));
    render();
  });
  setupTabs();
}

// For scripts and the browser tests: the roads document the table view holds.
globalThis.lobby = { roadsDocument: () => tableView.doc };

async function main() {
  await useLanguage(chosenLanguage()).catch(() => useLanguage("en"));
  setup();
  $("#status").textContent = t("status.loading");
  await goodRoads.loadPatterns().catch(() => {});
  show(router.route());
  listen();
}

main();
