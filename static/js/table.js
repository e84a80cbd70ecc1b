// The Jokeren card table: renders the entrant's view of a game and plays moves through the
// JSON API (/api/games/<id>/, its moves/ and meld-readings/: docs/api.md). It keeps no rule:
// the observation's legal_actions and the engine's readings of a selection say what fits.
//
// The page renders from the GET payload embedded in the template ("initial-state"), so
// a reload resumes exactly. A move is one POST; its `events` (the entrant's own move,
// then every bot move, and "round_over" markers) are shown one after another, each
// with the observation after it. An illegal move (400) shows the server's reason and
// changes nothing; a stale one (409) reloads the state from GET.

import {
  announce,
  cardPips,
  changeAnnouncer,
  fmt,
  focusKeeper,
  formatNumber,
  fourColourToggle,
  h,
  handKeys,
  loadStored,
  markTable,
  pageLanguage,
  readJson,
  roundLabel,
  rovingHand,
  saveStored,
  showFinal,
  showLog,
} from "./table-common.js";
import { moveSender, practiceHelp } from "./table-moves.js";
import {
  cardInfo,
  cardName,
  rankLabel,
  shortLabel,
  sortHand,
  SUIT_SYMBOLS,
  RED_SUITS,
} from "./table-cards.js";

const root = document.getElementById("jk-table");
const T = readJson("table-strings");
const LANG = pageLanguage(root);
// Pause between two shown moves; a page (or a test) may set window.JK_TABLE_DELAY first.
const DELAY = Number.isFinite(window.JK_TABLE_DELAY) ? window.JK_TABLE_DELAY : 550;

const NAMES = {
  letters: T.rank_letters.split(","),
  ranks: T.rank_names.split(","),
  suits: T.suit_names.split(","),
  joker: T.joker,
  format: T.card_name,
  short: T.card_short,
};

const $ = (testid) => root.querySelector(`[data-testid="${testid}"]`);
const cardsText = (n) => (n === 1 ? T.one_card : fmt(T.n_cards, { n }));
const number = (x) => formatNumber(x, LANG);

const state = {
  game: readJson("initial-state"),
  obs: null,
  selected: new Set(),
  staged: [], // melds collected with "Setje toevoegen": {cards, standsFor, kind}
  choice: 0, // chosen interpretation (joker choice) of the current selection
  readings: new Map(), // the engine's readings of a selection as a new meld, by its ids
  sortMode: savedSortMode(),
  mode: null, // "lay_off" | "swap": waiting for a click on a table meld
  busy: false,
  newCards: new Set(),
  drawn: null, // the card drawn this turn (marked until the turn ends)
  order: null, // the hand in the player's own order (card ids), or null: sorted
  focusCard: null, // the hand's card that takes the focus (the keyboard's place in the hand)
  hint: null, // a practice game's tip: {seq, text}, shown while the game is at that seq
};
state.obs = state.game.observation;

// --- Reading the observation (its JSON: engine/jokeren/state.py, module text) ---------

const seat = () => state.game.seat ?? 0;
const seatName = (s) => (state.game.seat_names || [])[s] ?? `#${s}`;
const hand = (o = state.obs) => o.hand ?? [];
const tableMelds = (o = state.obs) => o.table ?? [];
const stockCount = (o = state.obs) => o.stock_count ?? 0;
const handSizes = (o = state.obs) => o.hand_counts ?? [];
const phase = (o = state.obs) => o.phase;
const currentPlayer = (o = state.obs) => (o.is_terminal ? null : o.current_player);
const openTop = (o = state.obs) => o.open_top ?? null;
const openCount = (o = state.obs) => (o.open_pile ?? []).length;
const playing = () => state.game.status === "playing";
// `your_turn` is false when the tournament's window has closed, even on South's turn.
const myTurn = () => playing() && currentPlayer() === seat() && state.game.your_turn !== false;
const canAct = () => myTurn() && !state.busy;

// --- Kept in the browser: the hand's own order (per game and round), the drawn card -----

const gameKey = () => state.game.id ?? root.dataset.apiUrl;
const orderKey = () => `jk-order-${gameKey()}-${roundIndex()}`;
const drawnKey = () => `jk-drawn-${gameKey()}`;

/** The card drawn this turn, while the turn lasts: South to play, the card still in hand. */
function drawnCard() {
  if (!myTurn() || phase() !== "play") return null;
  const taken = state.obs.taken_from_open;
  const card = state.drawn ?? (taken === null || taken === undefined ? null : taken);
  return hand().includes(card) ? card : null;
}

/** The drawn card kept for a reload: the round and the turn it belongs to. */
function loadDrawn() {
  const kept = loadStored(drawnKey(), null);
  if (kept && kept.round === roundIndex() && kept.turn === state.obs.turn) return kept.card;
  return null;
}

function keepDrawn(card) {
  state.drawn = card;
  saveStored(drawnKey(), card === null ? null : { round: roundIndex(), turn: state.obs.turn, card });
}

// --- Cards on the page ---------------------------------------------------------------

/** A card face; `tag` "button" for the hand, "span" elsewhere. */
function cardFace(card, { tag = "span", standsFor = null, attrs = {}, small = false, note = "" } = {}) {
  const info = cardInfo(card);
  const name = cardName(card, NAMES);
  const title = (standsFor ? `${name} (${cardName(standsFor, NAMES)})` : name) + (note ? `, ${note}` : "");
  const classes = ["jk-card"];
  if (small) classes.push("jk-card-small");
  if (info.joker) classes.push("jk-joker");
  else classes.push(RED_SUITS.has(info.suit) ? "jk-red" : "jk-black");
  const a11y = tag === "span" ? { role: "img", "aria-label": title } : { "aria-label": title };
  const el = h(tag, { class: classes.join(" "), title, "data-code": info.code, ...a11y, ...attrs });
  if (info.joker) {
    el.append(
      h("span", { class: "jk-corner", "aria-hidden": "true" }, h("span", { "data-glyph": "★" })),
      h("span", { class: "jk-pip", "aria-hidden": "true", "data-glyph": "★" }),
      h("span", { class: "jk-joker-word", "aria-hidden": "true", "data-glyph": "JOKER" }),
    );
    if (standsFor) {
      el.append(h("span", { class: "jk-stands", "aria-hidden": "true", "data-glyph": shortLabel(standsFor, NAMES.letters, NAMES.short) }));
    }
  } else {
    el.append(...cardPips("jk", rankLabel(info.rank, NAMES.letters), SUIT_SYMBOLS[info.suit]));
  }
  return el;
}

const cardBack = (attrs = {}) => h("span", { class: "jk-back", "aria-hidden": "true", ...attrs });

// --- Rendering ------------------------------------------------------------------------

function render() {
  const g = state.game;
  markTable(root, { busy: state.busy, phase: phase() ?? "", yourTurn: myTurn(), seq: g.seq, status: g.status, round: roundIndex() });
  renderSeats();
  renderPiles();
  renderMelds();
  renderStatus();
  renderStaged();
  renderHand();
  renderActions();
  renderInfo();
  renderScores();
  renderLog();
  renderPileView();
  announceChanges($("status").textContent, String(roundIndex()), logLines().map((line) => line.text));
  restoreFocus();
}

function roundIndex() {
  return state.obs.round_index ?? state.game.round ?? 0;
}

/** Players at the table: 3 or 4 (seed 001: "met 3 of 4 personen aan een tafel"). */
const numSeats = () => (state.game.seat_names || []).length || 4;

/** The box of a seat on the felt. At a table of three the bots sit West and East (seats 1
 *  and 2, named so by the server) and the North box stays empty. */
const seatBox = (s) => $(numSeats() === 3 && s === 2 ? "seat-3" : `seat-${s}`);

function renderSeats() {
  const sizes = handSizes();
  const north = $("seat-2");
  if (north) north.hidden = numSeats() === 3;
  for (let s = 1; s < numSeats(); s += 1) {
    const box = seatBox(s);
    if (!box) continue;
    box.dataset.seat = String(s);
    const n = sizes[s] ?? 0;
    const turn = playing() && currentPlayer() === s;
    box.classList.toggle("is-turn", turn);
    box.replaceChildren(
      h(
        "div",
        { class: "jk-seat-label" },
        h("span", { class: "jk-seat-name", text: seatName(s) }),
        h("span", { class: "jk-count", "data-testid": `hand-size-${s}`, text: cardsText(n) }),
      ),
      h("div", { class: "jk-backs", title: fmt(T.hand_size, { n }) }, Array.from({ length: n }, () => cardBack())),
    );
  }
}

function renderPiles() {
  const canDraw = canAct() && phase() === "draw";
  const top = openTop();
  const stock = h(
    "button",
    {
      type: "button",
      class: "jk-pile jk-stock",
      "data-testid": "stock",
      disabled: !canDraw || stockCount() === 0,
      "aria-label": `${T.stock} ${cardsText(stockCount())}`,
      onclick: () => send({ type: "draw", source: "stock" }),
    },
    stockCount() > 0 ? cardBack() : h("span", { class: "jk-pile-empty", "data-glyph": T.empty }),
    h("span", { class: "jk-pile-label" }, h("span", { text: T.stock }), " ", h("span", { class: "jk-count", "data-testid": "stock-count", text: String(stockCount()) })),
  );
  const open = h(
    "button",
    {
      type: "button",
      class: "jk-pile jk-open",
      "data-testid": "open-pile",
      disabled: !canDraw || top === null,
      "aria-label": top === null ? `${T.open_pile} ${cardsText(0)}` : `${T.open_pile} ${cardsText(openCount())}: ${cardName(top, NAMES)}`,
      onclick: () => send({ type: "draw", source: "open" }),
    },
    top === null ? h("span", { class: "jk-pile-empty", "data-glyph": T.empty }) : cardFace(top, { attrs: { "data-testid": "open-top" } }),
    h("span", { class: "jk-pile-label" }, h("span", { text: T.open_pile }), " ", h("span", { class: "jk-count", text: String(openCount()) })),
  );
  const discards = h("button", {
    type: "button",
    class: "jk-btn jk-btn-ghost jk-discards-btn",
    "data-testid": "btn-discards",
    "aria-haspopup": "dialog",
    "aria-keyshortcuts": "O",
    title: T.discards_title,
    onclick: () => openPileView(),
  }, T.discards);
  $("piles").replaceChildren(stock, open, discards);
}

function renderMelds() {
  const melds = tableMelds();
  const box = $("melds");
  box.classList.toggle("is-picking", state.mode !== null);
  if (!melds.length) {
    box.replaceChildren(h("p", { class: "jk-empty", text: T.no_melds }));
    return;
  }
  const picks = state.mode !== null && canAct() ? targets(state.mode === "swap" ? "swap_joker" : "lay_off") : [];
  box.replaceChildren(
    ...melds.map((meld, i) => {
      const pickable = picks.includes(i);
      const label = `${T[meld.kind] ?? meld.kind} ${meldOwner(meld.owner)}`;
      return h(
        "button",
        {
          type: "button",
          class: `jk-meld${pickable ? " is-pickable" : ""}`,
          "data-testid": "meld",
          "data-index": i,
          "data-owner": meld.owner,
          "data-codes": meld.cards.map((c) => cardInfo(c).code).join(" "),
          "data-stands": meld.cards.map((c, j) => meld.stands_for?.[j] ?? "-").join(" "),
          "aria-label": `${label}: ${meld.cards.map((c, j) => meldCardName(meld, c, j)).join(", ")}`,
          disabled: !pickable,
          onclick: () => pickMeld(i),
        },
        h("span", { class: "jk-meld-cards" }, meld.cards.map((c, j) => cardFace(c, { small: true, standsFor: meld.stands_for?.[j] ?? null }))),
        h("span", { class: "jk-meld-owner", text: meldOwner(meld.owner) }),
      );
    }),
  );
}

/** Whose meld it is: "van jou" / "yours" for the player's own seat (never "van Jij"),
 * "van West" / "by West" for another. */
function meldOwner(owner) {
  return owner === seat() ? T.laid_by_you : fmt(T.laid_by, { name: seatName(owner) });
}

function meldCardName(meld, card, j) {
  const sf = meld.stands_for?.[j];
  return sf ? fmt(T.joker_for, { card: cardName(sf, NAMES) }) : cardName(card, NAMES);
}

function renderStatus() {
  const el = $("status");
  let text;
  if (!playing()) text = T.game_over;
  else if (state.mode === "lay_off") text = T.pick_meld_lay_off;
  else if (state.mode === "swap") text = T.pick_meld_swap;
  else if (myTurn()) {
    text = phase() === "draw" ? T.turn_draw : T.turn_play;
    if (state.obs.first_cycle) text += ` ${T.first_cycle}`;
    else if (state.obs.needs_opening && state.obs.opening !== "none") text += ` ${T.needs_opening}`;
  }
  else if (currentPlayer() !== null && currentPlayer() !== undefined) text = fmt(T.bot_turn, { name: seatName(currentPlayer()) });
  else text = T.waiting;
  el.textContent = text;
  el.classList.toggle("is-yours", myTurn());
}

const stagedIds = () => new Set(state.staged.flatMap((m) => m.cards));

function renderStaged() {
  const box = $("staged");
  box.hidden = state.staged.length === 0;
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h("span", { class: "jk-staged-title", text: T.staged }),
    ...state.staged.map((m, i) =>
      h("span", { class: "jk-staged-meld", "data-testid": "staged-meld", "data-index": i },
        m.cards.map((c, j) => cardFace(c, { small: true, standsFor: m.standsFor[j] }))),
    ),
  );
}

function renderHand() {
  const box = $("hand");
  box.hidden = !playing() && Boolean(state.game.result);
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const staged = stagedIds();
  const cards = handOrder().filter((c) => !staged.has(c));
  const drawn = drawnCard();
  box.classList.toggle("is-crowded", cards.length > 9);
  box.replaceChildren(
    ...cards.map((c) => {
      const selected = state.selected.has(c);
      const el = cardFace(c, {
        tag: "button",
        note: c === drawn ? T.drawn : "",
        attrs: {
          type: "button",
          "data-testid": "hand-card",
          "data-card": c,
          "data-drawn": c === drawn ? "true" : null,
          "aria-pressed": String(selected),
          "aria-disabled": state.busy ? "true" : null,
          onclick: () => toggleCard(c),
          onpointerdown: (e) => startDrag(e, c),
        },
      });
      el.classList.toggle("is-selected", selected);
      el.classList.toggle("is-new", state.newCards.has(c));
      el.classList.toggle("is-drawn", c === drawn);
      return el;
    }),
  );
  state.newCards = new Set(); // a drawn card arrives once, not at every later render
  rovingHand(box, state.focusCard ?? drawn);
}

/** The hand in the order shown: the player's own order if they arranged it (cards that
 *  came in since at the end), else sorted by suit or by rank. */
function handOrder() {
  const cards = hand();
  if (!state.order) return sortHand(cards, state.sortMode);
  const present = new Set(cards);
  const kept = state.order.filter((c) => present.has(c));
  const known = new Set(kept);
  const order = [...kept, ...cards.filter((c) => !known.has(c))];
  if (order.length !== state.order.length || order.some((c, i) => c !== state.order[i])) {
    state.order = order;
    saveStored(orderKey(), order);
  }
  return order;
}

/** Put `card` at `place` among the cards the hand shows (without it; the rest keep their
 *  order), and keep the order in the browser for this game's round. */
function arrange(card, place) {
  const staged = stagedIds();
  const order = handOrder().filter((c) => c !== card);
  const before = order.filter((c) => !staged.has(c))[place]; // none: last
  order.splice(before === undefined ? order.length : order.indexOf(before), 0, card);
  state.order = order;
  saveStored(orderKey(), order);
  state.focusCard = card;
  render();
}

/** The one selected card's legal actions of `type` (the observation lists every one of the
 *  player to move but new melds, as the engine allows them, in its order). */
const selectedActions = (type) =>
  (state.obs.legal_actions ?? []).filter((a) => a.type === type && state.selected.size === 1 && state.selected.has(a.card));
/** The melds (indices) the one selected card may go onto by `type` ("lay_off", "swap_joker"). */
const targets = (type) => [...new Set(selectedActions(type).map((a) => a.meld))];
const selectionKey = () => [...state.selected].sort((a, b) => a - b).join(",");

/** The engine's readings of a selection with a joker as a new meld (its joker choices, its
 *  own first), asked from the server once per selection; `[]` until the answer is in. */
function selectionOptions() {
  const key = selectionKey();
  if (state.selected.size < 3 || ![...state.selected].some((c) => cardInfo(c).joker)) return [];
  if (!state.readings.has(key)) {
    state.readings.set(key, []);
    fetch(`${root.dataset.readingsUrl}?cards=${key}`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then(({ readings }) => { state.readings.set(key, readings); if (selectionKey() === key) render(); })
      .catch(() => state.readings.delete(key)); // asked again later; the engine chooses meanwhile
  }
  return state.readings.get(key);
}

function button(testid, text, onclick, extra = {}) {
  return h("button", { type: "button", class: "jk-btn", "data-testid": testid, onclick, ...extra }, text);
}

function renderActions() {
  const box = $("actions");
  const items = [];
  const sortText = state.sortMode === "suit" ? T.sorted_by_suit : T.sorted_by_rank;
  const orderText = state.order ? T.own_order : sortText;
  if (playing()) {
    items.push(button("btn-sort", T.sort, toggleSort, { class: "jk-btn jk-btn-ghost", title: orderText, "aria-label": `${T.sort} (${orderText})`, "aria-describedby": "jk-arrange-hint" }));
    items.push(h("span", { id: "jk-arrange-hint", class: "visually-hidden", text: T.arrange_hint }));
  }
  if (canAct() && phase() === "play") {
    const n = state.selected.size;
    if (state.mode !== null) {
      items.push(button("btn-cancel", T.cancel, cancelMode, { class: "jk-btn jk-btn-ghost" }));
    } else {
      const mayMeld = state.obs.may_meld !== false;
      if (n >= 3 && mayMeld) {
        const options = selectionOptions();
        if (options.length > 1) items.push(jokerChoice(options));
        items.push(button("btn-lay", T.lay, layDown, { class: "jk-btn jk-btn-primary" }));
        items.push(button("btn-stage", T.stage, stageSelection));
      }
      if (state.staged.length && mayMeld) {
        items.push(button("btn-lay-staged", `${T.lay_staged} (${state.staged.length})`, layStaged, { class: "jk-btn jk-btn-primary" }));
        items.push(button("btn-unstage", T.unstage, unstage, { class: "jk-btn jk-btn-ghost" }));
      }
      if (targets("lay_off").length) items.push(button("btn-lay-off", T.lay_off, () => enterMode("lay_off")));
      if (targets("swap_joker").length) items.push(button("btn-swap", T.swap, () => enterMode("swap")));
      const discard = state.staged.length ? null : selectedActions("discard")[0];
      if (discard) items.push(button("btn-discard", T.discard, () => send(discard), { class: "jk-btn jk-btn-danger" }));
    }
  }
  if (canAct() && phase() === "play" && state.selected.size === 0 && !state.staged.length) {
    items.push(h("span", { class: "jk-hint", text: T.select_hint }));
  }
  items.push(...practiceItems());
  box.replaceChildren(...items);
}

function optionLabel(option) {
  const cards = option.cards
    .map((c, i) => (option.stands_for[i] ? `[${shortLabel(option.stands_for[i], NAMES.letters, NAMES.short)}]` : shortLabel(cardInfo(c).code, NAMES.letters, NAMES.short)))
    .join(" ");
  return `${T[option.kind]}: ${cards}`;
}

function jokerChoice(options) {
  if (state.choice >= options.length) state.choice = 0;
  const select = h(
    "select",
    { "data-testid": "joker-choice", id: "jk-joker-choice", onchange: (e) => { state.choice = Number(e.target.value); } },
    options.map((o, i) => h("option", { value: i, selected: i === state.choice }, optionLabel(o))),
  );
  return h("label", { class: "jk-choice", for: "jk-joker-choice" }, h("span", { text: T.joker_is }), select);
}

function renderInfo() {
  const g = state.game;
  const o = state.obs;
  const variant = g.variant || {};
  const parts = [
    h("p", { class: "jk-round", "data-testid": "round-label", text: roundLabel(T, g, roundIndex()) }),
  ];
  if (g.tournament?.name) parts.push(h("p", { class: "jk-tournament", text: g.tournament.name }));
  const title = variant[`title_${LANG}`] ?? variant.title_nl ?? g.variant_name;
  if (title) parts.push(h("p", { class: "jk-variant", text: title }));
  const opening = o.opening ?? variant.opening;
  if (opening === "contract" && o.contract) {
    parts.push(h("p", { class: "jk-contract", "data-testid": "contract" }, h("strong", { text: `${T.contract}: ` }), o.contract[`description_${LANG}`] ?? o.contract.description_nl ?? ""));
  } else if (opening === "points") {
    parts.push(h("p", { class: "jk-contract", "data-testid": "contract" }, h("strong", { text: `${T.opening}: ` }), fmt(T.opening_points, { points: o.opening_points ?? variant.opening_points })));
  }
  if (g.bot_finished) parts.push(h("p", { class: "jk-note", text: T.bot_finished }));
  $("round-info").replaceChildren(...parts);
}

/** The score panel's lines: each round and, as on the score sheet of seed 001, a subtotal
 *  of the part so far after every `subtotal_after` rounds and, in a game of several parts
 *  ("2 ronden van 10"), each part's total at its end. */
function scoreLines(rows) {
  const v = state.game.variant || {};
  const rounds = state.game.rounds || rows.length;
  const size = v.part_rounds || rounds;
  const every = v.subtotal_after || 0;
  const out = [];
  let running = [];
  rows.forEach((row, r) => {
    const i = (r % size) + 1;
    if (i === 1) running = row.map(() => 0);
    running = running.map((t, s) => t + row[s]);
    out.push({ cls: "", label: String(r + 1), cells: row });
    if (every && i % every === 0 && i < size) out.push({ cls: "jk-subtotal", label: fmt(T.subtotal_after, { n: r + 1 }), cells: running });
    if (size < rounds && (i === size || r === rounds - 1)) out.push({ cls: "jk-part-total", label: fmt(T.part_total, { n: Math.floor(r / size) + 1 }), cells: running });
  });
  return out;
}

function scoreTable(rows, totals) {
  const seats = (state.game.seat_names || []).map((_, s) => s);
  return h(
    "table",
    { class: "jk-score-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: T.round }), seats.map((s) => h("th", { scope: "col", text: seatName(s) })))),
    h("tbody", {}, scoreLines(rows).map((line) => h("tr", { class: line.cls, "data-testid": line.cls || null }, h("th", { scope: "row", text: line.label }), line.cells.map((p) => h("td", { text: String(p) }))))),
    totals ? h("tfoot", {}, h("tr", {}, h("th", { scope: "row", text: T.total }), totals.map((p) => h("td", { text: String(p) })))) : null,
  );
}

function renderScores() {
  const box = $("scores");
  box.replaceChildren(scoreTable(state.game.round_scores || [], state.game.totals || []));
}

/** A card (id or code) as a short label: "7♥", "B♠", "joker"; a joker on the table with its card. */
function label(card, standsFor = null) {
  if (!cardInfo(card).joker) return shortLabel(cardInfo(card).code, NAMES.letters, NAMES.short);
  return standsFor ? `${T.joker} (${shortLabel(standsFor, NAMES.letters, NAMES.short)})` : T.joker;
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
function logLines() {
  return (state.obs.log || [])
    .map((entry) => ({ seat: entry.seat, text: describe(entry) }))
    .filter((line) => line.text);
}

/** The moves list: a new round starts a new list. */
function renderLog() {
  const lines = logLines().map((line) => ({ text: line.text, cls: line.seat === seat() ? "is-yours" : "" }));
  showLog($("log"), String(roundIndex()), lines);
}

function renderFinal() {
  showFinal(root, "jk", state.game, T, (res) => [
    [T.your_total, "final-total", String(res.total)],
    [T.opp_average, "final-opp", number(res.opponents_average)],
    [T.your_result, "final-result", number(res.result)],
    [T.rank, "final-rank", res.rank ?? "–"],
  ]);
}

// --- Interaction -----------------------------------------------------------------------

function toggleCard(card) {
  if (state.busy || dragged) return;
  if (state.selected.has(card)) state.selected.delete(card);
  else state.selected.add(card);
  state.choice = 0;
  state.mode = null;
  render();
}

function savedSortMode() {
  return loadStored("jk-sort", "suit") === "rank" ? "rank" : "suit";
}

/** "Sorteren": back from your own order to the sort, else by suit and by rank in turn. */
function toggleSort() {
  if (state.order) {
    state.order = null;
    saveStored(orderKey(), null);
  } else {
    state.sortMode = state.sortMode === "suit" ? "rank" : "suit";
    saveStored("jk-sort", state.sortMode);
  }
  render();
}

// --- Arranging the hand by dragging ----------------------------------------------------

/** A drag moves further than this (px) before it counts (less is a click). */
const DRAG_START = 8;
/** A finger held this long (ms) on a card lifts it: it may then move up or down too (to
 * another row of a wrapped hand) instead of scrolling the page. Without the hold a finger
 * drags sideways only, and an upward or downward swipe scrolls as on any page. */
const HOLD_MS = 300;
let drag = null;
let dragged = false; // the click that ends a drag selects nothing

/** Pointer down on a card of the hand: a drag may start (mouse, pen or touch). */
function startDrag(e, card) {
  if (state.busy || e.button !== 0) return;
  const el = e.currentTarget;
  drag = { card, el, x: e.clientX, y: e.clientY, moving: false, place: null, pointer: e.pointerId, hold: null };
  if (e.pointerType === "touch") drag.hold = setTimeout(liftHeld, HOLD_MS);
  el.setPointerCapture?.(e.pointerId);
  el.addEventListener("pointermove", moveDrag);
  el.addEventListener("pointerup", endDrag);
  el.addEventListener("pointercancel", cancelDrag);
}

/** The finger stayed on the card: lift it, so the next moves drag it in any direction. */
function liftHeld() {
  if (!drag || drag.moving) return;
  drag.hold = null;
  drag.moving = true;
  drag.el.classList.add("is-dragging");
  navigator.vibrate?.(15);
}

/** While a card is lifted a finger's move drags it: the page does not scroll. */
root.addEventListener(
  "touchmove",
  (e) => {
    if (drag && drag.moving) e.preventDefault();
  },
  { passive: false },
);
root.addEventListener("contextmenu", (e) => {
  if (drag) e.preventDefault(); // a long press lifts the card, it opens no menu
});

function moveDrag(e) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!drag.moving && Math.hypot(dx, dy) < DRAG_START) return;
  if (!drag.moving && drag.hold !== null && Math.abs(dy) > Math.abs(dx)) {
    stopDrag(); // a finger swiping up or down before the hold scrolls the page
    return;
  }
  clearTimeout(drag.hold);
  drag.moving = true;
  drag.el.classList.add("is-dragging");
  drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
  // The drop place: next to the card whose middle is nearest the pointer.
  const others = [...$("hand").querySelectorAll("[data-testid=hand-card]")];
  let best = null;
  for (const [i, other] of others.entries()) {
    other.classList.remove("drop-before", "drop-after");
    if (other === drag.el) continue;
    const r = other.getBoundingClientRect();
    const d = Math.hypot(e.clientX - (r.left + r.width / 2), e.clientY - (r.top + r.height / 2));
    if (!best || d < best.d) best = { d, i, other, after: e.clientX > r.left + r.width / 2 };
  }
  if (!best) return;
  best.other.classList.add(best.after ? "drop-after" : "drop-before");
  const from = others.indexOf(drag.el);
  const place = best.i + (best.after ? 1 : 0);
  drag.place = place > from ? place - 1 : place;
}

function stopDrag() {
  const d = drag;
  drag = null;
  clearTimeout(d.hold);
  d.el.removeEventListener("pointermove", moveDrag);
  d.el.removeEventListener("pointerup", endDrag);
  d.el.removeEventListener("pointercancel", cancelDrag);
  d.el.classList.remove("is-dragging");
  d.el.style.transform = "";
  for (const el of $("hand").querySelectorAll(".drop-before, .drop-after")) el.classList.remove("drop-before", "drop-after");
  return d;
}

function endDrag(e) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const d = stopDrag();
  if (!d.moving) return;
  dragged = true;
  setTimeout(() => {
    dragged = false;
  }, 0);
  if (d.place !== null) arrange(d.card, d.place);
}

function cancelDrag() {
  if (drag) stopDrag();
}

/** Shift and an arrow key move the focused card one place along the hand. */
function moveByKey(el, step) {
  if (state.busy) return;
  const order = handOrder().filter((c) => !stagedIds().has(c));
  const card = Number(el.dataset.card);
  const i = order.indexOf(card);
  if (i + step < 0 || i + step >= order.length) return;
  arrange(card, i + step);
}

function enterMode(mode) {
  state.mode = mode;
  render();
}

function cancelMode() {
  state.mode = null;
  render();
}

/** The selection as a meld for lay_melds: the chosen interpretation, or as selected. */
function selectionMeld() {
  const options = selectionOptions();
  if (options.length) {
    const o = options[Math.min(state.choice, options.length - 1)];
    return { kind: o.kind, cards: o.cards, standsFor: o.stands_for };
  }
  const cards = sortHand([...state.selected], state.sortMode);
  return { kind: "run", cards, standsFor: cards.map(() => null) };
}

const meldJson = (m) => ({ cards: m.cards, stands_for: m.standsFor });

function layDown() {
  const melds = [...state.staged, selectionMeld()];
  send({ type: "lay_melds", melds: melds.map(meldJson) });
}

function layStaged() {
  send({ type: "lay_melds", melds: state.staged.map(meldJson) });
}

function stageSelection() {
  state.staged.push(selectionMeld());
  state.selected.clear();
  state.choice = 0;
  render();
}

function unstage() {
  state.staged = [];
  render();
}

async function pickMeld(index) {
  if (!canAct() || state.mode === null || state.selected.size !== 1) return;
  const card = [...state.selected][0];
  if (state.mode === "swap") {
    send({ type: "swap_joker", card, meld: index });
    return;
  }
  // what it stands for there: a joker each card the engine allows (its own choice first)
  const options = selectedActions("lay_off").filter((a) => a.meld === index).map((a) => a.stands_for ?? null);
  let standsFor = options[0] ?? null;
  if (options.length > 1) {
    standsFor = await chooseJoker(options);
    if (standsFor === undefined) return;
  }
  send({ type: "lay_off", card, meld: index, stands_for: standsFor });
}

/** Ask what a laid-off joker stands for; the first choice is proposed. */
function chooseJoker(options) {
  const dialog = $("dialog");
  return new Promise((resolve) => {
    let picked = options[0];
    const radios = options.map((code, i) =>
      h(
        "label",
        { class: "jk-radio" },
        h("input", { type: "radio", name: "jk-joker", value: code, checked: i === 0, "data-testid": "joker-option", onchange: () => { picked = code; } }),
        cardFace(code, { small: true }),
        h("span", { text: cardName(code, NAMES) }),
      ),
    );
    const done = (value) => {
      dialog.close();
      resolve(value);
    };
    dialog.replaceChildren(
      h("h2", { text: T.joker_is }),
      h("div", { class: "jk-radios" }, radios),
      h("div", { class: "jk-dialog-buttons" },
        button("joker-confirm", T.confirm, () => done(picked), { class: "jk-btn jk-btn-primary" }),
        button("joker-cancel", T.cancel, () => done(undefined), { class: "jk-btn jk-btn-ghost" }),
      ),
    );
    dialog.onclose = () => resolve(undefined);
    dialog.showModal();
  });
}

/** Show the round's scores and revealed hands; resolves when the player continues. */
function showRoundOver(event, isLast) {
  const dialog = $("dialog");
  return new Promise((resolve) => {
    const scores = event.scores || [];
    // Your hand as it lay in your hand (your order or sort); the others sorted the same way.
    const hands = (event.hands || []).map((cards, s) => (s === seat() ? handOrderOf(cards) : sortHand(cards, state.sortMode)));
    const o = state.obs;
    let outcome = "";
    if (o.winner !== null && o.winner !== undefined) outcome = fmt(T.winner, { name: seatName(o.winner) });
    else if (o.end_reason === "stock") outcome = T.end_stock;
    else if (o.end_reason === "turn_limit") outcome = T.end_turn_limit;
    dialog.replaceChildren(
      h("h2", { "data-testid": "round-over-title", text: fmt(T.round_over, { round: (event.round ?? 0) + 1 }) }),
      outcome ? h("p", { class: "jk-outcome", "data-testid": "round-outcome", text: outcome }) : null,
      h(
        "table",
        { class: "jk-score-table jk-round-table", "data-testid": "round-scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: T.points }), h("th", { scope: "col", text: T.revealed_hands }))),
        h(
          "tbody",
          {},
          scores.map((p, s) =>
            h("tr", { class: s === seat() ? "is-yours" : "" },
              h("th", { scope: "row", text: seatName(s) }),
              h("td", { class: "jk-points", "data-testid": `round-score-${s}`, text: String(p) }),
              h("td", {}, h("span", { class: "jk-reveal", "data-testid": `round-hand-${s}` }, (hands[s] || []).map((c) => cardFace(c, { small: true, attrs: { "data-card": c } })))),
            ),
          ),
        ),
      ),
      h("div", { class: "jk-dialog-buttons" },
        button("continue", isLast ? T.see_result : T.next_round, () => dialog.close(), { class: "jk-btn jk-btn-primary", autofocus: true }),
      ),
    );
    dialog.onclose = () => resolve();
    dialog.showModal();
    announce(root, [fmt(T.round_over, { round: (event.round ?? 0) + 1 }), outcome].filter(Boolean).join(". "));
  });
}

/** `cards` in the order the hand shows them: the player's own order, else sorted. */
function handOrderOf(cards) {
  if (!state.order) return sortHand(cards, state.sortMode);
  const place = new Map(state.order.map((c, i) => [c, i]));
  const known = cards.filter((c) => place.has(c)).sort((a, b) => place.get(a) - place.get(b));
  return [...known, ...sortHand(cards.filter((c) => !place.has(c)), state.sortMode)];
}

// --- The discard pile, browsable (who threw what this round) -------------------------

/**
 * The round's discards per seat, in throw order, from the observation's public log (only
 * public information): each `{card, takenBy, reshuffled}`, `takenBy` the seat that took it
 * from the open pile, `reshuffled` when it went back into the closed stock with the pile.
 * The open pile is followed as a stack: a discard and a complete meld that leaves the
 * table onto the pile lie on top; a draw from the open pile takes its top card; a
 * reshuffle takes every card but the top one.
 */
function discardsBySeat(log) {
  const rows = Array.from({ length: numSeats() }, () => []);
  const pile = [];
  for (const entry of log || []) {
    const a = entry.action || {};
    if (entry.type === "action" && a.type === "discard") {
      const item = { card: a.card, takenBy: null, reshuffled: false };
      rows[entry.seat]?.push(item);
      pile.push(item);
    } else if (entry.type === "action" && a.type === "draw" && a.source === "open") {
      const i = pile.map((item) => item.card).lastIndexOf(entry.card);
      if (i >= 0) pile.splice(i, 1)[0].takenBy = entry.seat;
    } else if (entry.type === "complete" && entry.to === "open_pile") {
      for (const card of entry.cards || []) pile.push({ card, takenBy: null, reshuffled: false });
    } else if (entry.type === "reshuffle") {
      const top = pile.pop();
      for (const item of pile) item.reshuffled = true;
      pile.length = 0;
      if (top) pile.push(top);
    }
  }
  return rows;
}

/** The pile view's dialog (its own, so a round's end or a joker choice never closes it). */
const pileDialog = h("dialog", { class: "jk-dialog jk-pile-dialog", "data-testid": "pile-view", "aria-labelledby": "jk-pile-title" });
root.append(pileDialog);

function pileItem(item) {
  const note = item.takenBy !== null ? (item.takenBy === seat() ? T.taken_by_you : fmt(T.taken_by, { name: seatName(item.takenBy) })) : item.reshuffled ? T.reshuffled : "";
  const text = label(item.card);
  return h(
    "li",
    {
      class: `jk-pile-item${item.takenBy !== null ? " is-taken" : ""}${item.reshuffled ? " is-reshuffled" : ""}`,
      "data-testid": "pile-card",
      "data-card": item.card,
      "data-taken-by": item.takenBy,
      "data-reshuffled": item.reshuffled ? "true" : null,
    },
    cardFace(item.card, { small: true, attrs: { "aria-hidden": "true" } }),
    h(item.takenBy !== null ? "del" : "span", { class: "jk-pile-text", text }),
    note ? h("span", { class: "jk-pile-note", text: ` (${note})` }) : null,
  );
}

function renderPileView() {
  if (!pileDialog.open) return;
  const rows = discardsBySeat(state.obs.log);
  pileDialog.replaceChildren(
    h("h2", { id: "jk-pile-title", text: `${T.discards_round} · ${roundLabel(T, state.game, roundIndex())}` }),
    h(
      "div",
      { class: "jk-pile-seats" },
      rows.map((items, s) =>
        h(
          "section",
          { class: `jk-pile-seat${s === seat() ? " is-yours" : ""}`, "aria-labelledby": `jk-pile-seat-${s}` },
          h("h3", { id: `jk-pile-seat-${s}`, text: seatName(s) }),
          items.length
            ? h("ol", { class: "jk-pile-list", "data-testid": `pile-seat-${s}` }, items.map(pileItem))
            : h("p", { class: "jk-empty", "data-testid": `pile-seat-${s}`, text: T.nothing_discarded }),
        ),
      ),
    ),
    h("div", { class: "jk-dialog-buttons" }, button("pile-close", T.close, () => pileDialog.close(), { class: "jk-btn jk-btn-primary" })),
  );
}

function openPileView() {
  if (pileDialog.open) return;
  pileDialog.showModal();
  renderPileView();
  pileDialog.querySelector("[data-testid=pile-close]")?.focus();
}

/** The key O (open pile) opens the pile view and closes it again; not while typing in a
 * field or while the table's own dialog (a round's end, a joker choice) is open. */
document.addEventListener("keydown", (e) => {
  if (e.key !== "o" && e.key !== "O") return;
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.target.closest?.("input, select, textarea, [contenteditable]")) return;
  if ($("dialog").open) return;
  e.preventDefault();
  if (pileDialog.open) pileDialog.close();
  else openPileView();
});

// --- Practice games: a tip and undo ------------------------------------------------------

/** Whether South made an action in this round (the public log shows every action). */
const movedThisRound = () => (state.obs.log || []).some((e) => e.type === "action" && e.seat === seat());

function practiceItems() {
  if (!help.enabled() || !playing()) return [];
  const items = [
    button("btn-hint", T.hint, help.hint, { class: "jk-btn jk-btn-ghost", title: T.hint_title, disabled: !canAct() }),
    button("btn-undo", T.undo, help.undo, { class: "jk-btn jk-btn-ghost", title: T.undo_title, disabled: state.busy || !movedThisRound() }),
  ];
  const tip = help.tip();
  if (tip) items.push(h("p", { class: "jk-tip", "data-testid": "hint", text: tip }));
  return items;
}

// --- Talking to the API -------------------------------------------------------------

function applyObservation(obs) {
  const beforeObs = state.obs;
  const before = new Set(hand());
  const round = roundIndex();
  state.obs = obs;
  state.newCards = new Set(hand().filter((c) => before.size && !before.has(c)));
  if (roundIndex() !== round) state.order = loadStored(orderKey(), null);
  // South's draw: the card that came into the hand is marked until the turn ends.
  const drew = beforeObs.phase === "draw" && obs.phase === "play" && beforeObs.current_player === seat() && obs.current_player === seat();
  if (drew && state.newCards.size === 1) keepDrawn([...state.newCards][0]);
  else if (!(obs.phase === "play" && obs.current_player === seat())) state.drawn = null;
  const present = new Set(hand());
  for (const c of [...state.selected]) if (!present.has(c)) state.selected.delete(c);
}

const send = moveSender({
  root,
  state,
  T,
  delay: DELAY,
  render,
  renderFinal,
  applyObservation,
  roundOver: showRoundOver,
  // A move that went through, or a reload, drops the selection and the staged melds.
  forget: forgetChoices,
  // Nothing changed: the selection stays, the table is as it was.
  refused: () => {
    state.mode = null;
  },
});

/** What South had selected, staged or was choosing: gone once the game moved on. */
function forgetChoices() {
  state.selected.clear();
  state.staged = [];
  state.mode = null;
  state.choice = 0;
}

const help = practiceHelp({ root, state, T, render, renderFinal, applyObservation, canAct, forget: forgetChoices });

// --- Start --------------------------------------------------------------------------

const announceChanges = changeAnnouncer(root);
const restoreFocus = focusKeeper(root, $("hand"));
handKeys($("hand"), moveByKey);
$("hand").addEventListener("focusin", (e) => {
  if (e.target.dataset.testid === "hand-card") state.focusCard = Number(e.target.dataset.card);
});
state.order = loadStored(orderKey(), null);
state.drawn = loadDrawn();
$("btn-scores").after(fourColourToggle(root, "jk", T));
$("btn-scores").addEventListener("click", (e) => {
  const box = $("scores");
  box.hidden = !box.hidden;
  e.currentTarget.setAttribute("aria-expanded", String(!box.hidden));
});

render();
renderFinal();
