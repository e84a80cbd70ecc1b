// Helpers every card table page shares: building DOM, the page's strings and language,
// the two calls of the play API (GET the game, POST a move), the events of a move one by
// one, accessibility (announcements, focus, the keyboard, the four-colour deck) and the
// pieces both tables build the same way (a button, whose turn it is, the practice
// buttons, the round-over dialog). How a move is played (moveSender) and a practice
// game's tip and undo (practiceHelp) are in table-moves.js. No game rules here.

/** An element with attributes ("class", "text", "on<event>", the rest as attributes) and children. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

/**
 * The glance line at the top of the felt (`[data-testid=glance]`, shown where the side
 * panel is below the table, on a phone): the round's label and then `parts`, each
 * `[testid, text]` (the running totals, a table's own), and `extra` nodes (a button).
 */
export function showGlance(root, prefix, round, parts, ...extra) {
  const el = root.querySelector("[data-testid=glance]");
  if (!el) return;
  el.replaceChildren(
    h("span", { class: `${prefix}-glance-round`, "data-testid": "glance-round", text: round }),
    ...parts.map(([testid, text]) => h("span", { class: `${prefix}-glance-part`, "data-testid": testid, text })),
    ...extra,
  );
}

/** A string with {name} placeholders filled in: fmt("Ronde {round}", {round: 2}). */
export const fmt = (text, vars) => text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? vars[k] : m));

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The table's round label: "Ronde 3 van 8", or for a "play from here" game (one round
 * of a finished game, `what_if_round`) "Ronde 5, gespeeld vanaf een stand". */
export const roundLabel = (T, game, index) =>
  game.what_if_round == null
    ? fmt(T.round_of, { round: index + 1, rounds: game.rounds })
    : fmt(T.what_if_round, { round: game.what_if_round + 1 });

/** The JSON of a <script type="application/json"> element (json_script, the strings). */
export const readJson = (id) => JSON.parse(document.getElementById(id).textContent);

/** The page's strings `T` as a touch screen reads them (a coarse pointer: a finger): each
 * string that has a `<key>_tap` form ("Tik op ..." for "Klik op ...") takes that form. */
export function touchWords(T) {
  const touch = Boolean(window.matchMedia?.("(pointer: coarse)").matches);
  if (!touch) return T;
  const out = { ...T };
  for (const key of Object.keys(T)) if (key.endsWith("_tap")) out[key.slice(0, -4)] = T[key];
  return out;
}

/** "en" when the page is English, else "nl" (Dutch is the default). */
export function pageLanguage(root) {
  return (root.dataset.lang || document.documentElement.lang || "nl").startsWith("en") ? "en" : "nl";
}

/** A result as the page's language writes it, one decimal: 23,3 or 23.3 (numbers.js). */
export { formatResult as formatNumber } from "./numbers.js";

/**
 * The table's state on its root as data-* attributes, each value as a string: what the
 * tests and the CSS read (data-busy, data-phase, data-your-turn, data-seq, data-status,
 * data-round, and a table's own). `marks` is {busy, phase, yourTurn, ...}, set in its order.
 */
export function markTable(root, marks) {
  for (const [key, value] of Object.entries(marks)) root.dataset[key] = String(value);
}

/** A natural card's face (`prefix` "jk" or "kj"): rank and suit in the top-left corner,
 * the suit large in the middle, rank and suit again in the bottom-right corner. The marks
 * are drawn by the stylesheet from `data-glyph` (table-common.css), so they are pictures,
 * not text: the card's accessible name is its name in words ("harten vrouw"). */
export function cardPips(prefix, rank, suit) {
  const glyph = (cls, text) => h("span", { class: cls, "data-glyph": text, "aria-hidden": "true" });
  const corner = (extra) =>
    h("span", { class: `${prefix}-corner${extra}`, "aria-hidden": "true" }, glyph("", rank), glyph("", suit));
  return [corner(""), glyph(`${prefix}-pip`, suit), corner(` ${prefix}-corner-br`)];
}

/**
 * The list of the round's moves (an <ol>) in step with `lines` ({text, cls}): within one
 * `key` (a round, a deal) lines are only added at the end; a new key, or fewer lines than
 * shown, starts the list again. The last line is scrolled into view.
 */
export function showLog(list, key, lines) {
  if (list.dataset.key !== key || lines.length < list.children.length) {
    list.replaceChildren();
    list.dataset.key = key;
  }
  for (const line of lines.slice(list.children.length)) list.append(h("li", { class: line.cls, text: line.text }));
  list.scrollTop = list.scrollHeight;
}

/**
 * The game's result under South's hand (`.<prefix>-south`) once the game is over and has a
 * result: "Game over", the `rows(result)` ([term, data-testid, text]) as a list and, when
 * the page has one, a link to `root.dataset.leaderboardUrl` (the tournament's leaderboard,
 * else back to the tournaments). Shown again at every call; removed while the game is played.
 */
export function showFinal(root, prefix, game, T, rows) {
  const south = root.querySelector(`.${prefix}-south`);
  south.querySelector("[data-testid=final]")?.remove();
  const result = game.result;
  if (game.status === "playing" || !result) return;
  const url = root.dataset.leaderboardUrl || "";
  south.append(
    h(
      "div",
      { class: `${prefix}-final`, "data-testid": "final" },
      h("h2", { text: T.game_over }),
      h("dl", {}, rows(result).flatMap(([term, testid, text]) => [h("dt", { text: term }), h("dd", { "data-testid": testid, text })])),
      url
        ? h("a", { class: `${prefix}-btn ${prefix}-btn-primary`, href: url, "data-testid": "leaderboard-link", text: game.tournament ? T.leaderboard : T.back })
        : null,
    ),
  );
}

/** Django's CSRF token: from the page's meta tag, else from the cookie. */
export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta?.content) return meta.content;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/**
 * POST a move: `{seq, action}` to the game's moves URL. Resolves to `{status, data}`
 * (data is the JSON body or null); rejects only when the server cannot be reached.
 */
export async function postMove(url, seq, action) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify({ seq, action }),
  });
  const data = await response.json().catch(() => null);
  return { status: response.status, data };
}

/** GET the game (the same shape the page was rendered from); rejects unless 200. */
export async function fetchGame(url) {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.json();
}

/** The game payload with a finished round's scores (one per seat or team) appended to
 * `round_scores` and added to `totals`, as the server will have them. */
export function addRoundScores(game, scores) {
  return {
    ...game,
    round_scores: [...(game.round_scores || []), scores],
    totals: (game.totals || scores.map(() => 0)).map((t, s) => t + (scores[s] ?? 0)),
  };
}

/**
 * Show the `events` of a move's POST response one after another: `show(event)` for a move
 * (`delay` ms after the event before it), `roundOver(event, isLast)` for a "round_over"
 * marker, `isLast` when it ends the game. Both may return a promise, which is awaited.
 */
export async function showEvents(data, delay, { show, roundOver }) {
  const events = data.events || [];
  const lastRoundOver = events.reduce((last, e, i) => (e.type === "round_over" ? i : last), -1);
  for (const [i, event] of events.entries()) {
    if (event.type === "round_over") {
      await roundOver(event, data.status === "finished" && i === lastRoundOver);
    } else {
      if (i > 0 && delay > 0) await sleep(delay);
      await show(event);
    }
  }
}

/**
 * The observation after an event of a move response: `obs` with the event's changes, the
 * keys in `set` replaced and in each list of `splice` (`[start, removed, items]`) the
 * `removed` items from `start` replaced by `items` (docs/api.md). `obs` is left as it was.
 */
export function withDelta(obs, event) {
  const next = Object.assign({}, obs, event.set || {});
  for (const [key, [start, removed, items]] of Object.entries(event.splice || {})) {
    const list = [...(obs[key] || [])];
    list.splice(start, removed, ...items);
    next[key] = list;
  }
  return next;
}

/** Put `message` in an element (the table's error line) and show it; hide it when empty.
 * A message is also announced at once (`announce`, urgent). */
export function showMessage(el, message) {
  el.textContent = message;
  el.hidden = !message;
  const root = el.closest("[data-testid=table]");
  if (message && root) announce(root, message, { urgent: true });
}

// --- Accessibility: announcements, focus, the keyboard, the four-colour deck --------------

/** How many announcements the live regions keep (older ones are removed). */
const KEEP_ANNOUNCED = 8;

/**
 * Say `text` to screen readers through the table's live region (`[data-testid=announcer]`,
 * polite; `urgent`: `[data-testid=announcer-alert]`, assertive; _play_table.html). Each
 * announcement is a new line, so two in a row are both read.
 */
export function announce(root, text, { urgent = false } = {}) {
  if (!text) return;
  const region = root.querySelector(`[data-testid=${urgent ? "announcer-alert" : "announcer"}]`);
  if (!region) return;
  region.append(h("p", { text }));
  while (region.children.length > KEEP_ANNOUNCED) region.firstElementChild.remove();
}

/**
 * What changed at the table, announced after each render: the new lines of the list of
 * moves (the bots' moves as they are shown; a new `key`, a new round or deal, starts
 * again), each on its own, or at the pace "instant" (the root's `data-pace`, table-pace.js:
 * a render then brings every bot move of a turn) together as one announcement, read
 * whole where many would push each other out; and the status line when its text changed
 * (whose turn it is). The first call only notes the moves already made and says the status.
 */
export function changeAnnouncer(root) {
  let key = null;
  let count = 0;
  let status = null;
  return function update(statusText, logKey, lines) {
    if (key !== null) {
      const fresh = logKey === key ? lines.slice(count) : lines;
      if (root.dataset.pace === "instant") announce(root, fresh.join(" "));
      else for (const line of fresh) announce(root, line);
    }
    key = logKey;
    count = lines.length;
    if (statusText !== status) announce(root, statusText);
    status = statusText;
  };
}

/** What identifies a control of the table across renders (they are built anew each time). */
function focusKey(el) {
  return { testid: el.dataset.testid ?? null, card: el.dataset.card ?? null, index: el.dataset.index ?? null };
}

const focusable = (el) => el && !el.disabled && !el.hidden && el.getClientRects().length > 0;

/**
 * Keeps the keyboard focus at the table although every render builds its controls anew:
 * `restore()` (after a render) moves the focus, if the focused control was replaced or
 * became disabled, to its new copy (the same card, button or meld), else to the card at
 * the same place in the hand, else to the hand's current card. Focus in the dialog or
 * outside the table is left alone.
 */
export function focusKeeper(root, hand) {
  let last = null;
  let lastKey = null;
  let lastPlace = 0;
  root.addEventListener("focusin", (e) => {
    if (e.target.closest("dialog")) return;
    last = e.target;
    lastKey = focusKey(e.target);
    if (lastKey.testid === "hand-card") lastPlace = [...hand.children].indexOf(e.target);
  });
  return function restore() {
    if (!last || (last.isConnected && !last.disabled)) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== last) return;
    if (root.querySelector("dialog[open]")) return;
    const same = [...root.querySelectorAll(`[data-testid="${lastKey.testid}"]`)].find(
      (el) => focusKey(el).card === lastKey.card && focusKey(el).index === lastKey.index,
    );
    const cards = [...hand.children];
    const target = [same, lastKey.testid === "hand-card" ? cards[Math.min(lastPlace, cards.length - 1)] : null, hand.querySelector('[tabindex="0"]'), cards[0]].find(focusable);
    if (target) target.focus({ preventScroll: true });
  };
}

/**
 * The hand as one stop of the Tab key (a "roving tabindex"): the card `current` (a card
 * id, else the first card) takes the focus, the arrow keys and Home/End move it along the
 * hand; Enter and Space press the card (it is a button). Call after each render of the hand.
 */
export function rovingHand(hand, current) {
  const cards = [...hand.children].filter((el) => el.dataset.testid === "hand-card");
  const chosen = cards.find((el) => el.dataset.card === String(current)) ?? cards[0];
  for (const el of cards) el.tabIndex = el === chosen ? 0 : -1;
}

/** Arrow keys, Home and End move the focus along the hand's cards (see `rovingHand`). */
export function handKeys(hand, onMove = null) {
  hand.addEventListener("keydown", (e) => {
    const cards = [...hand.querySelectorAll("[data-testid=hand-card]")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (step && e.shiftKey && onMove) {
      e.preventDefault();
      onMove(cards[i], step);
      return;
    }
    let j = null;
    if (step) j = Math.max(0, Math.min(cards.length - 1, i + step));
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = cards.length - 1;
    if (j === null) return;
    e.preventDefault();
    for (const el of cards) el.tabIndex = el === cards[j] ? 0 : -1;
    cards[j].focus();
  });
}

/** A value kept in the browser (localStorage), or `fallback` (none, or no storage). */
export function loadStored(key, fallback) {
  try {
    const text = window.localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** Keep a value in the browser; `null` removes it. Without storage (private mode) the
 * table works the same, it only forgets at a reload. */
export function saveStored(key, value) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // no storage: nothing is kept
  }
}

/** The key under which the four-colour choice is kept (both tables share it). */
const COLOURS_KEY = "card-colours";

/**
 * The button that switches the four-colour deck on and off (clubs green, diamonds blue,
 * hearts red, spades black): a class on the table's root (`is-four-colour`), the choice
 * kept in the browser for every table. Returns the button to place.
 */
export function fourColourToggle(root, prefix, T) {
  const apply = (on) => {
    root.classList.toggle("is-four-colour", on);
    button.setAttribute("aria-pressed", String(on));
  };
  const button = h("button", {
    type: "button",
    class: `${prefix}-btn ${prefix}-btn-ghost ${prefix}-colours`,
    "data-testid": "btn-colours",
    text: T.four_colours,
    onclick: () => {
      const on = !root.classList.contains("is-four-colour");
      saveStored(COLOURS_KEY, on ? "four" : "two");
      apply(on);
    },
  });
  apply(loadStored(COLOURS_KEY, "two") === "four");
  return button;
}

// --- Pieces both tables build the same way ------------------------------------------------

/** The table's element by its data-testid: `const $ = byTestid(root)`, then `$("hand")`. */
export const byTestid = (root) => (testid) => root.querySelector(`[data-testid="${testid}"]`);

/** The card names of table-cards.js (`cardName`, `shortLabel`) from the page's strings `T`;
 * `joker` is the joker's name ("" at a table without jokers). */
export const cardNames = (T, joker) => ({
  letters: T.rank_letters.split(","),
  ranks: T.rank_names.split(","),
  suits: T.suit_names.split(","),
  joker,
  format: T.card_name,
  short: T.card_short,
});

/** The table's buttons (`prefix` "jk" or "kj"): `button(testid, text, onclick, extra)`,
 * `extra` more attributes (its `class` replaces the plain `<prefix>-btn`). */
export const tableButton = (prefix) => (testid, text, onclick, extra = {}) =>
  h("button", { type: "button", class: `${prefix}-btn`, "data-testid": testid, onclick, ...extra }, text);

/**
 * Who sits where and whose turn it is, read from the page's `state` (`game`: the payload,
 * `obs`: the shown observation, `busy`): South's `seat()`, a seat's name, the observation's
 * `phase` and `currentPlayer` (none once the round is over), whether the game is still
 * `playing`, `myTurn` (South to move and the tournament's window open: the payload's
 * `your_turn` is false once it has closed) and `canAct` (South's turn, no move under way).
 */
export function turnReader(state) {
  const seat = () => state.game.seat ?? 0;
  const seatName = (s) => (state.game.seat_names || [])[s] ?? `#${s}`;
  const phase = (o = state.obs) => o.phase;
  const currentPlayer = (o = state.obs) => (o.is_terminal ? null : o.current_player);
  const playing = () => state.game.status === "playing";
  const myTurn = () => playing() && currentPlayer() === seat() && state.game.your_turn !== false;
  const canAct = () => myTurn() && !state.busy;
  return { seat, seatName, phase, currentPlayer, playing, myTurn, canAct };
}

/** The hand's focused card is kept in `state.focusCard`: it takes the focus at the next
 * render (`rovingHand`). */
export function followHandFocus(hand, state) {
  hand.addEventListener("focusin", (e) => {
    if (e.target.dataset.testid === "hand-card") state.focusCard = Number(e.target.dataset.card);
  });
}

/** A practice game's two buttons (`help` from `practiceHelp`): the tip, while South may
 * act, and undo, while no move is under way and South has `moved()` in the round. */
export function practiceButtons({ prefix, T, help, state, canAct, moved }) {
  const button = tableButton(prefix);
  const ghost = `${prefix}-btn ${prefix}-btn-ghost`;
  return [
    button("btn-hint", T.hint, help.hint, { class: ghost, title: T.hint_title, disabled: !canAct() }),
    button("btn-undo", T.undo, help.undo, { class: ghost, title: T.undo_title, disabled: state.busy || !moved() }),
  ];
}

/**
 * The end of a round in the table's `dialog`: the title "Ronde n voorbij", the table's
 * own `body` (its nodes, in order) and the button that goes on (to the next round, or at
 * the game's end to the result). Screen readers hear the title and the `said` lines.
 * Resolves when the dialog closes (the button, or Escape).
 */
export function showRoundDialog({ root, dialog, T, prefix, event, isLast, body, said = [] }) {
  const title = fmt(T.round_over, { round: (event.round ?? 0) + 1 });
  const button = tableButton(prefix);
  return new Promise((resolve) => {
    dialog.replaceChildren(
      h("h2", { "data-testid": "round-over-title", text: title }),
      ...body.filter((node) => node !== null && node !== undefined), // a line the round lacks
      h(
        "div",
        { class: `${prefix}-dialog-buttons` },
        button("continue", isLast ? T.see_result : T.next_round, () => dialog.close(), { class: `${prefix}-btn ${prefix}-btn-primary`, autofocus: true }),
      ),
    );
    dialog.onclose = () => resolve();
    dialog.showModal();
    announce(root, [title, ...said].filter(Boolean).join(". "));
  });
}
