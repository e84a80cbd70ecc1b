// Cards for the card tables: notation, names and sorting (display only: the rules, what
// fits where and how a selection reads as a meld, are the engine's; the table reads them
// from the observation's legal_actions and the meld-readings API, docs/api.md).
//
// Card ids follow engine/cards.py: per deck the suits c d h s, each A..K, then two
// jokers; ids 0..53 are the first deck, 54..107 the second. Codes are "7h", "Td", "**".
// Pure functions only (no DOM), so they are easy to reason about and to test; the one
// exception is `cardFace` at the end, a card's face as an element for any page.

import { cardPips, h } from "./table-common.js";

export const SUITS = "cdhs";
export const RANKS = "A23456789TJQK";
export const JOKER = "**";
export const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };
export const RED_SUITS = new Set(["d", "h"]);

/** Rank (1..13, 0 for a joker), suit letter ("" for a joker) and code of an id or a code. */
export function cardInfo(card) {
  if (typeof card === "number") {
    const local = card % 54;
    if (local >= 52) return { id: card, rank: 0, suit: "", code: JOKER, joker: true };
    const suit = SUITS[Math.floor(local / 13)];
    const rank = (local % 13) + 1;
    return { id: card, rank, suit, code: RANKS[rank - 1] + suit, joker: false };
  }
  const code = String(card).trim();
  if (code === JOKER) return { id: null, rank: 0, suit: "", code: JOKER, joker: true };
  const text = code.length === 3 && code.startsWith("10") ? "T" + code[2] : code;
  const rank = RANKS.indexOf(text[0].toUpperCase()) + 1;
  const suit = text[1].toLowerCase();
  return { id: null, rank, suit, code: RANKS[rank - 1] + suit, joker: false };
}

/** Text of a rank as printed on a card ("10", and the page's letters for J Q K A). */
export function rankLabel(rank, letters) {
  if (rank === 0) return "";
  return letters[(rank - 1) % 13];
}

/**
 * Name of a card for a title attribute, e.g. "harten 7", "schoppen boer", "joker".
 * `names` = {ranks: [13 names], suits: [4 names, order c d h s], joker, format: "{suit} {rank}"}.
 */
export function cardName(card, names) {
  const info = cardInfo(card);
  if (info.joker) return names.joker;
  const suit = names.suits[SUITS.indexOf(info.suit)];
  const rank = names.ranks[info.rank - 1];
  return names.format.replace("{suit}", suit).replace("{rank}", rank);
}

/**
 * Short label of a code: the suit's symbol and the rank (the page's rank letters) in the
 * page language's order, `format` from the server ("{suit}{rank}" in Dutch: "♥7", "♣B";
 * "{rank}{suit}" in English: "7♥", "J♣"), as engine.cards.card_label writes it.
 */
export function shortLabel(code, letters, format = "{rank}{suit}") {
  const info = cardInfo(code);
  if (info.joker) return "★";
  return format.replace("{rank}", rankLabel(info.rank, letters)).replace("{suit}", SUIT_SYMBOLS[info.suit]);
}

// Display order: ace high, suits alternating black and red.
const SUIT_ORDER = { s: 0, h: 1, c: 2, d: 3 };
const highRank = (rank) => (rank === 1 ? 14 : rank);

/** The hand sorted by suit (then rank) or by rank (then suit); jokers last. */
export function sortHand(ids, mode) {
  const key = (id) => {
    const info = cardInfo(id);
    if (info.joker) return [1, 0, 0, id];
    const r = highRank(info.rank);
    const s = SUIT_ORDER[info.suit];
    return mode === "rank" ? [0, r, s, id] : [0, s, r, id];
  };
  return [...ids].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

// --- Klaverjas hands (card codes "7h", "Jh", ...: ranks 7 8 9 T J Q K A) -------------------

const KJ_RANKS = "789TJQKA";
// Strength per rank index (7 8 9 T J Q K A), higher wins (engine/klaverjas/rules.py).
const KJ_TRUMP_STRENGTH = [0, 1, 6, 4, 7, 2, 3, 5];
const KJ_PLAIN_STRENGTH = [0, 1, 2, 6, 3, 4, 5, 7];

/** The Klaverjas suits in display order: trump first, then alternating black and red. */
export function klaverjasSuitOrder(trump) {
  const base = ["s", "h", "c", "d"];
  if (!trump) return base;
  const red = RED_SUITS.has(trump);
  const opposite = base.filter((s) => s !== trump && RED_SUITS.has(s) !== red);
  const same = base.filter((s) => s !== trump && RED_SUITS.has(s) === red);
  return [trump, opposite[0], ...same, ...opposite.slice(1)];
}

/** A Klaverjas hand of codes sorted as the table sorts it: by suit (trump first), within
 * a suit from high to low (a trump by trump strength). */
export function sortKlaverjasHand(codes, trump) {
  const order = klaverjasSuitOrder(trump);
  const strength = (c) => (c[1] === trump ? KJ_TRUMP_STRENGTH : KJ_PLAIN_STRENGTH)[KJ_RANKS.indexOf(c[0])];
  return [...codes].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || strength(b) - strength(a));
}

// --- A card's face on a page (DOM) ---------------------------------------------------------

/**
 * A card's face as an element: `prefix` "jk" (Jokeren) or "kj" (Klaverjas) picks the
 * table's CSS (table-common.css and its own); `names` as for `cardName`, with `letters`
 * (the page's rank letters). `tag` "button" for a hand to play from, "span" elsewhere;
 * `standsFor` the code a joker stands for; `trump` marks a trump card.
 */
export function cardFace(
  card,
  names,
  { prefix = "jk", tag = "span", attrs = {}, small = false, standsFor = null, trump = null } = {},
) {
  const info = cardInfo(card);
  const name = cardName(card, names);
  const title = standsFor ? `${name} (${cardName(standsFor, names)})` : name;
  const classes = [`${prefix}-card`];
  if (small) classes.push(`${prefix}-card-small`);
  if (info.joker) classes.push(`${prefix}-joker`);
  else classes.push(RED_SUITS.has(info.suit) ? `${prefix}-red` : `${prefix}-black`);
  if (trump && info.suit === trump) classes.push("is-trump");
  const a11y = tag === "span" ? { role: "img", "aria-label": title } : { "aria-label": title };
  const el = h(tag, { class: classes.join(" "), title, "data-code": info.code, ...a11y, ...attrs });
  if (info.joker) {
    el.append(
      h("span", { class: `${prefix}-corner`, "aria-hidden": "true" }, h("span", { text: "★" })),
      h("span", { class: `${prefix}-pip`, "aria-hidden": "true", text: "★" }),
      h("span", { class: `${prefix}-joker-word`, "aria-hidden": "true", text: "JOKER" }),
    );
    if (standsFor) {
      el.append(h("span", { class: `${prefix}-stands`, "aria-hidden": "true", text: shortLabel(standsFor, names.letters) }));
    }
  } else {
    el.append(...cardPips(prefix, rankLabel(info.rank, names.letters), SUIT_SYMBOLS[info.suit]));
  }
  return el;
}
