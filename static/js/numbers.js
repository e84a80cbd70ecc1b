// Numbers as people read them, in the page's language (<html lang>): one format for a
// result everywhere, as the server writes it (tournaments/numbers.py): the game's decimals
// (Jokeren ONE, Klaverjassen none) and the language's decimal sign, Dutch "79,3", English
// "79.3". Used for every number the
// browser writes itself (the table's final result; the live leaderboard's rows come
// rendered from the server).

/** The page's language for numbers: "en" gives English (British) digits, else Dutch. */
const locale = (lang) => (String(lang || document.documentElement.lang || "nl").startsWith("en") ? "en-GB" : "nl-NL");

const formatters = new Map();
function formatter(lang, decimals) {
  const key = `${locale(lang)}:${decimals}`;
  if (!formatters.has(key)) {
    formatters.set(key, new Intl.NumberFormat(locale(lang), { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false, signDisplay: "negative" }));
  }
  return formatters.get(key);
}

/** Decimals of a result wherever a person reads it (tournaments/numbers.py RESULT_DECIMALS). */
export const RESULT_DECIMALS = 1;

/** A result: "79,3" / "79.3" ("123" with `decimals` 0, Klaverjassen's whole points: the
 * game's RESULT_DECIMALS, the table's data-result-decimals); "–" for null. */
export function formatResult(value, lang, decimals = RESULT_DECIMALS) {
  if (value === null || value === undefined) return "–";
  return formatter(lang, decimals).format(value);
}
