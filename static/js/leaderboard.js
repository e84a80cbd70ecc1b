// Live leaderboard: while a tournament runs, refresh the table from the standings API.
(function () {
  "use strict";
  const box = document.getElementById("leaderboard");
  if (!box || !box.dataset.liveUrl) return;
  const fmt = new Intl.NumberFormat(document.documentElement.lang || "nl", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const me = box.dataset.me;
  const rounds = box.dataset.rounds;

  function cell(text, numeric) {
    const td = document.createElement("td");
    if (numeric) td.className = "num";
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
        tr.append(
          cell(s.rank === null ? "–" : String(s.rank), true),
          cell(s.player + (s.bot_finished ? " 🤖" : ""), false),
          cell(s.result === null ? "–" : fmt.format(s.result), true),
          cell(String(s.total), true),
          cell(fmt.format(s.opponents_average), true),
          cell(s.rounds_played + "/" + rounds, true),
        );
        return tr;
      }),
    );
  }

  async function refresh() {
    try {
      const response = await fetch(box.dataset.liveUrl, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const data = await response.json();
      if (data.closed) {
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
  window.setInterval(refresh, 20000);
})();
