// The Jokeren table's moves in words: a card as a short label ("♥7", "joker (♠B)") and each
// entry of the observation's public log (engine/jokeren/state.py) as a line of the list of
// moves, in the page's language (the strings `T` from the template). Only wording: what a
// move did is the engine's log entry.

import { fmt } from "./table-common.js";
import { cardInfo, shortLabel } from "./table-cards.js";

/**
 * The words of the table: `T` the page's strings, `names` the card names (`cardNames`),
 * `seatName(seat)` a seat's name. Returns `label(card, standsFor)`, `describe(entry)` and
 * `logLines(obs)` (the round's moves so far, `{seat, text}`).
 */
export function moveWords({ T, names, seatName }) {
  /** A card (id or code) as a short label: "7♥", "B♠", "joker"; a joker on the table with its card. */
  function label(card, standsFor = null) {
    if (!cardInfo(card).joker) return shortLabel(cardInfo(card).code, names.letters, names.short);
    return standsFor ? `${T.joker} (${shortLabel(standsFor, names.letters, names.short)})` : T.joker;
  }

  /** The engine's public log entry in words (the page's language). */
  function describe(entry) {
    const name = seatName(entry.seat);
    if (entry.type === "complete") return fmt(T.log_complete, { cards: (entry.cards || []).map((c) => label(c)).join(" ") });
    if (entry.type === "reshuffle") return T.log_reshuffle;
    if (entry.type !== "action") return "";
    const a = entry.action || {};
    switch (a.type) {
      case "draw":
        return a.source === "open" && entry.card !== undefined
          ? fmt(T.log_draw_open, { name, card: label(entry.card) })
          : fmt(T.log_draw_stock, { name });
      case "lay_melds":
        return fmt(T.log_lay, {
          name,
          melds: (a.melds || []).map((m) => m.cards.map((c, i) => label(c, m.stands_for?.[i] ?? null)).join(" ")).join(" · "),
        });
      case "lay_off":
        return fmt(T.log_lay_off, { name, card: label(a.card, a.stands_for ?? null) });
      case "swap_joker":
        return fmt(T.log_swap, { name, card: label(a.card) });
      case "discard":
        return fmt(T.log_discard, { name, card: label(a.card) });
      default:
        return "";
    }
  }

  /** The current round's moves, from the observation's public log. */
  function logLines(obs) {
    return (obs.log || [])
      .map((entry) => ({ seat: entry.seat, text: describe(entry) }))
      .filter((line) => line.text);
  }

  return { label, describe, logLines };
}
