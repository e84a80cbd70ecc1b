// The Jokeren table's scores: the score panel (each round's points per seat, with the
// subtotals and part totals of the score sheet), the glance at the top of the felt (the
// round and the running totals, for a phone) and the dialog at a round's end (the round's
// points, the running totals and every seat's revealed hand). The points are the server's (the
// payload's `round_scores` and `totals`, the round-over event's `scores`); this module only
// lays them out.

import { byTestid, fmt, h, roundLabel, showGlance, showRoundDialog } from "./table-common.js";
import { sortHand } from "./table-cards.js";

/**
 * The scores of the table `root`: `state` the page's state (`game`, `obs`, `sortMode`), `T`
 * the page's strings, `seat()` South's seat, `seatName(s)`, `cardFace(card, options)` as
 * the table draws a card and `handOrderOf(cards)` South's cards in the order of the hand.
 * Returns `render()` (the score panel), `renderGlance(roundIndex)` (the round and the
 * running totals at the top of the felt) and `showRoundOver(event, isLast)` (resolves when
 * the player continues).
 */
export function jokerenScores({ root, state, T, seat, seatName, cardFace, handOrderOf }) {
  const $ = byTestid(root);

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

  function render() {
    const box = $("scores");
    box.replaceChildren(scoreTable(state.game.round_scores || [], state.game.totals || []));
  }

  /** The glance at the top of the felt: "Ronde 4 van 8" and every seat's running total. */
  function renderGlance(roundIndex) {
    const totals = state.game.totals || [];
    const seats = (state.game.seat_names || []).map((_, s) => `${seatName(s)} ${totals[s] ?? 0}`);
    showGlance(root, "jk", roundLabel(T, state.game, roundIndex), [["glance-totals", `${T.total}: ${seats.join(" · ")}`]]);
  }

  /** Show the round's scores, the running totals and the cards left (every hand where
   *  they may be shown); resolves when the player continues. */
  function showRoundOver(event, isLast) {
    const scores = event.scores || [];
    // The running totals after this round (the table added the round's scores before).
    const totals = state.game.totals || [];
    // Your hand as it lay in your hand (your order or sort); the others sorted the same way.
    // Every hand where the round's end may show them (docs/rules.md, "The card table",
    // rule 2), else your own cards (the round's last observation) and the others' count.
    const shown = (event.hands || []).length > 0;
    const counts = event.hand_counts || (event.hands || []).map((cards) => cards.length);
    const hands = shown
      ? event.hands.map((cards, s) => (s === seat() ? handOrderOf(cards) : sortHand(cards, state.sortMode)))
      : scores.map((_, s) => (s === seat() ? handOrderOf(state.obs.hand || []) : null));
    const left = (s) => (counts[s] === 1 ? T.one_card : fmt(T.n_cards, { n: counts[s] ?? 0 }));
    const cardsOf = (s) =>
      hands[s] === null
        ? h("span", { class: "jk-cards-left", "data-testid": `round-count-${s}`, text: left(s) })
        : h("span", { class: "jk-reveal", "data-testid": `round-hand-${s}` }, hands[s].map((c) => cardFace(c, { small: true, attrs: { "data-card": c } })));
    const o = state.obs;
    let outcome = "";
    if (o.winner !== null && o.winner !== undefined) outcome = fmt(T.winner, { name: seatName(o.winner) });
    else if (o.end_reason === "stock") outcome = T.end_stock;
    else if (o.end_reason === "turn_limit") outcome = T.end_turn_limit;
    const body = [
      outcome ? h("p", { class: "jk-outcome", "data-testid": "round-outcome", text: outcome }) : null,
      h(
        "table",
        { class: "jk-score-table jk-round-table", "data-testid": "round-scores" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: T.points }), h("th", { scope: "col", text: T.total }), h("th", { scope: "col", text: T.revealed_hands }))),
        h(
          "tbody",
          {},
          scores.map((p, s) =>
            h("tr", { class: s === seat() ? "is-yours" : "" },
              h("th", { scope: "row", text: seatName(s) }),
              h("td", { class: "jk-points", "data-testid": `round-score-${s}`, text: String(p) }),
              h("td", { class: "jk-points jk-running", "data-testid": `round-total-${s}`, text: String(totals[s] ?? p) }),
              h("td", {}, cardsOf(s)),
            ),
          ),
        ),
      ),
    ];
    return showRoundDialog({ root, dialog: $("dialog"), T, prefix: "jk", event, isLast, body, said: [outcome] });
  }

  return { render, renderGlance, showRoundOver };
}
