// How a card table plays: a move (moveSender: POST, 409 reload, the error line, the
// response's events one after another) and a practice game's tip and undo (practiceHelp),
// the same at every table. The calls of the play API and the little helpers they use are in
// table-common.js. No game rules here.

import { addRoundScores, announce, fetchGame, fmt, postMove, showEvents, showMessage, withDelta } from "./table-common.js";

/**
 * POST a move and sort the answer into one of: `{ moved: data }` (done: the events and the
 * new state), `{ stale: true }` (409: the game moved on elsewhere, reload it), `{ error }`
 * (nothing changed: the server's reason, else `T.server_error` with the status) or
 * `{ network: true }` (the server could not be reached).
 */
export async function tryMove(url, seq, action, T) {
  let answer;
  try {
    answer = await postMove(url, seq, action);
  } catch {
    return { network: true };
  }
  const { status, data } = answer;
  if (status >= 200 && status < 300 && data) return { moved: data };
  if (status === 409) return { stale: true };
  return {
    error: data?.error?.message ?? fmt(T.server_error, { status }),
    // a live evening's round whose slot has closed: the game is loaded again
    live: data?.error?.code === "live_round_not_open",
  };
}

/** A move's POST response without its `events`: the game payload as GET returns it. */
export function payloadOf(data) {
  const { events: _events, ...payload } = data;
  return payload;
}

/**
 * How a table plays a move; the same at every table. Returns `send(action)`: unless a move
 * is already under way (`state.busy`), it empties the error line, marks the table busy,
 * renders, POSTs the action to `root.dataset.movesUrl` and then, by the answer:
 * - moved: `forget()` (the player's half-made choices), then the response's events one
 *   after another, `delay()` ms apart (the bots' pace, table-pace.js): a move's changes are
 *   applied to the shown observation (`applyObservation(withDelta(state.obs, event))`,
 *   which sets `state.obs`), the table rendered and `afterMove(before)` awaited (`before`:
 *   the observation shown until then); at the pace "instant" (`delay()` 0) the changes are
 *   only applied, and the table is rendered once they all are (a round's end still
 *   renders first, so its moves are in the list before its dialog opens); a round over
 *   adds the round's scores to `state.game`, renders and awaits `roundOver(event, isLast)`
 *   (`isLast` when it ends the game). Then the table settles on the response's state.
 * - stale (409, the game moved on elsewhere): the game is loaded again from
 *   `root.dataset.apiUrl` (then `forget()`), and the error line says `T.stale`.
 * - refused (any other status): `refused()`, and the server's reason on the error line;
 *   nothing else changes.
 * - the server could not be reached: `T.network` on the error line; nothing else changes
 *   (the table is only rendered again, not its final result).
 * Last the table is no longer busy: `render()`, then `renderFinal()`.
 * `state` is the page's state: `game` (the GET payload), `obs` (the shown observation), `busy`;
 * the error line is the table's [data-testid=error] (templates/tournaments/_play_table.html).
 */
export function moveSender({
  root,
  state,
  T,
  delay,
  render,
  renderFinal,
  applyObservation,
  roundOver,
  afterMove = () => {},
  forget = () => {},
  refused = () => {},
}) {
  const error = root.querySelector('[data-testid="error"]');
  const say = (message) => showMessage(error, message);

  /** Show each event of a POST response in turn, then settle on the response's state. */
  async function playEvents(data) {
    const pause = delay();
    await showEvents(data, pause, {
      roundOver: async (event, isLast) => {
        state.game = addRoundScores(state.game, event.scores || []);
        render();
        await roundOver(event, isLast);
      },
      show: async (event) => {
        const before = state.obs;
        applyObservation(withDelta(state.obs, event));
        if (pause === 0) return;
        render();
        await afterMove(before);
      },
    });
    if (data.live_wait) {
      // A live evening: the next round opens for everyone at once; its lobby counts down.
      window.location.assign(data.live_wait.url);
      return;
    }
    state.game = payloadOf(data);
    // A move response leaves out the observation's log: the events just rebuilt it.
    if (!("log" in state.game.observation) && state.obs && "log" in state.obs) {
      state.game.observation = { ...state.game.observation, log: state.obs.log };
    }
    applyObservation(state.game.observation);
  }

  async function reload() {
    try {
      state.game = await fetchGame(root.dataset.apiUrl);
      if (state.game.live_wait) {
        window.location.assign(state.game.live_wait.url);
        return;
      }
      forget();
      applyObservation(state.game.observation);
    } catch {
      say(T.network);
    }
  }

  return async function send(action) {
    if (state.busy) return;
    say("");
    state.busy = true;
    render();
    const answer = await tryMove(root.dataset.movesUrl, state.game.seq, action, T);
    if (answer.network) {
      state.busy = false;
      say(T.network);
      render();
      return;
    }
    if (answer.moved) {
      forget();
      await playEvents(answer.moved);
    } else if (answer.stale) {
      await reload();
      say(T.stale);
    } else {
      refused();
      if (answer.live) await reload();
      say(answer.error);
    }
    state.busy = false;
    render();
    renderFinal();
  };
}

/**
 * A practice game's tip and undo (docs/api.md), the same for every table. Only a practice
 * game's page has `root.dataset.hintUrl` and `undoUrl` (play.html, play_klaverjas.html);
 * a tournament's table shows neither. `state.hint` is the tip shown ({seq, text}), kept
 * while the game is at that `seq`.
 * - `hint()`: GET the strong bot's choice in words, show and announce it; an error's
 *   reason goes on the table's error line.
 * - `undo()`: POST the game's `seq`: the server takes back South's last action of the
 *   round (and the bots' replies) and answers the game as it was before it; `forget()`
 *   drops what the table had selected, then the table settles on that game. A stale table
 *   (409) is loaded again from `root.dataset.apiUrl`.
 * - `tip()`: the tip's text while it belongs to the position shown, else `null`.
 */
export function practiceHelp({ root, state, T, render, renderFinal, applyObservation, canAct, forget = () => {} }) {
  const error = root.querySelector('[data-testid="error"]');
  const say = (message) => showMessage(error, message);
  const refused = (status, data) => data?.error?.message ?? fmt(T.server_error, { status });

  async function hint() {
    if (!canAct()) return;
    say("");
    try {
      const response = await fetch(root.dataset.hintUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      const data = await response.json().catch(() => null);
      if (!response.ok || !data) {
        say(refused(response.status, data));
        return;
      }
      state.hint = { seq: data.seq, text: data.text };
      render();
      announce(root, data.text);
    } catch {
      say(T.network);
    }
  }

  function settle(game) {
    forget();
    state.hint = null;
    state.game = game;
    applyObservation(game.observation);
  }

  async function undo() {
    if (state.busy || !root.dataset.undoUrl) return;
    say("");
    state.busy = true;
    render();
    let answer = null;
    try {
      answer = await postMove(root.dataset.undoUrl, state.game.seq, undefined);
    } catch {
      say(T.network);
    }
    if (answer && answer.status === 200 && answer.data) {
      settle(answer.data);
    } else if (answer && answer.status === 409) {
      try {
        settle(await fetchGame(root.dataset.apiUrl));
        say(T.stale);
      } catch {
        say(T.network);
      }
    } else if (answer) {
      say(refused(answer.status, answer.data));
    }
    state.busy = false;
    render();
    renderFinal();
  }

  return {
    enabled: () => Boolean(root.dataset.undoUrl),
    hint,
    undo,
    tip: () => (state.hint && state.hint.seq === state.game.seq ? state.hint.text : null),
  };
}
