// The Jokeren table's melds as South makes them in a turn: the selected cards read as a new
// meld (the engine's readings, a joker's choice), melds staged ("Setje toevoegen") and laid
// down together, a card laid off onto a meld on the table or swapped for its joker. No rule
// here: what fits is the observation's legal_actions and the meld-readings API (docs/api.md).

import { byTestid, h } from "./table-common.js";
import { cardInfo, cardName, shortLabel, sortHand } from "./table-cards.js";

/**
 * The meld choices of the table `root`: `state` the page's state (`obs`, `selected`,
 * `staged`, `choice`, `readings`, `mode`, `sortMode`), `T` the page's strings, `names` the
 * card names, `canAct()`, `render()`, `send(action)` (a move), `cardFace` and `button` as the
 * table draws them. Returns what the table's buttons and melds call.
 */
export function meldChoices({ root, state, T, names, canAct, render, send, cardFace, button }) {
  const $ = byTestid(root);

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

  function optionLabel(option) {
    const cards = option.cards
      .map((c, i) => (option.stands_for[i] ? `[${shortLabel(option.stands_for[i], names.letters, names.short)}]` : shortLabel(cardInfo(c).code, names.letters, names.short)))
      .join(" ");
    return `${T[option.kind]}: ${cards}`;
  }

  /** The choice between the readings of the selection (a joker's meaning). */
  function jokerChoice(options) {
    if (state.choice >= options.length) state.choice = 0;
    const select = h(
      "select",
      { "data-testid": "joker-choice", id: "jk-joker-choice", onchange: (e) => { state.choice = Number(e.target.value); } },
      options.map((o, i) => h("option", { value: i, selected: i === state.choice }, optionLabel(o))),
    );
    return h("label", { class: "jk-choice", for: "jk-joker-choice" }, h("span", { text: T.joker_is }), select);
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

  /** A meld on the table clicked while laying off or swapping: the move onto meld `index`. */
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
          h("span", { text: cardName(code, names) }),
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

  return {
    selectedActions,
    targets,
    selectionOptions,
    jokerChoice,
    enterMode,
    cancelMode,
    layDown,
    layStaged,
    stageSelection,
    unstage,
    pickMeld,
  };
}
