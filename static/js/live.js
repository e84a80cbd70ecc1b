// A live club evening's lobby (templates/tournaments/live.html): counts down to the next
// round's opening or to its slot's end, follows the evening by polling its status
// (api_tournament_live, answered from the server's cache) every few seconds, takes the
// board again when a slot has closed (the server renders it once for everyone and keeps
// it in its cache: views.tournament_live_board)
// and sends an entrant to their table the moment their round opens. No reload.
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const countdown = root.querySelector('[data-testid="countdown"]');
  const roundText = root.querySelector('[data-testid="live-round"]');
  const board = document.getElementById("live-board");
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((s, args) => s.replace("%(r)s", args.r).replace("%(n)s", args.n));
  // the server's clock minus ours: the countdown runs on the server's time
  let skew = 0;
  let status = {
    phase: root.dataset.phase,
    round: root.dataset.round === "" ? null : Number(root.dataset.round),
    at: root.dataset.at || null,
    board_rounds: Number(root.dataset.boardRounds || 0),
    rounds: null,
  };
  skew = Date.parse(root.dataset.now) - Date.now();
  let leaving = false;
  document.addEventListener("submit", () => {
    leaving = true;
  });

  function two(n) {
    return String(n).padStart(2, "0");
  }

  function tick() {
    if (!status.at) {
      countdown.textContent = "";
      return;
    }
    const left = Math.max(0, Math.round((Date.parse(status.at) - (Date.now() + skew)) / 1000));
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = left % 60;
    countdown.textContent = h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }

  function showPhase() {
    root.dataset.phase = status.phase;
    for (const el of root.querySelectorAll("[data-phase-text]")) {
      el.hidden = el.dataset.phaseText !== status.phase;
    }
    if (status.round !== null && status.rounds) {
      roundText.textContent = interpolate(gettext("round %(r)s of %(n)s"), { r: status.round + 1, n: status.rounds }, true);
    } else if (status.round === null) {
      roundText.textContent = "";
    }
  }

  async function takeBoard() {
    try {
      const response = await fetch(root.dataset.boardUrl, { headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const html = await response.text();
      const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
      if (fresh) board.replaceChildren(...fresh.childNodes);
    } catch (err) {
      // offline for a moment: the next poll tries again
    }
  }

  async function poll() {
    if (leaving) return;
    let fresh;
    try {
      const response = await fetch(root.dataset.statusUrl, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) return;
      fresh = await response.json();
    } catch (err) {
      return;
    }
    skew = Date.parse(fresh.now) - Date.now();
    // a slot closed, or the evening closed (its board is final now)
    const boardChanged = fresh.board_rounds !== status.board_rounds || (fresh.phase === "over" && status.phase !== "over");
    status = fresh;
    root.dataset.boardRounds = String(fresh.board_rounds);
    showPhase();
    tick();
    const mine = root.dataset.myRound;
    if (status.phase === "playing" && root.dataset.playUrl && mine !== undefined && status.round >= Number(mine)) {
      leaving = true;
      window.location.assign(root.dataset.playUrl);
      return;
    }
    if (boardChanged) await takeBoard();
  }

  tick();
  window.setInterval(tick, 1000);
  // Every 2 s (the tests set window.JK_LIVE_MS to poll faster).
  window.setInterval(poll, window.JK_LIVE_MS || 2000);
  poll();
})();
