// The page's language: one catalogue per language (./i18n/LANG.json, the same keys in each; the
// API names the patterns from the same files), chosen by the player (remembered) or else from the
// browser's languages. Every visible text of the page comes from t().
import { prefs } from "./prefs.js";

// Each language's own name for itself, as a language picker shows it.
export const LANGUAGES = {
  en: "English",
  it: "Italiano",
  nl: "Nederlands",
  ro: "Română",
  id: "Bahasa Indonesia",
  "zh-Hans": "简体中文",
  "zh-Hant": "繁體中文",
  ja: "日本語",
  ko: "한국어",
  vi: "Tiếng Việt",
  th: "ไทย",
};

// The languages whose players start on the Asian Good Roads (api/http/catalogues.py's ASIAN).
export const ASIAN = ["zh-Hans", "zh-Hant", "ja", "ko", "vi", "th"];

let messages = {};
let language = "en";
let plurals = new Intl.PluralRules("en");

export const current = () => language;

// The catalogue for a browser language tag: zh-TW, zh-HK, zh-MO and zh-Hant → Traditional
// Chinese, any other zh → Simplified; nl-BE → Dutch; "in" is Indonesian's old code.
function matching(tag) {
  const lower = tag.toLowerCase();
  if (lower.startsWith("zh")) return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? "zh-Hant" : "zh-Hans";
  const primary = lower.split("-")[0] === "in" ? "id" : lower.split("-")[0];
  return primary in LANGUAGES ? primary : null;
}

export function chosenLanguage() {
  const kept = prefs.get("lobby.lang", null);
  if (kept in LANGUAGES) return kept;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const found = matching(tag);
    if (found) return found;
  }
  return "en";
}

export async function useLanguage(code, { remember = false } = {}) {
  const answer = await fetch(`/static/i18n/${code}.json`, { cache: "no-cache" });
  if (!answer.ok) throw new Error(`catalogue ${code}: ${answer.status}`);
  messages = await answer.json();
  language = code;
  plurals = new Intl.PluralRules(code);
  if (remember) prefs.set("lobby.lang", code);
  document.documentElement.lang = code;
  translate(document);
}

// A bet's or a pay table's name in the page's language; one the catalogue lacks (a pay table of
// the operator's own, and its bets) as the pay table spells it, words apart.
export function betName(bet) {
  return `bet.${bet}` in messages ? t(`bet.${bet}`) : bet.replaceAll("_", " ");
}

export function variantName(variant) {
  return `variant.${variant}` in messages ? t(`variant.${variant}`) : variant.replaceAll("_", " ");
}

// The text of `key` with its {placeholders} filled in; a plural text takes the form `n` needs
// in this language ("1 round", "2 rounds"; Romanian's "2 runde", "20 de runde").
export function t(key, params = {}) {
  let text = messages[key];
  if (text !== null && typeof text === "object") {
    text = text[plurals.select(params.n ?? 0)] ?? text.other;
  }
  if (typeof text !== "string") {
    console.warn(`no text for ${key} in ${language}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? number(value) : String(value);
  });
}

export const number = (value) => new Intl.NumberFormat(language).format(value);
export const percent = (fraction) => new Intl.NumberFormat(language, {
  style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2,
}).format(fraction);

// The fewest shoes a chance of 0 was seen in none of: the simulated table behind derived roads.
const SIMULATED_SHOES = 1000000;

// How unusual a run or a Good Road is, from its chance in a shoe (roads/rarity.py): "1 shoe in
// 7"; a chance above one half as a share of shoes ("in 87% of shoes"); "" without a chance.
export function rarity(chance) {
  if (chance == null) return "";
  if (chance === 0) return t("rarity.rarer", { n: SIMULATED_SHOES });
  if (chance > 0.5) return t("rarity.share", { p: share(chance) });
  return t("rarity.one_in", { n: Math.round(1 / chance) });
}

// The chance that at least one of the lobby's `tables` tables shows it: "at least one of 40
// tables: 99%" ("" for a lobby of one table, where it says nothing more).
export function lobbyRarity(lobbyChance, tables) {
  if (lobbyChance == null || tables < 2) return "";
  return t("rarity.lobby", { n: tables, p: share(lobbyChance) });
}

// A share to 3 significant digits; one that would round to 100% is "> 99.9%" (it is not sure).
const share = (fraction) => {
  const format = new Intl.NumberFormat(language, { style: "percent", maximumSignificantDigits: 3 });
  return fraction >= 0.9995 ? `> ${format.format(0.999)}` : format.format(fraction);
};

// The page's own texts: `data-i18n="key"` sets an element's text; `data-i18n-attr="attr:key;…"`
// its attributes (aria-label, title, placeholder).
export function translate(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":");
      node.setAttribute(attribute, t(key));
    }
  }
  document.title = t("app.title");
}
