// The Jokeren card table: renders the entrant's view of a game and plays moves through the
// JSON API (/api/games/<id>/, its moves/ and meld-readings/: docs/api.md). It keeps no rule:
// the observation's legal_actions and the engine's readings of a selection say what fits.
//
// The page renders from the GET payload embedded in the template ("initial-state"), so
// a reload resumes exactly. A move is one POST; its `events` (the entrant's own move,
// then every bot move, and "round_over" markers) are shown one after another, each
// with the observation after it. An illegal move (400) shows the server's reason and
// changes nothing; a stale one (409) reloads the state from GET.
//
// This module holds the table's state, its rendering and a turn's buttons. Beside it:
// table-melds.js (making melds: the selection's readings, staging, laying off, swapping a
// joker), table-drag.js (arranging the hand), table-pile.js (the discard pile, browsable),
// table-words.js (the list of moves in words), table-scores.js (the score panel and a
// round's end); table-common.js and table-moves.js are shared with the Klaverjas table,
// table-cards.js names and sorts cards.

import {
  byTestid,
  cardNames,
  cardPips,
  changeAnnouncer,
  fmt,
  focusKeeper,
  followHandFocus,
  formatNumber,
  fourColourToggle,
  h,
  handKeys,
  loadStored,
  markTable,
  pageLanguage,
  practiceButtons,
  readJson,
  roundLabel,
  rovingHand,
  saveStored,
  showFinal,
  showLog,
  tableButton,
  touchWords,
  turnReader,
} from "./table-common.js";
import { moveSender, practiceHelp } from "./table-moves.js";
import { tablePace } from "./table-pace.js";
import {
  cardInfo,
  cardName,
  rankLabel,
  shortLabel,
  sortHand,
  SUIT_SYMBOLS,
  RED_SUITS,
} from "./table-cards.js";
import { handDrag } from "./table-drag.js";
import { pileView } from "./table-pile.js";
import { meldChoices } from "./table-melds.js";
import { jokerenScores } from "./table-scores.js";
import { moveWords } from "./table-words.js";

const root = document.getElementById("jk-table");
const T = touchWords(readJson("table-strings"));
const LANG = pageLanguage(root);

const NAMES = cardNames(T, T.joker);

const $ = byTestid(root);
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

const { seat, seatName, phase, currentPlayer, playing, myTurn, canAct } = turnReader(state);
const words = moveWords({ T, names: NAMES, seatName });
const hand = (o = state.obs) => o.hand ?? [];
const tableMelds = (o = state.obs) => o.table ?? [];
const stockCount = (o = state.obs) => o.stock_count ?? 0;
const handSizes = (o = state.obs) => o.hand_counts ?? [];
const openTop = (o = state.obs) => o.open_top ?? null;
const openCount = (o = state.obs) => (o.open_pile ?? []).length;

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
  scores.render();
  scores.renderGlance(roundIndex());
  renderLog();
  pile.render();
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
    onclick: () => pile.open(),
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
  const picks = state.mode !== null && canAct() ? choices.targets(state.mode === "swap" ? "swap_joker" : "lay_off") : [];
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
          onclick: () => choices.pickMeld(i),
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
          onpointerdown: (e) => drag.start(e, c),
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

const button = tableButton("jk");

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
      items.push(button("btn-cancel", T.cancel, choices.cancelMode, { class: "jk-btn jk-btn-ghost" }));
    } else {
      const mayMeld = state.obs.may_meld !== false;
      if (n >= 3 && mayMeld) {
        const options = choices.selectionOptions();
        if (options.length > 1) items.push(choices.jokerChoice(options));
        items.push(button("btn-lay", T.lay, choices.layDown, { class: "jk-btn jk-btn-primary" }));
        items.push(button("btn-stage", T.stage, choices.stageSelection));
      }
      if (state.staged.length && mayMeld) {
        items.push(button("btn-lay-staged", `${T.lay_staged} (${state.staged.length})`, choices.layStaged, { class: "jk-btn jk-btn-primary" }));
        items.push(button("btn-unstage", T.unstage, choices.unstage, { class: "jk-btn jk-btn-ghost" }));
      }
      if (choices.targets("lay_off").length) items.push(button("btn-lay-off", T.lay_off, () => choices.enterMode("lay_off")));
      if (choices.targets("swap_joker").length) items.push(button("btn-swap", T.swap, () => choices.enterMode("swap")));
      const discard = state.staged.length ? null : choices.selectedActions("discard")[0];
      if (discard) items.push(button("btn-discard", T.discard, () => send(discard), { class: "jk-btn jk-btn-danger" }));
    }
  }
  if (canAct() && phase() === "play" && state.selected.size === 0 && !state.staged.length) {
    items.push(h("span", { class: "jk-hint", text: T.select_hint }));
  }
  items.push(...practiceItems());
  box.replaceChildren(...items);
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

/** The current round's moves, from the observation's public log. */
const logLines = () => words.logLines(state.obs);

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
  if (state.busy || drag.justDragged()) return;
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

/** `cards` in the order the hand shows them: the player's own order, else sorted. */
function handOrderOf(cards) {
  if (!state.order) return sortHand(cards, state.sortMode);
  const place = new Map(state.order.map((c, i) => [c, i]));
  const known = cards.filter((c) => place.has(c)).sort((a, b) => place.get(a) - place.get(b));
  return [...known, ...sortHand(cards.filter((c) => !place.has(c)), state.sortMode)];
}

// --- The parts in modules of their own -------------------------------------------------

const shownHand = () => handOrder().filter((c) => !stagedIds().has(c));
const drag = handDrag({ root, state, hand: $("hand"), shownOrder: shownHand, arrange });
const pile = pileView({ root, state, T, seat, seatName, numSeats, label: words.label, cardFace, button, tableDialog: $("dialog"),
  title: () => roundLabel(T, state.game, roundIndex()) });
const scores = jokerenScores({ root, state, T, seat, seatName, cardFace, handOrderOf });
// `send` (below) plays a move: the meld choices call it later, once a move is made.
const choices = meldChoices({ root, state, T, names: NAMES, canAct, render, send: (action) => send(action), cardFace, button });

// --- Practice games: a tip and undo ------------------------------------------------------

/** Whether South made an action in this round (the public log shows every action). */
const movedThisRound = () => (state.obs.log || []).some((e) => e.type === "action" && e.seat === seat());

function practiceItems() {
  if (!help.enabled() || !playing()) return [];
  const items = practiceButtons({ prefix: "jk", T, help, state, canAct, moved: movedThisRound });
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

/** The bots' pace: 550 ms between two shown moves at "slow", the pause of old. */
const pace = tablePace({ root, prefix: "jk", T, slowest: 550 });

const send = moveSender({
  root,
  state,
  T,
  delay: pace.delay,
  render,
  renderFinal,
  applyObservation,
  roundOver: scores.showRoundOver,
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
handKeys($("hand"), drag.moveByKey);
followHandFocus($("hand"), state);
state.order = loadStored(orderKey(), null);
state.drawn = loadDrawn();
$("btn-scores").after(fourColourToggle(root, "jk", T), pace.control);
$("btn-scores").addEventListener("click", (e) => {
  const box = $("scores");
  box.hidden = !box.hidden;
  e.currentTarget.setAttribute("aria-expanded", String(!box.hidden));
});

render();
renderFinal();
