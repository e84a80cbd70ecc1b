// Live leaderboard: while a tournament runs, refresh the shown page of the board (and its
// name search) from the server every 20 s. The server renders the rows
// (views.tournament_leaderboard, the tournament page's own template), with only what this
// visitor may see: scores of the rounds they have finished, or names and progress only.
// When that changes (they finished another round in another tab) or the tournament
// closes, the page is loaded again so the per-deal tables follow too.
(function () {
  "use strict";
  const box = document.getElementById("leaderboard");
  if (!box || !box.dataset.liveUrl) return;
  const visibleRounds = box.dataset.visibleRounds || "0";

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
      const url = new URL(box.dataset.liveUrl, window.location.href);
      url.searchParams.set("page", box.dataset.page || "1");
      if (box.dataset.q) url.searchParams.set("q", box.dataset.q);
      if (box.dataset.ratings) url.searchParams.set("ratings", "1");
      const response = await fetch(url, { headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const html = await response.text();
      if (leaving) return;
      const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
      if (!fresh) return;
      if (fresh.dataset.closed || fresh.dataset.visibleRounds !== visibleRounds) {
        window.location.reload();
        return;
      }
      box.replaceChildren(...fresh.childNodes);
    } catch (err) {
      // offline for a moment: try again at the next tick
    }
  }
  // Every 20 s (the tests set window.JK_LEADERBOARD_MS to poll faster).
  window.setInterval(refresh, window.JK_LEADERBOARD_MS || 20000);
})();
