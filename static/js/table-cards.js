// Cards and melds for the Jokeren table: notation, names, sorting and the joker choices.
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

/** Code of a rank (1..14, 14 = high ace) and suit letter. */
export function codeOf(rank, suit) {
  return RANKS[(rank - 1) % 13] + suit;
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

function combinations(items, k) {
  if (k === 0) return [[]];
  const out = [];
  items.forEach((item, i) => {
    for (const rest of combinations(items.slice(i + 1), k - 1)) out.push([item, ...rest]);
  });
  return out;
}

/**
 * Every way the selected cards can lie as one new meld, as
 * `{kind, cards: [ids in table order], standsFor: [code | null per card]}` (table order as
 * the engine keeps it: a run low to high, a group in suit order c d h s).
 * A joker stands for one definite card (docs/rules.md §2): in a group a missing suit, in a
 * run its place. Only selections with jokers have more than one way. The first entry
 * is the proposal; an empty list means the cards are no meld (the server says why).
 */
export function meldOptions(ids, maxRun = 13) {
  const cards = ids.map(cardInfo);
  const naturals = cards.filter((c) => !c.joker);
  const jokers = cards.filter((c) => c.joker);
  const n = cards.length;
  if (n < 3 || naturals.length === 0) return [];
  const options = [];

  // Runs: one suit, distinct ranks, consecutive with the jokers filling the gaps.
  const suit = naturals[0].suit;
  if (n <= maxRun && naturals.every((c) => c.suit === suit)) {
    const ranks = naturals.map((c) => c.rank);
    if (new Set(ranks).size === ranks.length) {
      // Highest start first: a joker at the open end of a run extends it upwards.
      for (let start = 14 - n + 1; start >= 1; start -= 1) {
        const end = start + n - 1;
        const place = (r) => (r >= start && r <= end ? r : r === 1 && end === 14 ? 14 : null);
        const placed = ranks.map(place);
        if (placed.some((p) => p === null)) continue;
        const free = [];
        for (let r = start; r <= end; r += 1) if (!placed.includes(r)) free.push(r);
        let j = 0;
        let k = 0;
        const positions = cards.map((c) => (c.joker ? free[j++] : placed[k++]));
        const laid = ids
          .map((id, i) => ({ id, pos: positions[i], joker: cards[i].joker }))
          .sort((a, b) => a.pos - b.pos);
        options.push({
          kind: "run",
          aceHigh: placed.includes(14),
          cards: laid.map((x) => x.id),
          standsFor: laid.map((x) => (x.joker ? codeOf(x.pos, suit) : null)),
        });
      }
    }
  }

  // The engine's first free choice: a run with its ace low before one with it high;
  // within each, the gaps filled and then upwards (the highest start, listed first).
  const runs = options.splice(0).sort((a, b) => Number(a.aceHigh) - Number(b.aceHigh));

  // Groups: one rank, different suits, three or four cards.
  const groups = [];
  const rank = naturals[0].rank;
  if (n <= 4 && naturals.every((c) => c.rank === rank)) {
    const suits = naturals.map((c) => c.suit);
    if (new Set(suits).size === suits.length) {
      const missing = [...SUITS].filter((s) => !suits.includes(s));
      for (const chosen of combinations(missing, jokers.length)) {
        let j = 0;
        const laid = cards
          .map((c, i) => ({ id: ids[i], suit: c.joker ? chosen[j++] : c.suit, joker: c.joker }))
          .sort((a, b) => SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit));
        groups.push({
          kind: "group",
          cards: laid.map((x) => x.id),
          standsFor: laid.map((x) => (x.joker ? codeOf(rank, x.suit) : null)),
        });
      }
    }
  }
  // A lone natural card with jokers is a group first (as the engine reads it).
  return naturals.length === 1 && n <= 4 ? [...groups, ...runs] : [...runs, ...groups];
}

/** The (rank, suit) each card of a table meld stands for; the ace of a run high or low. */
export function meldRanks(meld) {
  const ranks = meld.cards.map((card, i) => {
    const sf = meld.stands_for ? meld.stands_for[i] : null;
    const info = sf ? cardInfo(sf) : cardInfo(card);
    return { rank: info.rank, suit: info.suit };
  });
  if (meld.kind === "run" && ranks.length > 1 && ranks[ranks.length - 1].rank === 1) {
    ranks[ranks.length - 1].rank = 14;
  }
  return ranks;
}

/**
 * The cards a joker laid off onto a table meld may stand for, as codes; the first is
 * the proposal. Group: a missing suit. Run: one beyond either end (upwards first).
 */
export function layOffJokerOptions(meld, maxRun = 13) {
  const ranks = meldRanks(meld);
  if (meld.kind === "group") {
    if (ranks.length >= 4) return [];
    const rank = ranks.find((r) => r.rank > 0).rank;
    const used = ranks.map((r) => r.suit);
    return [...SUITS].filter((s) => !used.includes(s)).map((s) => codeOf(rank, s));
  }
  if (ranks.length >= maxRun) return [];
  const suit = ranks[0].suit;
  const lo = ranks[0].rank;
  const hi = ranks[ranks.length - 1].rank;
  const out = [];
  if (hi + 1 <= 14 && !(hi + 1 === 14 && lo === 1)) out.push(codeOf(hi + 1, suit));
  if (lo - 1 >= 1 && !(lo - 1 === 1 && hi === 14)) out.push(codeOf(lo - 1, suit));
  return out;
}

/** Whether a table meld holds a joker (so "Joker wisselen" can apply to it). */
export function meldHasJoker(meld) {
  return meld.cards.some((c) => cardInfo(c).joker);
}

/** Whether a natural card (id or code) fits onto a table meld as it lies (the engine's
 *  `lay_off_options`, docs/rules.md §2): a group of fewer than four takes its rank in a suit it
 *  lacks; a run of fewer than 13 takes the card below its low end or above its high end
 *  (the ace above a king, below a two). */
export function fitsMeld(card, meld, maxRun = 13) {
  const info = cardInfo(card);
  if (info.joker) return layOffJokerOptions(meld, maxRun).length > 0;
  const ranks = meldRanks(meld);
  if (meld.kind === "group") {
    if (ranks.length >= 4) return false;
    const rank = ranks.find((r) => r.rank > 0).rank;
    return info.rank === rank && !ranks.some((r) => r.suit === info.suit);
  }
  if (ranks.length >= maxRun || ranks[0].suit !== info.suit) return false;
  const low = ranks[0].rank;
  const high = low + ranks.length - 1;
  return info.rank === low - 1 || (info.rank === 1 && high === 13) || info.rank === high + 1;
}

/** Whether a joker of the table meld stands for `card` (a natural card swaps for it). */
function jokerPlaces(card, meld) {
  const code = cardInfo(card).code;
  return meld.cards.some((c, j) => cardInfo(c).joker && meld.stands_for?.[j] && cardInfo(meld.stands_for[j]).code === code);
}

/**
 * Where the card `card` of the hand may go now, from the player's observation (`obs`:
 * hand, table, taken_from_open, first_cycle, may_lay_off), as the engine's
 * `legal_actions` lists it: `{layOff: [meld indices], swap: [meld indices]}`.
 * Laying off and swapping need the first cycle over and the player allowed to lay off
 * (come out, as the variant asks); a card may leave the hand only while another card
 * that may be discarded stays (not the card taken from the open pile, nor a copy of it):
 * a swap brings a joker, which counts unless the taken card was a joker.
 */
export function cardOptions(card, obs, maxRun = 13) {
  const none = { layOff: [], swap: [] };
  const table = obs.table ?? [];
  if (obs.first_cycle || obs.may_lay_off === false || !table.length) return none;
  const kind = (c) => cardInfo(c).code;
  const taken = obs.taken_from_open;
  const takenKind = taken === null || taken === undefined ? null : kind(taken);
  const free = (obs.hand ?? []).filter((c) => kind(c) !== takenKind).length;
  const left = free - (kind(card) !== takenKind ? 1 : 0);
  const layOff = left >= 1 ? table.flatMap((meld, i) => (fitsMeld(card, meld, maxRun) ? [i] : [])) : [];
  const jokerFree = takenKind !== JOKER ? 1 : 0;
  const swap =
    !cardInfo(card).joker && left + jokerFree >= 1
      ? table.flatMap((meld, i) => (jokerPlaces(card, meld) ? [i] : []))
      : [];
  return { layOff, swap };
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
