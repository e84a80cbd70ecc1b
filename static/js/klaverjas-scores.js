// The Klaverjas table's scores: the running count of the deal being played ("now": tricks,
// card points and roem per team), the score sheet of the finished rounds ("boom": each
// round's score with its roem, nat and pit marked) and the dialog at a round's end. The
// points are the server's (the observation's `result`, the payload's `round_scores`); this
// module only lays them out, for "we" (South and North) and "they".
//
// The breakdown of finished rounds (card points, roem, nat, pit) is in the observation at
// the end of a round only; the payload keeps just the scores. It is kept per game in the
// browser so the score sheet can show it after the next round starts (and after reloads).

import { byTestid, fmt, h, roundLabel, showGlance, showRoundDialog } from "./table-common.js";

/**
 * The score panels of the table `root` (its "now" and "boom" boxes and its dialog):
 * `state` is the page's state (`game`, `obs`), `T` the page's strings, `seat()` South's
 * seat, `teamOf(seat)` a seat's team (0 or 1) and `teamName(team)` "Wij" or "Zij".
 * Returns `renderNow()`, `renderBoom()`, `renderGlance(roundIndex, ...extra)` (the round and
 * the running totals at the top of the felt), `keepDetail(obs)` (keep a finished round's
 * breakdown) and `showRoundOver(event, isLast)` (resolves when the player continues).
 */
export function klaverjasScores({ root, state, T, seat, teamOf, teamName }) {
  const $ = byTestid(root);
  const details = loadDetails();

  function detailsKey() {
    return `kj-rounds-${root.dataset.gameId || state.game?.id || ""}`;
  }

  function loadDetails() {
    try {
      return JSON.parse(window.localStorage.getItem(`kj-rounds-${root.dataset.gameId}`) || "{}") || {};
    } catch {
      return {};
    }
  }

  /** The breakdown of finished round `r`: from the payload if the server sends it
   * (`round_results`), else as kept in this browser. */
  function detailOf(r) {
    const sent = state.game.round_results?.[r];
    if (sent) return sent;
    const kept = details[r];
    const row = (state.game.round_scores || [])[r];
    // Only a breakdown that matches the round's recorded scores (never a stale one).
    if (!kept || !row || kept.scores?.[0] !== row[0] || kept.scores?.[1] !== row[1]) return null;
    return kept;
  }

  function keepDetail(o) {
    if (!o || !o.is_terminal || !o.result) return;
    details[o.round_index] = o.result;
    try {
      window.localStorage.setItem(detailsKey(), JSON.stringify(details));
    } catch {
      // Storage may be unavailable (private mode): the sheet then shows the scores only.
    }
  }

  /** This deal's tricks won, per team. */
  function tricksWon(o = state.obs) {
    const won = [0, 0];
    for (const t of o.tricks || []) won[teamOf(t.winner)] += 1;
    return won;
  }

  /** The glance at the top of the felt (for a phone): the round, the running totals "Wij"
   * and "Zij", this deal's tricks and card points, and `extra` (the last trick's button). */
  function renderGlance(roundIndex, ...extra) {
    const o = state.obs;
    const totals = state.game.totals || [0, 0];
    const us = teamOf(seat());
    const won = tricksWon(o);
    const points = o.points || [0, 0];
    const pair = (v) => `${v[us] ?? 0}–${v[1 - us] ?? 0}`;
    showGlance(
      root,
      "kj",
      roundLabel(T, state.game, roundIndex),
      [
        ["glance-totals", `${T.total}: ${T.we} ${totals[us] ?? 0} · ${T.they} ${totals[1 - us] ?? 0}`],
        ["glance-deal", `${T.tricks_won} ${pair(won)} · ${T.card_points} ${pair(points)}`],
      ],
      ...extra,
    );
  }

  function renderNow() {
    const o = state.obs;
    const won = tricksWon(o);
    const points = o.points || [0, 0];
    const roem = o.roem || [0, 0];
    const row = (title, cells, testid) =>
      h("tr", {}, h("th", { scope: "row", text: title }), cells.map((c, t) => h("td", { "data-testid": `${testid}-${t}`, text: String(c) })));
    $("now").replaceChildren(
      h(
        "table",
        { class: "kj-now-table" },
        h("thead", {}, h("tr", {}, h("th", { text: "" }), h("th", { scope: "col", text: T.we }), h("th", { scope: "col", text: T.they }))),
        h(
          "tbody",
          {},
          row(T.tricks_won, won, "tricks-won"),
          row(T.card_points, points, "points"),
          row(T.roem, roem, "roem"),
        ),
      ),
    );
  }

  /** One cell of the score sheet: the score, its roem, and nat or pit marked. */
  function boomCell(score, detail, team, testid) {
    const marks = [];
    if (detail) {
      if (detail.roem?.[team]) marks.push(h("span", { class: "kj-mark kj-mark-roem", text: `${T.roem} ${detail.roem[team]}` }));
      if (detail.nat && detail.playing_team === team) marks.push(h("span", { class: "kj-mark kj-mark-nat", "data-testid": "mark-nat", text: T.nat }));
      if (detail.pit_team === team) marks.push(h("span", { class: "kj-mark kj-mark-pit", "data-testid": "mark-pit", text: T.pit }));
    }
    const playingHere = detail && detail.playing_team === team;
    return h("td", { class: playingHere ? "is-playing" : "", "data-testid": testid }, h("span", { class: "kj-score", text: String(score) }), marks);
  }

  function renderBoom() {
    const rows = state.game.round_scores || [];
    const totals = state.game.totals || [0, 0];
    const us = teamOf(seat());
    const them = 1 - us;
    $("boom").replaceChildren(
      h(
        "table",
        { class: "kj-boom-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: T.round }), h("th", { scope: "col", text: T.we }), h("th", { scope: "col", text: T.they }))),
        h(
          "tbody",
          {},
          rows.map((r, i) => {
            const detail = detailOf(i);
            return h(
              "tr",
              { "data-testid": "boom-row" },
              h("th", { scope: "row", text: String(i + 1) }),
              boomCell(r[us], detail, us, `boom-${i}-we`),
              boomCell(r[them], detail, them, `boom-${i}-they`),
            );
          }),
        ),
        h(
          "tfoot",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "row", text: T.total }),
            h("td", { "data-testid": "total-we", text: String(totals[us] ?? 0) }),
            h("td", { "data-testid": "total-they", text: String(totals[them] ?? 0) }),
          ),
        ),
      ),
    );
  }

  /** Show a finished round's score; resolves when the player continues. */
  function showRoundOver(event, isLast) {
    const detail = event.result ?? detailOf(event.round);
    const scores = event.scores || [];
    const us = teamOf(seat());
    const teams = [us, 1 - us];
    const notes = [];
    if (detail?.nat) notes.push(fmt(T.nat_text, { team: teamName(detail.playing_team) }));
    if (detail && detail.pit_team !== null && detail.pit_team !== undefined) {
      notes.push(fmt(T.pit_text, { team: teamName(detail.pit_team), bonus: state.game.variant?.pit ?? 100 }));
    }
    const row = (title, values, testid) =>
      h("tr", {}, h("th", { scope: "row", text: title }), values.map((v, i) => h("td", { "data-testid": testid ? `${testid}-${i}` : null, text: String(v) })));
    const body = [
      detail
        ? h("p", { class: "kj-outcome", text: `${T.playing_team}: ${teamName(detail.playing_team)}` })
        : null,
      h(
        "table",
        { class: "kj-round-table", "data-testid": "round-scores" },
        h("thead", {}, h("tr", {}, h("th", { text: "" }), teams.map((t) => h("th", { scope: "col", text: teamName(t) })))),
        h(
          "tbody",
          {},
          detail ? row(T.card_points, teams.map((t) => detail.points[t]), null) : null,
          detail ? row(T.roem, teams.map((t) => detail.roem[t]), null) : null,
          h(
            "tr",
            { class: "kj-round-score" },
            h("th", { scope: "row", text: T.score }),
            teams.map((t, i) => h("td", { "data-testid": `round-score-${i}`, text: String(scores[t] ?? 0) })),
          ),
        ),
      ),
      ...notes.map((n) => h("p", { class: "kj-outcome kj-outcome-mark", "data-testid": "round-note", text: n })),
    ];
    return showRoundDialog({ root, dialog: $("dialog"), T, prefix: "kj", event, isLast, body, said: notes });
  }

  return { renderNow, renderBoom, renderGlance, keepDetail, showRoundOver };
}
