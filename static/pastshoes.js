// A table's past, as seed 003's history window shows it: the table's earlier shoes from the
// record, newest first, by the player's own day (Today / Previous days, each earlier day under
// its date); a shoe opened is drawn as the current one is, with its rounds listed (a cancelled
// one marked ✕) and a round's details on a tap (game id, time, cards, dealer).
//
// What it reads: the list when the table view opens (a page of shoes, and the next on "Older
// shoes"), a shoe's roads document and its rounds once when it is opened: nothing a round, and a
// round's details come from the rounds already read. The record's reads need the lobby's read key
// unless the operator made the record public (ROADS_PUBLIC_RECORD=1); without either, or in a
// deployment that keeps no record, the section stays out of sight.
import { current, number, t } from "./i18n.js";
import { el } from "./tiles.js";

const PAGE = 20; // shoes a read lists
const RETRIES = 2; // a busy record (503) is asked again after its Retry-After, this many times
const $ = (selector) => document.querySelector(selector);
const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

// "10C" as a player reads it: "10♣".
export const cardText = (card) => `${card.slice(0, -1)}${SUITS[card.slice(-1)] ?? card.slice(-1)}`;

// A moment (RFC 3339) in the page's language: its time of day, or its date.
const timeOf = (at) => new Intl.DateTimeFormat(current(), { timeStyle: "short" }).format(new Date(at));
export const dateOf = (at) => new Intl.DateTimeFormat(current(), { dateStyle: "medium" }).format(new Date(at));
const pause = (seconds) => new Promise((done) => setTimeout(done, seconds * 1000));
const dayOf = (at) => new Date(at).toDateString(); // the player's day, in the browser's zone

export class PastShoes {
  // `owner`: { readKey, currentShoe(): the live shoe's id, open(past): show a past shoe
  // ({ table, shoe, doc, rounds, openedAt }) }.
  constructor(owner) {
    this.owner = owner;
    this.section = $("#tv-past");
    this.day = "today"; // the tab shown: "today" or "previous"
    // Every answer belongs to the read that asked: one that comes after the table changed, the
    // view closed, another shoe was asked for or the player went back is dropped.
    this.generation = 0;
    this.reset(null);
    for (const day of ["today", "previous"]) {
      $(`#past-${day}`).addEventListener("click", () => {
        this.day = day;
        this.render();
      });
    }
    $("#past-more").addEventListener("click", () => this.readPage());
  }

  reset(table) {
    this.generation += 1;
    this.table = table;
    this.shoes = [];
    this.cursor = null;
    this.more = false;
    this.reading = false;
    this.opening = null;
    this.error = false;
    this.section.hidden = true;
  }

  // A shoe asked for is no longer wanted (the player went back to the live shoe).
  forget() {
    this.opening = null;
  }

  async get(path) {
    const headers = this.owner.readKey ? { "X-API-Key": this.owner.readKey } : {};
    for (let attempt = 0; ; attempt += 1) {
      const answer = await fetch(path, { headers });
      if (answer.ok) return answer.json();
      const wait = Number(answer.headers.get("Retry-After") ?? 1);
      if (answer.status !== 503 || attempt >= RETRIES) {
        throw Object.assign(new Error(`${path}: ${answer.status}`), { status: answer.status });
      }
      await pause(Math.min(Math.max(wait, 1), 10));
    }
  }

  // The table's shoes, read afresh (the view opened): the first page.
  load(table) {
    this.reset(table);
    return this.readPage();
  }

  async readPage() {
    if (this.reading) return; // "Older shoes" twice: one read
    const { table, generation } = this;
    const after = this.cursor ? `&cursor=${encodeURIComponent(this.cursor)}` : "";
    this.reading = true;
    $("#past-more").disabled = true;
    let page;
    try {
      page = await this.get(`/v1/tables/${encodeURIComponent(table)}/shoes?limit=${PAGE}${after}`);
    } catch (error) {
      if (generation !== this.generation) return;
      this.reading = false;
      $("#past-more").disabled = false;
      // No key, no record or no such table in it: nothing to show. Anything else: say so.
      if (![401, 403, 404].includes(error.status)) this.failed();
      return;
    }
    if (generation !== this.generation) return; // another table, or the view closed
    this.reading = false;
    this.error = false;
    $("#past-more").disabled = false;
    this.shoes.push(...page.shoes);
    this.cursor = page.next_cursor;
    this.more = Boolean(page.next_cursor);
    this.section.hidden = false;
    this.render();
  }

  // The record could not be read: said where the list says it has none, the list kept.
  failed() {
    this.section.hidden = false;
    this.error = true;
    this.render();
  }

  // The shoes of the tab shown: today's, or the earlier days' under their dates; never the
  // shoe being dealt (the view shows it live; an earlier shoe is a closed one).
  render() {
    if (this.section.hidden) return;
    const live = this.owner.currentShoe();
    const today = new Date().toDateString();
    const shown = this.shoes.filter((shoe) => shoe.closed_at && shoe.shoe !== live &&
      (dayOf(shoe.opened_at) === today) === (this.day === "today"));
    for (const day of ["today", "previous"]) {
      $(`#past-${day}`).setAttribute("aria-pressed", String(this.day === day));
    }
    const items = [];
    let heading = null;
    for (const shoe of shown) {
      const date = dateOf(shoe.opened_at);
      if (this.day === "previous" && date !== heading) {
        heading = date;
        items.push(el("li", { className: "past-day" }, el("h4", { textContent: date })));
      }
      items.push(el("li", {}, this.shoeButton(shoe)));
    }
    $("#past-list").replaceChildren(...items);
    const empty = $("#past-empty");
    empty.hidden = shown.length > 0 && !this.error;
    empty.textContent = this.error ? t("past.error")
      : t(this.day === "today" ? "past.none_today" : "past.none");
    $("#past-more").hidden = !this.more;
  }

  shoeButton(shoe) {
    const ended = shoe.closed_at ? `–${timeOf(shoe.closed_at)}` : "";
    const button = el("button", { className: "past-shoe", type: "button" },
      el("b", { textContent: t("past.shoe", { shoe: shoe.shoe }) }),
      el("span", { textContent: `${timeOf(shoe.opened_at)}${ended}` }),
      el("span", { textContent: t("tile.rounds", { n: shoe.rounds_played }) }),
      el("span", { className: "past-counts", textContent: this.counts(shoe) }));
    button.dataset.shoe = shoe.shoe;
    button.addEventListener("click", () => this.openShoe(shoe));
    return button;
  }

  counts(shoe) {
    const side = (key, count) => `${t(`side.${key}.short`)} ${number(count)}`;
    return [side("B", shoe.banker), side("P", shoe.player), side("T", shoe.tie)].join(" · ");
  }

  // A shoe opened: its roads document and its rounds, read once each. Only the shoe asked for
  // last is shown, and only while the player has not gone back or left the table.
  async openShoe(shoe) {
    const { table, generation } = this;
    const opening = (this.opening = {});
    this.error = false;
    const base = `/v1/tables/${encodeURIComponent(table)}/shoes/${encodeURIComponent(shoe.shoe)}`;
    let doc, history;
    try {
      [doc, history] = await Promise.all([this.get(`${base}/roads`), this.get(`${base}/rounds`)]);
    } catch {
      if (generation === this.generation && opening === this.opening) this.failed();
      return;
    }
    if (generation !== this.generation || opening !== this.opening) return;
    this.opening = null;
    this.owner.open({ table, shoe: shoe.shoe, doc, rounds: history.rounds, openedAt: shoe.opened_at });
  }
}

// A past shoe's rounds, each a button that shows its details; a cancelled one marked ✕.
export function roundList(rounds, onPick) {
  return rounds.map((round) => {
    const side = round.void ? "void" : round.result;
    const totals = round.player_total == null ? "" : ` ${round.player_total}:${round.banker_total}`;
    const mark = round.void ? "✕" : `${t(`side.${round.result}.short`)}${totals}`;
    const button = el("button", { className: `round-item ${side}`, type: "button" },
      el("b", { textContent: number(round.round) }), " ", el("span", { textContent: mark }));
    // What it shows, then in words what its letter or ✕ means (the name keeps the visible text).
    const outcome = round.void ? t("history.cancelled") : t(`side.${round.result}`);
    button.setAttribute("aria-label", `${number(round.round)} ${mark} · ${outcome}`);
    button.dataset.round = String(round.round);
    button.addEventListener("click", () => onPick(round));
    return el("li", {}, button);
  });
}

// A round's details, as the record holds them: its title ("Round 12 · Banker") and its fields
// (game id, time, cards, dealer) as a definition list's terms and values.
export function roundDetails(round) {
  const cards = (hand, total) => (hand ? `${hand.map(cardText).join(" ")} (${number(total)})` : "–");
  const clock = new Intl.DateTimeFormat(current(), { timeStyle: "medium" });
  const when = round.dealt_at ? `${dateOf(round.dealt_at)} ${clock.format(new Date(round.dealt_at))}` : "–";
  const rows = [
    ["game_id", t("round.game_id"), round.game_id ?? "–"],
    ["time", t("round.time"), when],
    ["player", t("round.player"), cards(round.player_cards, round.player_total)],
    ["banker", t("round.banker"), cards(round.banker_cards, round.banker_total)],
    ["dealer", t("round.dealer"), round.dealer?.name ?? round.dealer?.id ?? "–"],
  ];
  const outcome = round.void ? t("history.cancelled") : t(`side.${round.result}`);
  const title = `${t("history.round", { n: round.round })} · ${outcome}`;
  return {
    title,
    fields: rows.flatMap(([field, label, value]) => {
      const dd = el("dd", { textContent: value });
      dd.dataset.field = field;
      return [el("dt", { textContent: label }), dd];
    }),
  };
}
