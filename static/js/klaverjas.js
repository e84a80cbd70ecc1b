// The Klaverjas card table: renders the entrant's view of a game and plays moves through
// the JSON API (/api/games/<id>/ and /api/games/<id>/moves/, see docs/api.md).
//
// South (you) plays with North (partner, "maat") against West and East. The page renders
// from the GET payload embedded in the template ("initial-state"), so a reload resumes
// exactly. A move is one POST; its `events` (your own move, then every bot move, and
// "round_over" markers) are shown one after another, each with the observation after it.
// An illegal move (400) shows the server's reason and changes nothing; a stale one (409)
// reloads the state from GET.
//
// Card ids follow engine/cards.py (klaverjas_code): id = suit * 8 + rank, suits c d h s,
// ranks 7 8 9 T J Q K A. The observation's JSON is documented in engine/klaverjas/state.py.

import {
  byTestid,
  cardNames,
  changeAnnouncer,
  fmt,
  focusKeeper,
  followHandFocus,
  formatNumber,
  fourColourToggle,
  h,
  handKeys,
  markTable,
  pageLanguage,
  practiceButtons,
  readJson,
  rovingHand,
  roundLabel,
  showFinal,
  showLog,
  sleep,
  tableButton,
  touchWords,
  turnReader,
} from "./table-common.js";
import { moveSender, practiceHelp } from "./table-moves.js";
import { tablePace } from "./table-pace.js";
import { cardFace as drawCard, cardName, RED_SUITS, shortLabel, sortKlaverjasHand, SUIT_SYMBOLS } from "./table-cards.js";
import { klaverjasScores } from "./klaverjas-scores.js";

const root = document.getElementById("kj-table");
const T = touchWords(readJson("table-strings"));
const LANG = pageLanguage(root);

const SUITS = "cdhs";
const KJ_RANKS = "789TJQKA";

const NAMES = cardNames(T, "");

const $ = byTestid(root);
// Klaverjassen's results are whole points: the game's decimals (data-result-decimals).
const number = (x) => formatNumber(x, LANG, Number(root.dataset.resultDecimals ?? 0));

// --- Cards -----------------------------------------------------------------------------

const codeOf = (id) => KJ_RANKS[id % 8] + SUITS[Math.floor(id / 8)];
const suitName = (s) => NAMES.suits[SUITS.indexOf(s)] ?? s;
const suitText = (s) => `${SUIT_SYMBOLS[s]} ${suitName(s)}`;
const nameOf = (id) => cardName(codeOf(id), NAMES);
const shortOf = (id) => shortLabel(codeOf(id), NAMES.letters, NAMES.short);

/** The hand sorted by suit (trump first), within a suit from high to low (table-cards.js). */
function sortHand(ids, trump) {
  const idOf = new Map(ids.map((id) => [codeOf(id), id]));
  return sortKlaverjasHand([...idOf.keys()], trump).map((code) => idOf.get(code));
}

// --- State -----------------------------------------------------------------------------

const state = {
  game: readJson("initial-state"),
  obs: null,
  busy: false,
  focusCard: null, // the hand's card that takes the focus (the keyboard's place in the hand)
  wasPlayable: false, // the hand could be played at the last render
  seenPlays: new Set(), // trick cards already shown (a card lands once, not at every render)
  hint: null, // a practice game's tip: {seq, text}, shown while the game is at that seq
};
state.obs = state.game.observation;

const { seat, seatName, phase, currentPlayer, playing, myTurn, canAct } = turnReader(state);
const teamOf = (s) => s % 2;
const teamName = (t) => (t === teamOf(seat()) ? T.we : T.they);
const trumpSuit = (o = state.obs) => o.trump ?? null;
const legalActions = (o = state.obs) => (currentPlayer(o) === seat() ? o.legal_actions || [] : []);
const legalCards = () =>
  new Set(legalActions().filter((a) => a.type === "play").map((a) => a.card));
const roundIndex = () => state.obs.round_index ?? state.game.round ?? 0;

const scores = klaverjasScores({ root, state, T, seat, teamOf, teamName });
scores.keepDetail(state.obs);

// --- Cards on the page ---------------------------------------------------------------

/** A card face (table-cards.js); `tag` "button" for the hand, "span" elsewhere. */
const cardFace = (id, { tag = "span", attrs = {}, small = false, trump = null } = {}) =>
  drawCard(codeOf(id), NAMES, { prefix: "kj", tag, attrs, small, trump });

const cardBack = () => h("span", { class: "kj-back", "aria-hidden": "true" });

const button = tableButton("kj");

// --- Rendering ------------------------------------------------------------------------

function render() {
  const o = state.obs;
  const g = state.game;
  markTable(root, { busy: state.busy, phase: phase(o) ?? "", yourTurn: myTurn(), seq: g.seq, status: g.status, round: roundIndex() });
  markTable(root, { trump: trumpSuit(o) ?? "", tricks: (o.tricks || []).length });
  renderBadges();
  renderSeats();
  renderTrick();
  renderStatus();
  renderBidding();
  renderHand();
  renderInfo();
  renderPractice();
  scores.renderNow();
  scores.renderBoom();
  scores.renderGlance(roundIndex(), glanceLastTrick());
  renderLog();
  renderLastTrickButton();
  announceChanges($("status").textContent, `${roundIndex()}:${state.obs.deal_number ?? 0}`, logLines().map((line) => line.text));
  restoreFocus();
  focusPlayable();
}

/** The seat's latest bid of the current deal, in words (only while bidding). */
function bidText(s) {
  const o = state.obs;
  if (!["bidding", "bidding2", "choose_trump"].includes(phase(o))) {
    return o.playing_seat === s ? T.plays : "";
  }
  const bids = (o.bids || []).filter((b) => b.seat === s);
  const last = bids[bids.length - 1];
  if (!last) return "";
  if (!last.play) return T.passed;
  return last.suit ? `${T.plays} ${SUIT_SYMBOLS[last.suit]}` : T.plays;
}

function seatLabel(s) {
  const o = state.obs;
  const turn = playing() && currentPlayer() === s;
  const bid = bidText(s);
  return h(
    "div",
    { class: `kj-seat-label${turn ? " is-turn" : ""}` },
    h("span", { class: "kj-seat-name", text: seatName(s) }),
    s === (seat() + 2) % 4 ? h("span", { class: "kj-partner", "data-testid": "partner-label", text: T.partner }) : null,
    o.dealer === s ? h("span", { class: "kj-dealer", title: T.dealer, text: "D" }) : null,
    bid ? h("span", { class: `kj-bid${o.playing_seat === s ? " is-playing" : ""}`, "data-testid": `bid-${s}`, text: bid }) : null,
  );
}

function renderSeats() {
  const counts = state.obs.hand_counts || [];
  for (const s of [1, 2, 3]) {
    const box = $(`seat-${s}`);
    const n = counts[s] ?? 0;
    box.classList.toggle("is-turn", playing() && currentPlayer() === s);
    box.replaceChildren(
      seatLabel(s),
      h("div", { class: "kj-backs", title: n === 1 ? T.one_card : fmt(T.n_cards, { n }) }, Array.from({ length: n }, cardBack)),
    );
  }
  const south = $("seat-0");
  south.replaceChildren(...seatLabel(seat()).childNodes);
  south.classList.toggle("is-turn", myTurn());
}

function renderBadges() {
  const o = state.obs;
  const items = [];
  const trump = trumpSuit(o);
  const bidding = phase(o) === "bidding";
  const shown = trump ?? (bidding ? o.proposed_trump : null);
  items.push(
    h(
      "div",
      { class: `kj-trump${shown && RED_SUITS.has(shown) ? " kj-red" : ""}${trump ? "" : " is-proposed"}`, "data-testid": "trump", "data-suit": trump ?? "" },
      h("span", { class: "kj-badge-title", text: trump || !bidding ? T.trump : T.proposed_trump }),
      shown
        ? h("span", { class: "kj-trump-suit" }, h("span", { class: "kj-trump-symbol", text: SUIT_SYMBOLS[shown] }), h("span", { text: suitName(shown) }))
        : h("span", { class: "kj-trump-none", text: T.no_trump_yet }),
    ),
  );
  if (o.playing_team !== null && o.playing_team !== undefined) {
    const ours = o.playing_team === teamOf(seat());
    items.push(
      h(
        "div",
        { class: `kj-playing${ours ? " is-ours" : ""}`, "data-testid": "playing-team", "data-team": o.playing_team },
        h("span", { class: "kj-badge-title", text: T.playing_team }),
        h("strong", { text: ours ? T.we_play : T.they_play }),
        h("span", { class: "kj-playing-seat", text: seatName(o.playing_seat) }),
      ),
    );
  }
  $("badges").replaceChildren(...items);
}

/** The trick to show: the one being played, else the last finished one (until a lead). */
function shownTrick() {
  const o = state.obs;
  const plays = o.trick?.plays ?? [];
  if (plays.length || phase(o) !== "play" && phase(o) !== "over") return { plays, done: null };
  const tricks = o.tricks || [];
  const last = tricks[tricks.length - 1];
  return last ? { plays: last.plays, done: last } : { plays: [], done: null };
}

function renderTrick() {
  const { plays, done } = shownTrick();
  const box = $("trick");
  const trump = trumpSuit();
  const positions = ["south", "west", "north", "east"];
  const o = state.obs;
  const trickNo = (o.tricks || []).length - (done ? 1 : 0);
  const newSeats = new Set();
  const keyOf = (s) => `${roundIndex()}:${o.deal_number ?? 0}:${trickNo}:${s}`;
  const slots = positions.map((pos, s) => {
    const play = plays.find((p) => p.seat === s);
    const won = done && done.winner === s;
    if (play && !state.seenPlays.has(keyOf(s))) {
      newSeats.add(s);
      state.seenPlays.add(keyOf(s));
    }
    return h(
      "div",
      {
        class: `kj-slot kj-slot-${pos}${won ? " is-winner" : ""}`,
        "data-testid": `trick-slot-${s}`,
        title: play ? `${seatName(s)}: ${nameOf(play.card)}` : seatName(s),
      },
      play
        ? cardFace(play.card, { trump, attrs: { "data-testid": `trick-card-${s}`, "data-seat": s } })
        : h("span", { class: "kj-slot-empty" }),
    );
  });
  const notes = [];
  if (done) {
    const to = done.winner === seat() ? T.trick_to_you : fmt(T.trick_to, { name: seatName(done.winner) });
    notes.push(h("p", { class: "kj-trick-winner", "data-testid": "trick-winner", text: to }));
    if (done.roem > 0) {
      notes.push(h("p", { class: "kj-roem-call", "data-testid": "roem-call", text: fmt(T.roem_called, { points: done.roem }) }));
    }
  }
  slots.forEach((slot, s) => {
    const card = slot.querySelector(".kj-card");
    if (card && newSeats.has(s)) card.classList.add("is-new");
  });
  box.classList.toggle("is-done", Boolean(done));
  box.replaceChildren(...slots, h("div", { class: "kj-trick-notes" }, notes));
}

function renderStatus() {
  const el = $("status");
  const o = state.obs;
  let text;
  if (!playing()) text = T.game_over;
  else if (myTurn()) {
    if (phase(o) === "bidding") text = fmt(T.turn_bid, { suit: suitText(o.proposed_trump) });
    else if (phase(o) === "bidding2") text = T.turn_bid2;
    else if (phase(o) === "choose_trump") text = T.turn_choose;
    else {
      text = T.turn_play;
      if ((state.obs.hand || []).length > legalCards().size) text += ` ${T.illegal_hint}`;
    }
  } else if (currentPlayer() === seat()) {
    text = T.closed; // South to move, but the tournament's window has closed
  } else if (currentPlayer() !== null && currentPlayer() !== undefined) {
    text = fmt(T.bot_turn, { name: seatName(currentPlayer()) });
  } else text = T.waiting;
  el.textContent = text;
  el.classList.toggle("is-yours", myTurn());
}

function bidLabel(action) {
  if (action.type === "choose_trump") return suitText(action.suit);
  if (!action.play) return T.bid_pass;
  if (action.suit) return fmt(T.bid_play_suit, { suit: suitText(action.suit) });
  return T.bid_play;
}

function bidTestid(action) {
  if (action.type === "choose_trump") return `choose-${action.suit}`;
  if (!action.play) return "bid-pass";
  return action.suit ? `bid-play-${action.suit}` : "bid-play";
}

function renderBidding() {
  const box = $("bidding");
  const actions = canAct() ? legalActions().filter((a) => a.type !== "play") : [];
  box.hidden = actions.length === 0;
  box.replaceChildren(
    ...actions.map((a) => {
      const suit = a.suit ?? null;
      const kind = !a.play && a.type === "bid" ? "kj-btn-ghost" : "kj-btn-primary";
      const el = button(bidTestid(a), bidLabel(a), () => send(a), { class: `kj-btn ${kind}` });
      if (suit && RED_SUITS.has(suit)) el.classList.add("kj-red-text");
      return el;
    }),
  );
}

function renderHand() {
  const box = $("hand");
  const o = state.obs;
  box.hidden = !playing() && Boolean(state.game.result);
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const trump = trumpSuit(o) ?? (phase(o) === "bidding" ? o.proposed_trump : null);
  const playable = canAct() && phase(o) === "play";
  const legal = playable ? legalCards() : new Set();
  box.replaceChildren(
    ...sortHand(o.hand || [], trump).map((c) => {
      const isLegal = legal.has(c);
      const el = cardFace(c, {
        tag: "button",
        trump: trumpSuit(o),
        attrs: {
          type: "button",
          "data-testid": "hand-card",
          "data-card": c,
          "data-legal": playable ? String(isLegal) : null,
          "aria-disabled": playable ? null : "true",
          onclick: () => {
            if (canAct() && phase() === "play") send({ type: "play", card: c });
          },
        },
      });
      el.classList.toggle("is-illegal", playable && !isLegal);
      el.classList.toggle("is-legal", playable && isLegal);
      return el;
    }),
  );
  box.classList.toggle("is-playable", playable);
  const firstLegal = box.querySelector('[data-legal="true"]');
  const current = legal.has(state.focusCard) ? state.focusCard : playable ? firstLegal?.dataset.card : null;
  rovingHand(box, current ?? state.focusCard);
}

/** When your turn to play comes, a focus on a card of the hand moves to one that may be
 *  played (after the render has put the focus back, see `focusKeeper`). */
function focusPlayable() {
  const box = $("hand");
  const playable = box.classList.contains("is-playable");
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  const firstLegal = box.querySelector('[data-legal="true"]');
  if (playable && !state.wasPlayable && focused && focused.dataset.legal !== "true" && firstLegal) firstLegal.focus();
  state.wasPlayable = playable;
}

// --- The last trick ------------------------------------------------------------------

/** Who won a finished trick and what it brought: "Slag voor West: 15 punten.", for South
 *  "Slag voor jou: ..." (never "voor Jij"). */
function trickWords(t) {
  const you = t.winner === seat();
  const text = t.roem ? (you ? T.log_trick_roem_you : T.log_trick_roem) : you ? T.log_trick_you : T.log_trick;
  return fmt(text, { name: seatName(t.winner), points: t.points, roem: t.roem });
}

/** The last finished trick of the deal being played (or of the round just ended). */
const lastTrick = () => (state.obs.tricks || []).at(-1) ?? null;

function renderLastTrickButton() {
  const btn = $("btn-last-trick");
  const none = lastTrick() === null;
  btn.setAttribute("aria-disabled", String(none));
  btn.title = none ? T.no_last_trick : "";
}

/** "Laatste slag" in the glance at the top of the felt (on a phone the side panel with
 *  its own button is below the fold). */
function glanceLastTrick() {
  const none = lastTrick() === null;
  return button("glance-last-trick", T.last_trick, showLastTrick, {
    class: "kj-btn kj-btn-ghost kj-glance-btn",
    "aria-haspopup": "dialog",
    "aria-disabled": String(none),
    title: none ? T.no_last_trick : null,
  });
}

/** The previous trick in a dialog: who played which card, and who won it. */
function showLastTrick() {
  const trick = lastTrick();
  if (trick === null || state.busy) return;
  const dialog = $("dialog");
  const trump = trumpSuit();
  dialog.replaceChildren(
    h("h2", { text: T.last_trick }),
    h(
      "dl",
      { class: "kj-last-trick", "data-testid": "last-trick" },
      trick.plays.flatMap((p) => [
        h("dt", { text: seatName(p.seat) }),
        h("dd", { class: p.seat === trick.winner ? "is-winner" : "" }, cardFace(p.card, { trump, small: true, attrs: { "data-testid": `last-trick-card-${p.seat}`, "data-card": p.card } })),
      ]),
    ),
    h("p", { class: "kj-outcome", "data-testid": "last-trick-winner", text: trickWords(trick) }),
    h("div", { class: "kj-dialog-buttons" }, button("last-trick-close", T.close, () => dialog.close(), { class: "kj-btn kj-btn-primary", autofocus: true })),
  );
  dialog.onclose = null;
  dialog.showModal();
}

function renderInfo() {
  const g = state.game;
  const parts = [
    h("p", { class: "kj-round", "data-testid": "round-label", text: roundLabel(T, g, roundIndex()) }),
  ];
  if (g.tournament?.name) parts.push(h("p", { class: "kj-tournament", text: g.tournament.name }));
  const variant = g.variant || {};
  const title = variant[`title_${LANG}`] ?? variant.title_nl ?? g.variant_name ?? "";
  if (title) parts.push(h("p", { class: "kj-variant", text: title.charAt(0).toUpperCase() + title.slice(1) }));
  if (g.bot_finished) parts.push(h("p", { class: "kj-note", text: T.bot_finished }));
  $("round-info").replaceChildren(...parts);
}

/** The current round's moves in words, from the observation (bids and tricks). */
function logLines() {
  const o = state.obs;
  const lines = [];
  if (o.deal_number > 0) lines.push({ seat: null, text: T.log_redeal });
  for (const b of o.bids || []) {
    const name = seatName(b.seat);
    let text = fmt(T.log_pass, { name });
    if (b.play) text = b.suit ? fmt(T.log_play_suit, { name, suit: suitText(b.suit) }) : fmt(T.log_play_bid, { name });
    lines.push({ seat: b.seat, text });
  }
  const bidPlayed = (o.bids || []).some((b) => b.play);
  if (o.trump && o.playing_seat !== null && o.playing_seat !== undefined && !bidPlayed) {
    lines.push({ seat: o.playing_seat, text: fmt(T.log_choose, { name: seatName(o.playing_seat), suit: suitText(o.trump) }) });
  }
  for (const t of o.tricks || []) {
    for (const p of t.plays) lines.push({ seat: p.seat, text: fmt(T.log_card, { name: seatName(p.seat), card: shortOf(p.card) }) });
    lines.push({ seat: null, cls: "kj-log-trick", text: trickWords(t) });
  }
  for (const p of o.trick?.plays || []) {
    lines.push({ seat: p.seat, text: fmt(T.log_card, { name: seatName(p.seat), card: shortOf(p.card) }) });
  }
  return lines;
}

/** The moves list: a new round, or a new deal, starts a new list. */
function renderLog() {
  const lines = logLines().map((line) => {
    const cls = [line.seat === seat() ? "is-yours" : "", line.cls ?? ""].join(" ").trim();
    return { text: line.text, cls: cls || null };
  });
  showLog($("log"), `${roundIndex()}:${state.obs.deal_number ?? 0}`, lines);
}

function renderFinal() {
  const totals = state.game.totals || [0, 0];
  const us = teamOf(seat());
  showFinal(root, "kj", state.game, T, (res) => [
    [T.we, "final-we", String(totals[us])],
    [T.they, "final-they", String(totals[1 - us])],
    [T.result, "final-result", number(res.result)],
    [T.rank, "final-rank", res.rank ?? "–"],
  ]);
}

// --- Practice games: a tip and undo ------------------------------------------------------

/** Whether South has bid or played a card in this deal (what an undo can take back). */
function movedThisDeal(o = state.obs) {
  const mine = (x) => x.seat === seat();
  return (o.bids || []).some(mine) || [...(o.tricks || []), o.trick].some((t) => (t?.plays || []).some(mine));
}

function renderPractice() {
  const box = $("practice");
  box.hidden = !help.enabled() || !playing();
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const tip = help.tip();
  box.replaceChildren(...practiceButtons({ prefix: "kj", T, help, state, canAct, moved: movedThisDeal }));
  if (tip) box.append(h("p", { class: "kj-tip", "data-testid": "hint", text: tip }));
}

// --- Talking to the API -------------------------------------------------------------

function applyObservation(obs) {
  state.obs = obs;
  scores.keepDetail(obs);
}

/** The bots' pace: 650 ms between two shown moves at "slow", the pause of old. */
const pace = tablePace({ root, prefix: "kj", T, slowest: 650 });

const send = moveSender({
  root,
  state,
  T,
  delay: pace.delay,
  render,
  renderFinal,
  applyObservation,
  roundOver: scores.showRoundOver,
  // A finished trick stays in view a little longer (its winner and roem).
  afterMove: async (before) => {
    if ((state.obs.tricks || []).length > (before.tricks || []).length) await sleep(pace.delay());
  },
});

const help = practiceHelp({ root, state, T, render, renderFinal, applyObservation, canAct });

// --- Start --------------------------------------------------------------------------

const announceChanges = changeAnnouncer(root);
const restoreFocus = focusKeeper(root, $("hand"));
handKeys($("hand"));
followHandFocus($("hand"), state);
$("btn-last-trick").addEventListener("click", showLastTrick);
$("btn-last-trick").before(fourColourToggle(root, "kj", T), pace.control);
render();
renderFinal();
