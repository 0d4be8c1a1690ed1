// Deep links: each view of the lobby has its address in the URL's hash, so a shared link opens
// the same view and the browser's Back goes back a view:
//   #/                        All tables
//   #/good-roads              Good Roads
//   #/table/ID                a table's view (over All tables)
//   #/good-roads/table/ID     a table's view over Good Roads
// Every change of view goes through the hash: go() and the Back button alike end in `onRoute`.

export function routeOf(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  const route = { tab: "all", table: null };
  if (parts[0] === "good-roads") {
    route.tab = "good";
    parts.shift();
  }
  if (parts[0] === "table" && parts[1]) route.table = decodeURIComponent(parts[1]);
  return route;
}

export function hashOf({ tab, table }) {
  const parts = [];
  if (tab === "good") parts.push("good-roads");
  if (table) parts.push("table", encodeURIComponent(table));
  return `#/${parts.join("/")}`;
}

export class Router {
  constructor(onRoute) {
    this.onRoute = onRoute;
    this.shown = this.route();
    // Whether the history holds, behind the table view shown, the view it was opened from: then
    // closing it is Back. A table view the page was opened at (a shared link) has none behind.
    this.backToTab = false;
    addEventListener("hashchange", () => {
      const route = this.route();
      if (route.table && !this.shown.table) this.backToTab = true; // opened (or Forward)
      if (!route.table) this.backToTab = false;
      this.shown = route;
      this.onRoute(route);
    });
  }

  route() {
    return routeOf(location.hash);
  }

  go(route) {
    const hash = hashOf(route);
    if (hash === (location.hash || "#/")) return;
    // From one table's view to another's: one entry for the table view, whichever it shows.
    if (route.table && this.shown.table) location.replace(hash);
    else location.hash = hash;
  }

  // Leave the table view: Back to the view it was opened from, or, for a table view the page
  // was opened at, to its tab without leaving the page.
  closeTable() {
    const { tab, table } = this.route();
    if (!table) return;
    if (this.backToTab) history.back();
    else location.replace(hashOf({ tab, table: null }));
  }
}
