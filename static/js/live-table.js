// The card table in a live club evening (templates/tournaments/_play_table.html,
// [data-testid=live-slot]): counts down to the end of the round's slot on the server's
// clock, follows the evening by polling its status (api_tournament_live, from the server's
// cache) and, once the slot has ended for everyone, takes the player to the lobby: the
// bot finishes what was left of the round (it does not count) and the next round opens
// there. Not while the round-over dialog is open: its "continue" goes to the lobby itself.
(function () {
  "use strict";
  const line = document.querySelector('[data-testid="live-slot"]');
  if (!line) return;
  const countdown = line.querySelector('[data-testid="live-countdown"]');
  const round = Number(line.dataset.round);
  let skew = 0;
  let until = null;
  let leaving = false;
  window.addEventListener("pagehide", () => {
    leaving = true;
  });

  function two(n) {
    return String(n).padStart(2, "0");
  }

  function tick() {
    if (!until) return;
    const left = Math.max(0, Math.round((Date.parse(until) - (Date.now() + skew)) / 1000));
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = left % 60;
    countdown.textContent = h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  }

  function dialogOpen() {
    const dialog = document.querySelector('[data-testid="dialog"]');
    return Boolean(dialog && dialog.open);
  }

  async function poll() {
    if (leaving) return;
    let status;
    try {
      const response = await fetch(line.dataset.statusUrl, { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!response.ok) return;
      status = await response.json();
    } catch (err) {
      return;
    }
    skew = Date.parse(status.now) - Date.now();
    if (status.phase === "playing" && status.round === round) {
      until = status.at;
      tick();
      return;
    }
    // the slot of this round has ended (or the evening is over): to the lobby
    if (status.phase !== "lobby" && !dialogOpen()) {
      leaving = true;
      window.location.assign(line.dataset.lobbyUrl);
    }
  }

  window.setInterval(tick, 1000);
  window.setInterval(poll, window.JK_LIVE_MS || 2000);
  poll();
})();
