// What a player chose, remembered in this browser (localStorage): the language, the road shown,
// the sorting, the theme, the patterns watched, the favourite tables.
export const prefs = {
  get(key, fallback) {
    try {
      return JSON.parse(localStorage.getItem(key)) ?? fallback;
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch { /* private browsing: not remembered, still shown */ }
  },
};
