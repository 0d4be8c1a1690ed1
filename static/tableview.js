// A table's view: its five roads (each its own picture, so they stack on a phone and each says
// what it shows), Ask Banker / Ask Player, the shoe's statistics and the odds of the next round.
// The roads document is read once and kept current by its table's road patches, the odds by the
// same events (the client's TableFeed); the roads are drawn here as SVG: no request a round.
// Below them the table's earlier shoes (pastshoes.js): one opened is drawn in their place, read
// once, with its rounds and their details, until the player goes back to the current shoe.
import { askCell, documentCells, roadSvgElement, TableFeed } from "/client/index.js";
import { betName, current, number, percent, t } from "./i18n.js";
import { dateOf, PastShoes, roundDetails, roundList } from "./pastshoes.js";
import { prefs } from "./prefs.js";
import { describeRoad, el, roadName } from "./tiles.js";

// The roads in the order they are laid out, and the columns each shows: on a phone, where they
// stand one above the other at the screen's width, fewer (so larger cells).
const ROADS = { bead_plate: 10, big_road: 24, big_eye_boy: 16, small_road: 16, cockroach_road: 16 };
const PHONE = { ...ROADS, big_road: 16 };
const narrow = matchMedia("(max-width: 640px)");
const DERIVED = ["big_eye_boy", "small_road", "cockroach_road"];
const $ = (selector) => document.querySelector(selector);

const share = (value) => new Intl.NumberFormat(current(), {
  style: "percent", maximumFractionDigits: 1,
}).format(value / 100);

export class TableView {
  // `view.tile(id)`: the table's tile as the lobby has it; `view.theme()`; `view.readKey`;
  // `view.onClose()`: the player closed the view (the ✕, Esc).
  constructor(view) {
    this.view = view;
    this.dialog = $("#table-view");
    this.table = null;
    this.feed = null;
    this.ask = null;
    this.past = null; // an earlier shoe shown instead of the current one: { shoe, doc, rounds, openedAt }
    this.picked = null; // the round of it whose details are shown
    this.liveShoe = null;
    this.beads = prefs.get("lobby.beads", "letters"); // the Bead Plate's letters or totals
    this.images = this.buildRoads();
    this.pastShoes = new PastShoes({
      readKey: view.readKey,
      currentShoe: () => this.feed?.doc?.shoe ?? null,
      open: (past) => this.showPast(past),
    });
    $("#tv-live").addEventListener("click", () => this.showLive());
    $("#tv-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => {
      this.stop();
      view.onClose();
    });
    for (const side of ["B", "P"]) {
      $(`#ask-${side.toLowerCase()}`).addEventListener("click", () => {
        this.ask = this.ask === side ? null : side;
        this.refresh();
      });
    }
  }

  buildRoads() {
    const images = {};
    const box = $("#tv-roads");
    for (const road of Object.keys(ROADS)) {
      images[road] = el("div", { className: "drawn" });
      const name = el("span");
      name.dataset.i18n = `road.${road}`; // named when the page's language is applied
      const caption = el("figcaption", {}, name);
      box.append(el("figure", { className: `road-${road}` }, caption, images[road]));
    }
    // Seed 003: a tap on the Bead Plate shows each hand's winning total, another the letters;
    // the caption's toggle does the same from the keyboard.
    const toggle = el("button", { className: "pill bead-toggle", type: "button" });
    toggle.dataset.i18n = "bead.totals";
    $(".road-bead_plate figcaption").append(" ", toggle);
    const flip = () => {
      this.beads = this.beads === "totals" ? "letters" : "totals";
      prefs.set("lobby.beads", this.beads);
      this.refresh();
    };
    toggle.addEventListener("click", flip);
    images.bead_plate.classList.add("tappable");
    images.bead_plate.addEventListener("click", flip);
    return images;
  }

  open(table) {
    if (this.table === table && this.dialog.open) return;
    this.stop();
    this.table = table;
    this.ask = null;
    this.showLive();
    this.pastShoes.load(table);
    if (!this.dialog.open) this.dialog.showModal();
    $("#tv-title").textContent = this.view.tile(table)?.name ?? table;
    // The odds come with the events to a page with a read key (or when the operator made them
    // public): read once on opening, then never again.
    this.feed = new TableFeed(table, { key: this.view.readKey, odds: true, onChange: () => this.refresh() });
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  stop() {
    this.feed?.close();
    this.feed = null;
    this.table = null;
    this.past = null;
    this.liveShoe = null;
    this.pastShoes.reset(null);
  }

  // The roads document shown: an earlier shoe's the player opened, else the current one's.
  get doc() {
    return this.past?.doc ?? this.feed?.doc ?? null;
  }

  // An earlier shoe in place of the current one: its roads, its rounds listed (Ask and the odds,
  // which are the next round's, stand aside).
  showPast(past) {
    if (past.table !== this.table) return;
    this.past = past;
    this.ask = null;
    this.picked = null;
    this.renderRounds();
    this.refresh();
    $("#tv-live").focus();
  }

  // The past shoe's rounds, and the details of the one picked (again in a new language).
  renderRounds() {
    $("#tv-rounds").replaceChildren(...roundList(this.past.rounds, (round) => this.showRound(round)));
    if (this.picked) this.showRound(this.picked);
    else $("#tv-round").hidden = true;
  }

  // The page's language changed: what was written in the one before is written again.
  retranslate() {
    this.pastShoes.render();
    if (this.past) this.renderRounds();
    this.refresh();
  }

  showRound(round) {
    this.picked = round;
    const { title, fields } = roundDetails(round);
    $("#tv-round-title").textContent = title;
    $("#tv-round-fields").replaceChildren(...fields);
    $("#tv-round").hidden = false;
    for (const item of document.querySelectorAll("#tv-rounds button")) {
      item.setAttribute("aria-pressed", String(item.dataset.round === String(round.round)));
    }
  }

  // Back to the current shoe; the focus to the earlier shoe's entry in the list (the button
  // that had it is gone).
  showLive() {
    const left = this.past?.shoe;
    this.past = null;
    this.picked = null;
    this.pastShoes.forget();
    $("#tv-rounds").replaceChildren();
    $("#tv-round").hidden = true;
    this.refresh();
    if (left) document.querySelector(`#past-list [data-shoe="${CSS.escape(left)}"]`)?.focus();
  }

  // What the view shows: the roads document the feed keeps (stats, streaks, Ask previews), its
  // roads drawn from it, and the odds of the same round.
  refresh() {
    const table = this.table;
    const doc = this.doc;
    const past = Boolean(this.past);
    $("#tv-past-bar").hidden = $("#tv-history").hidden = !past;
    document.querySelector("#table-view .ask").hidden = past;
    if (!table || !doc) return;
    if (past) $("#tv-past-label").textContent = t("past.viewing", { shoe: doc.shoe, day: dateOf(this.past.openedAt) });
    if (!past && this.liveShoe !== doc.shoe) {
      this.liveShoe = doc.shoe;
      this.pastShoes.render(); // the live shoe is never listed as an earlier one
    }
    this.dialog.dataset.version = `${doc.shoe}:${doc.version}`;
    this.dialog.dataset.shown = past ? "past" : "live";
    $("#tv-title").textContent = this.view.tile(table)?.name ?? table;
    $("#tv-shoe").textContent = t("table.shoe", { shoe: doc.shoe, n: doc.rounds });
    for (const side of ["B", "P"]) {
      $(`#ask-${side.toLowerCase()}`).setAttribute("aria-pressed", String(this.ask === side));
    }
    this.renderProbe(doc);
    this.renderStats(doc);
    const theme = this.view.theme();
    const letters = Object.fromEntries(["B", "P", "T"].map((side) => [side, t(`side.${side}.short`)]));
    for (const [road, cols] of Object.entries(narrow.matches ? PHONE : ROADS)) {
      const label = road === "bead_plate" ? this.beadLabel(doc) : describeRoad(road, doc.streaks);
      const added = this.ask ? [askCell(doc, road, this.ask)].filter(Boolean) : [];
      this.images[road].replaceChildren(roadSvgElement(road, documentCells(doc, road), {
        cols, theme, added, label, bead: { letters, show: this.beads }, scale: 1,
      }));
    }
    $(".bead-toggle").setAttribute("aria-pressed", String(this.beads === "totals"));
    const odds = past ? null : this.feed.odds;
    // Without a read key there are no odds to show: the section stays out of sight.
    $("#tv-odds-title").hidden = $("#tv-odds").hidden = !odds;
    if (odds) this.renderOdds(odds);
  }

  // "Bead Plate: 18 rounds · 1 round cancelled": the cancelled ones are the ✕ marks.
  beadLabel(doc) {
    const run = t("tile.rounds", { n: doc.stats.rounds });
    const cancelled = doc.stats.void_rounds;
    const label = t("road.describe", { road: roadName("bead_plate"), run });
    return cancelled ? `${label} · ${t("road.cancelled", { n: cancelled })}` : label;
  }

  // The mark each derived road would get if the next result were the one asked.
  renderProbe(doc) {
    const probe = $("#probe");
    probe.replaceChildren();
    if (!this.ask) return;
    for (const road of DERIVED) {
      const mark = doc.probe[this.ask][road];
      const item = el("span", { className: "probe-item" },
        mark ? el("span", { className: `mark ${mark}` }) : null,
        t("probe.item", { road: roadName(road), mark: mark ? t(`colour.${mark}`) : t("ask.none") }));
      probe.append(item);
    }
  }

  renderStats({ stats, streaks }) {
    const p = stats.percentages;
    const count = (key, share_) => [number(stats.counts[key]), share(share_)];
    const now = streaks.big_road.current;
    const items = [
      ["stat.banker", ...count("banker", p.banker)],
      ["stat.player", ...count("player", p.player)],
      ["stat.tie", ...count("tie", p.tie)],
      ["stat.banker_pair", ...count("banker_pair", p.banker_pair)],
      ["stat.player_pair", ...count("player_pair", p.player_pair)],
      ["stat.naturals", ...count("natural", p.natural)],
      ["stat.longest_banker", number(stats.longest_streak.banker), t("note.in_a_row")],
      ["stat.longest_player", number(stats.longest_streak.player), t("note.in_a_row")],
      ["stat.dragons", number(stats.dragons), t("note.dragons")],
      ["stat.now", now.side ? `${t(`side.${now.side}.short`)} × ${number(now.length)}` : "–", t("note.current")],
    ];
    $("#tv-stats").replaceChildren(...items.map(([label, value, note]) =>
      el("div", { className: "stat" }, el("b", { textContent: value }), el("span", { textContent: `${t(label)} · ${note}` }))));
  }

  // Every bet the table's pay table offers, in its order (the service answers those only: no
  // Super 6 on a standard or speed table), the ones above 100% marked. A bet of a pay table of
  // the operator's own that the catalogue does not name shows as the pay table spells it.
  renderOdds(odds) {
    const favourable = new Set(odds.favourable);
    const p = odds.probabilities;
    $("#tv-odds-title").textContent = odds.composition_known
      ? t("odds.known", { n: odds.cards_left.total, banker: percent(p.banker), player: percent(p.player), tie: percent(p.tie) })
      : t("odds.fresh");
    $("#tv-odds").replaceChildren(...Object.entries(odds.rtp).map(([bet, rtp]) =>
      el("div", { className: `stat${favourable.has(bet) ? " favourable" : ""}` },
        el("b", { textContent: percent(rtp) }),
        el("span", { textContent: `${betName(bet)} · ${t("odds.return")}` }))));
  }
}
