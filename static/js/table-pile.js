// The Jokeren table's discard pile, browsable: who threw what this round (each seat's
// discards in throw order, the ones taken from the open pile struck through, the ones
// reshuffled into the stock marked), in a dialog of its own that the button "Weggegooid"
// or the key O opens. Read from the observation's public log only (public information).

import { fmt, h } from "./table-common.js";

/**
 * The round's discards per seat, in throw order, from the observation's public log (only
 * public information): each `{card, takenBy, reshuffled}`, `takenBy` the seat that took it
 * from the open pile, `reshuffled` when it went back into the closed stock with the pile.
 * The open pile is followed as a stack: a discard and a complete meld that leaves the
 * table onto the pile lie on top; a draw from the open pile takes its top card; a
 * reshuffle takes every card but the top one.
 */
export function discardsBySeat(log, seats) {
  const rows = Array.from({ length: seats }, () => []);
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

/**
 * The pile view of the table `root`: `state.obs` the shown observation, `T` the page's
 * strings, `seat()` South's seat, `seatName(s)`, `numSeats()`, `label(card)` a card's short
 * label, `cardFace(card, options)` and `button(...)` as the table draws them, `title()` the
 * round's label, `tableDialog` the table's own dialog (while it is open the key O does
 * nothing). Returns `render()` (again while the view is open) and `open()`.
 */
export function pileView({ root, state, T, seat, seatName, numSeats, label, cardFace, button, title, tableDialog }) {
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

  function render() {
    if (!pileDialog.open) return;
    const rows = discardsBySeat(state.obs.log, numSeats());
    pileDialog.replaceChildren(
      h("h2", { id: "jk-pile-title", text: `${T.discards_round} · ${title()}` }),
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

  function open() {
    if (pileDialog.open) return;
    pileDialog.showModal();
    render();
    pileDialog.querySelector("[data-testid=pile-close]")?.focus();
  }

  /** The key O (open pile) opens the pile view and closes it again; not while typing in a
   * field or while the table's own dialog (a round's end, a joker choice) is open. */
  document.addEventListener("keydown", (e) => {
    if (e.key !== "o" && e.key !== "O") return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (e.target.closest?.("input, select, textarea, [contenteditable]")) return;
    if (tableDialog.open) return;
    e.preventDefault();
    if (pileDialog.open) pileDialog.close();
    else open();
  });

  return { render, open };
}
