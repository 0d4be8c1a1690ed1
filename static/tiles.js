// A table's tile in the lobby: its name, variant and rounds, a road (the Big Road or a derived
// one, as the player chose), the last results, the current run, the Good Roads it matches and
// the bets above 100%. Everything is said in words too, for screen readers. The road is drawn
// here as SVG from the cells the tile carries (the lobby's frames keep them): no request.
import { roadSvgElement, TILE_COLUMNS, tileCells } from "/client/index.js";
import { betName, percent, rarity, t, variantName } from "./i18n.js";

// Columns a tile shows of its road: all the tile carries (every road's cells are the same size).
export const TILE_COLS = TILE_COLUMNS;

const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((child) => child != null));
  return node;
};
export { el };

export const roadName = (road) => t(`road.${road}`);

// Who a run belongs to: a side on the Big Road (Banker, Player); on a derived road a colour,
// which says whether the Big Road repeats itself, not who won.
function runOwner(road, side) {
  return road === "big_road" ? t(`side.${side}`) : t(`colour.${side}`);
}

// "Big Road: Banker 4 in a row", the road's current run in words.
export function describeRoad(road, streaks) {
  const run = streaks?.[road]?.current;
  if (!run?.side) return t("road.empty", { road: roadName(road) });
  return t("road.describe", {
    road: roadName(road),
    run: t("run", { n: run.length, side: runOwner(road, run.side) }),
  });
}

// A run is worth its "1 shoe in 7" beside it when fewer than this share of shoes show one.
const UNUSUAL = 0.5;

// The current run on a road: the side's letter on the Big Road ("B × 4"), a red or blue dot on
// a derived road (a letter there would read as Banker or Player); how unusual it is in its
// label, and beside it when it is unusual.
export function runBadge(road, streaks) {
  const run = streaks[road].current;
  const longest = streaks[road].longest.length;
  const title = t("tile.run", { road: roadName(road), n: longest });
  if (!run.side) return el("span", { className: "streak", title, textContent: "–" });
  const seen = rarity(run.chance);
  const label = `${describeRoad(road, streaks)}${seen ? ` (${seen})` : ""}. ${title}`;
  const badge = el("span", { className: `streak ${run.side}`, title: label });
  badge.setAttribute("role", "img");
  badge.setAttribute("aria-label", label);
  const mark = road === "big_road"
    ? el("span", { className: "letter", textContent: t(`side.${run.side}.short`) })
    : el("span", { className: `mark ${run.side}` });
  mark.setAttribute("aria-hidden", "true");
  const count = el("span", { textContent: ` × ${run.length}` });
  count.setAttribute("aria-hidden", "true");
  badge.append(mark, count);
  if (run.chance != null && run.chance < UNUSUAL) {
    const note = el("small", { className: "rarity", textContent: seen });
    note.setAttribute("aria-hidden", "true");
    badge.append(note);
  }
  return badge;
}

function recentResults(recent) {
  const results = recent.slice(-8);
  const list = el("div", { className: "recent" },
    ...results.map((r) => el("span", { className: `dot ${r}`, textContent: t(`side.${r}.short`) })));
  list.setAttribute("role", "img");
  list.setAttribute("aria-label", `${t("tile.recent")}: ${results.map((r) => t(`side.${r}`)).join(", ")}`);
  return list;
}

// How long until `until` (RFC 3339) by the service's clock (`offset`: its ms ahead of this
// browser's), as m:ss; "" once it passed.
function timeLeft(until, offset) {
  const seconds = Math.ceil((Date.parse(until) - (Date.now() + offset)) / 1000);
  if (!(seconds > 0)) return "";
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// What a countdown says: "0:12 left", "" once it passed.
export function leftText(until, offset) {
  const time = timeLeft(until, offset);
  return time ? t("table_status.left", { time }) : "";
}

// What the table is doing, as the studio last reported it: betting with the time left, counted
// down by the page (lobby.js ticks every node with a data-until), dealing, shuffling, paused or
// closed with the studio's reason.
function statusNode(tile, offset) {
  const status = tile.status ?? "open";
  const node = el("p", { className: `table-status is-${status}` },
    el("span", { className: "state", textContent: t(`table_status.${status}`) }));
  if (tile.status_until && status !== "open" && status !== "dealing") {
    const left = el("span", { className: "left" });
    left.dataset.until = tile.status_until;
    left.setAttribute("role", "timer");
    left.textContent = leftText(tile.status_until, offset);
    node.append(" ", left);
  }
  if (tile.status_reason) node.append(" ", el("span", { className: "reason", textContent: tile.status_reason }));
  return node;
}

// The table's limits (its own, for the main bets) and its dealer, when the studio says them.
function aboutNode(tile) {
  const bounds = tile.limits?.table;
  const parts = [];
  if (bounds) parts.push(t("tile.limits", { min: bounds.min, max: bounds.max }));
  if (tile.dealer?.name) parts.push(t("tile.dealer", { name: tile.dealer.name }));
  return parts.length ? el("p", { className: "about muted", textContent: parts.join(" · ") }) : null;
}

// A tile's own button shown as a sign: `label` says what it does (to a screen reader, and on
// hover); `pressed`, when given, whether it is on.
function iconButton(className, sign, label, onClick, pressed = null) {
  const button = el("button", { className, type: "button", textContent: sign, title: label });
  if (pressed !== null) button.setAttribute("aria-pressed", String(pressed));
  button.setAttribute("aria-label", label);
  button.addEventListener("click", onClick);
  return button;
}

// `view`: the road shown, the theme, the patterns the tile names (the profile's) and those the
// player watches, the favourites, and what opening a tile and starring one do.
export function tileNode(tile, view, labels = null) {
  const road = view.road;
  const named = tile.good_roads.filter((g) => view.shownPatterns.has(g.pattern));
  const watched = named.filter((g) => view.watched.has(g.pattern));
  const favourite = view.favourites.has(tile.table);

  let picture = el("div", { className: "road placeholder", textContent: t("tile.waiting") });
  if (tile.shoe) {
    // Built node by node (no innerHTML: the page's policy refuses it): data stays data.
    picture = el("div", { className: "road" }, roadSvgElement(road, tileCells(tile.roads[road]), {
      cols: TILE_COLS, theme: view.theme, label: describeRoad(road, tile.streaks),
    }));
  }
  const open = el("button", { className: "open", type: "button", textContent: tile.name });
  open.addEventListener("click", () => view.onOpen(tile.table));
  const star = el("button", { className: "star", type: "button", textContent: favourite ? "★" : "☆" });
  star.setAttribute("aria-pressed", String(favourite));
  star.setAttribute("aria-label", t(favourite ? "favourite.remove" : "favourite.add", { table: tile.name }));
  star.addEventListener("click", () => view.onFavourite(tile.table));
  const pinned = view.pinned?.has(tile.table) ?? false;
  const pin = iconButton("pin", "⚑", t(pinned ? "pin.remove" : "pin.add", { table: tile.name }),
    () => view.onPin(tile.table), pinned);
  const hide = iconButton("hide", "✕", t("hide.add", { table: tile.name }), () => view.onHide(tile.table));

  const tags = (labels ?? named.map((g) => t(`pattern.${g.pattern}.name`)))
    .map((text, i) => el("span", {
      className: `tag${labels || view.watched.has(named[i]?.pattern) ? " watched" : ""}`,
      textContent: text,
    }));
  const edges = Object.entries(tile.edge ?? {}).map(([bet, rtp]) =>
    el("span", { className: "tag edge", title: t("edge.title"), textContent: `${betName(bet)} ${percent(rtp)}` }));

  // ("is-": a tile's own classes, "open" among them, are taken)
  const idle = tile.status === "closed" || tile.status === "paused" ? ` is-${tile.status}` : "";
  const node = el("article", { className: `tile${watched.length ? " gold" : ""}${favourite ? " favourite" : ""}${pinned ? " pinned" : ""}${idle}` },
    el("div", { className: "tile-head" },
      el("h3", {}, open),
      pin,
      star,
      hide,
      el("span", { className: "variant", textContent: variantName(tile.variant) }),
      el("span", { className: "muted", textContent: t("tile.rounds", { n: tile.rounds_played }) })),
    statusNode(tile, view.clockOffset ?? 0),
    aboutNode(tile),
    picture,
    el("div", { className: "tile-foot" }, recentResults(tile.recent), runBadge(road, tile.streaks)),
    tags.length || edges.length ? el("div", { className: "tags" }, ...tags, ...edges) : null);
  node.dataset.table = tile.table;
  return node;
}
