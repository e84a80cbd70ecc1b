// Live leaderboard: while a tournament runs, refresh the shown page of the table from the
// paginated standings API, which
// gives only what this visitor may see (docs/api.md): scores of the rounds they have
// finished, or names and progress only. When that changes (they finished another round in
// another tab), the page is loaded again so the per-deal tables follow too.
(function () {
  "use strict";
  const box = document.getElementById("leaderboard");
  if (!box || !box.dataset.liveUrl) return;
  const fmt = new Intl.NumberFormat(document.documentElement.lang || "nl", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const pct = new Intl.NumberFormat(document.documentElement.lang || "nl", {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  // A difference against par with its sign, as the server renders it ("+1,50", "−2,00").
  const signed = (v) =>
    v == null ? "–" : (v > 1e-9 ? "+" : v < -1e-9 ? "−" : "") + fmt.format(Math.abs(v));
  const me = box.dataset.me;
  const rounds = box.dataset.rounds;
  const visibleRounds = Number(box.dataset.visibleRounds || 0);

  // A cell as the server renders it (class and test id included, so a refreshed row is
  // the same row).
  function cell(text, numeric, testid) {
    const td = document.createElement("td");
    if (numeric) td.className = "num";
    if (testid) td.dataset.testid = testid;
    td.textContent = text;
    return td;
  }

  function render(rows) {
    const tbody = box.querySelector("tbody");
    if (!tbody) return;
    tbody.replaceChildren(
      ...rows.filter((s) => !s.under_review).map((s) => {
        const tr = document.createElement("tr");
        if (s.player === me) tr.className = "me";
        const name = s.player + (s.bot_account ? " BOT" : "") + (s.bot_rounds.length || s.bot_finished ? " 🤖" : "");
        if (visibleRounds > 0) {
          tr.append(
            cell(s.rank === null ? "–" : String(s.rank), true),
            cell(name, false),
            cell(s.result === null ? "–" : fmt.format(s.result), true),
            cell(s.percentage == null ? "–" : pct.format(s.percentage) + "%", true, "avg-percentage"),
            cell(signed(s.vs_par), true, "vs-par"),
            cell(s.total === null ? "–" : String(s.total), true),
            cell(s.opponents_average === null ? "–" : fmt.format(s.opponents_average), true),
            ...(s.parts || []).map((p) => cell(p === null ? "–" : fmt.format(p), true, "part-result")),
            cell(s.rounds_played + "/" + rounds, true),
          );
        } else {
          tr.append(cell(name, false), cell(s.rounds_played + "/" + rounds, true));
        }
        return tr;
      }),
    );
  }

  // Once the visitor submits a form (join, close) or leaves, the page is on its way out: a
  // reload now would cancel that navigation (the join's redirect to the table).
  let leaving = false;
  document.addEventListener("submit", () => {
    leaving = true;
  });
  window.addEventListener("pagehide", () => {
    leaving = true;
  });

  async function refresh() {
    if (leaving) return;
    try {
      // The page of the board this visitor is looking at (and their name search).
      const url = new URL(box.dataset.liveUrl, window.location.href);
      url.searchParams.set("page", box.dataset.page || "1");
      if (box.dataset.q) url.searchParams.set("q", box.dataset.q);
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const data = await response.json();
      if (leaving) return;
      if (data.closed || data.visible_rounds !== visibleRounds) {
        window.location.reload();
        return;
      }
      if (data.standings.length && !box.querySelector("tbody")) {
        window.location.reload();
        return;
      }
      render(data.standings);
    } catch (err) {
      // offline for a moment: try again at the next tick
    }
  }
  // Every 20 s (the tests set window.JK_LEADERBOARD_MS to poll faster).
  window.setInterval(refresh, window.JK_LEADERBOARD_MS || 20000);
})();
