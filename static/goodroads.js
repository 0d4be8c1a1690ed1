// The Good Roads tab: which patterns the player watches, of which profile (the classic lobby's
// twelve and two more, or the Asian lobbies' twelve: 长庄, 单跳, 一厅两房 ...), remembered in this
// browser, and the tables that match one now. Every pattern is enabled at first (seed 003); a
// player reading an Asian language starts with the Asian profile.
import { ASIAN, current, lobbyRarity, rarity, t } from "./i18n.js";
import { prefs } from "./prefs.js";
import { el, tileNode } from "./tiles.js";

const $ = (selector) => document.querySelector(selector);

export class GoodRoads {
  // `lobby.view()`: what tiles show (road, theme, favourites, what opening and starring do);
  // `lobby.getJSON(url)`; `lobby.tiles()`: every table's tile, by id.
  constructor(lobby) {
    this.lobby = lobby;
    this.profile = prefs.get("lobby.profile", null);
    this.watched = new Set(prefs.get("lobby.watched", []));
    this.patterns = []; // the profile's, as /v1/patterns names them in the page's language
    this.chosenYet = prefs.get("lobby.watched", null) !== null;
    for (const input of document.querySelectorAll('input[name="profile"]')) {
      input.addEventListener("change", () => this.useProfile(input.value));
    }
  }

  // The profile a player starts with: the one they chose, else the one of their language.
  startingProfile() {
    return this.profile ?? (ASIAN.includes(current()) ? "asia" : "classic");
  }

  shownPatterns() {
    return new Set(this.patterns.map((pattern) => pattern.id));
  }

  async loadPatterns() {
    const profile = this.startingProfile();
    const query = new URLSearchParams({ profile, lang: current() });
    const answer = await this.lobby.getJSON(`/v1/patterns?${query}`);
    this.patterns = answer.patterns;
    if (!this.chosenYet) this.watched = new Set(this.patterns.map((pattern) => pattern.id));
    for (const input of document.querySelectorAll('input[name="profile"]')) {
      input.checked = input.value === profile;
    }
    $("#pattern-list").replaceChildren(...this.patterns.map((pattern) => this.chip(pattern)));
  }

  chip(pattern) {
    const box = el("input", { type: "checkbox", value: pattern.id, checked: this.watched.has(pattern.id) });
    box.addEventListener("change", () => {
      if (box.checked) this.watched.add(pattern.id); else this.watched.delete(pattern.id);
      this.remember();
      this.lobby.render();
      this.load();
    });
    return el("label", { title: pattern.description }, box, pattern.name);
  }

  remember() {
    this.chosenYet = true;
    prefs.set("lobby.watched", [...this.watched]);
    prefs.set("lobby.profile", this.startingProfile());
  }

  async useProfile(profile) {
    this.profile = profile;
    await this.loadPatterns();
    // A profile met for the first time starts with all its patterns watched; the other's choices
    // are kept for when the player comes back to it.
    if (![...this.watched].some((id) => this.shownPatterns().has(id))) {
      for (const pattern of this.patterns) this.watched.add(pattern.id);
      for (const box of document.querySelectorAll("#pattern-list input")) box.checked = true;
    }
    this.remember();
    this.lobby.render();
    this.load();
  }

  // The watched patterns of the profile shown: what the tab lists and the notices tell.
  watching() {
    return [...this.watched].filter((id) => this.shownPatterns().has(id));
  }

  // The tables that match a watched pattern now, from the tiles the lobby's frames keep.
  load() {
    const status = $("#good-status");
    const grid = $("#good-tiles");
    const watching = new Set(this.watching());
    if (!watching.size) {
      status.textContent = t("good.pick");
      grid.replaceChildren();
      this.count(0);
      return;
    }
    const matching = [...this.lobby.tiles().values()]
      .sort((a, b) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0))
      .map((tile) => ({ tile, found: tile.good_roads.filter((g) => watching.has(g.pattern)) }))
      .filter(({ found }) => found.length);
    status.textContent = matching.length ? t("good.count", { n: matching.length }) : t("good.none");
    const view = this.lobby.view();
    grid.replaceChildren(...matching.map(({ tile, found }) => tileNode(tile, view,
      found.map((f) => [t("good.since", { pattern: t(`pattern.${f.pattern}.name`), n: f.since_round }),
        rarity(this.chance(f.pattern))].filter(Boolean).join(" · ")))));
    this.count(matching.length);
  }

  count(tables) {
    const badge = $("#good-count");
    badge.hidden = !tables;
    badge.textContent = tables;
  }

  // The chance that a shoe shows `pattern` (/v1/patterns), null for one the profile lacks.
  chance(pattern) {
    return this.patterns.find((p) => p.id === pattern)?.chance ?? null;
  }

  // How unusual `pattern` is, as a notice says it: in a shoe, and at one of the lobby's tables.
  unusual(pattern) {
    const chance = this.chance(pattern);
    if (chance == null) return "";
    const tables = this.lobby.tiles().size;
    const lobby = lobbyRarity(1 - (1 - chance) ** tables, tables);
    return [rarity(chance), lobby].filter(Boolean).join(" · ");
  }

  // A `good_road` event: a watched pattern starting on a table is worth a notice.
  notices(data) {
    return data.state === "start" && this.watched.has(data.pattern) && this.shownPatterns().has(data.pattern);
  }
}
