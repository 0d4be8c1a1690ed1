import { current } from "./i18n.js";

// The roads as pictures (the service's PNGs). Each is fetched, revalidated by its ETag, and shown
// from a blob, so a new round's picture replaces the old one although its address is the same.

// Crisp on high-density screens: twice the pixels where a CSS pixel has two or more.
export const scale = () => (devicePixelRatio >= 1.5 ? 2 : 1);

export function roadPicture(table, road, { cols, theme, ask = null }) {
  const query = new URLSearchParams({ cols, theme, scale: scale() });
  if (ask) query.set("ask", ask);
  // The Bead Plate's beads carry letters: the page's language's (G/B/P in Italian, 庄/闲/和).
  if (road === "bead_plate") query.set("lang", current());
  return `/v1/tables/${encodeURIComponent(table)}/roads/${road}.png?${query}`;
}

const shownUrls = new WeakMap();

export async function showPicture(img, url, retried = false) {
  try {
    const answer = await fetch(url, { cache: "no-cache" });
    if (answer.status === 503 && !retried) {
      // The service is painting as many pictures as it will at once: ask again when it says.
      const seconds = Number(answer.headers.get("Retry-After")) || 1;
      setTimeout(() => showPicture(img, url, true), seconds * 1000);
      return;
    }
    if (!answer.ok) return;
    const blobUrl = URL.createObjectURL(await answer.blob());
    const old = shownUrls.get(img);
    img.src = blobUrl;
    shownUrls.set(img, blobUrl);
    if (old) URL.revokeObjectURL(old);
  } catch { /* the next event tries again */ }
}
