// Recompute the commitment in the browser: SHA-256 of the revealed secret's bytes.
(async function () {
  "use strict";
  const secretEl = document.getElementById("secret");
  const out = document.getElementById("browser-hash");
  const verdict = document.getElementById("browser-verdict");
  if (!secretEl || !out || !window.crypto || !window.crypto.subtle) return;
  const hex = secretEl.textContent.trim();
  const bytes = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
  const digest = await window.crypto.subtle.digest("SHA-256", bytes);
  const result = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  out.textContent = result;
  const ok = result === document.getElementById("commitment").textContent.trim();
  verdict.className = ok ? "ok" : "bad";
  verdict.textContent = ok ? "✔ " + gettext("matches the commitment") : "✘ " + gettext("does NOT match the commitment");
})();
