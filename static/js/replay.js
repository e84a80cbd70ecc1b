// Replay: step through the frames of one round (every seat's hand is open here).
(function () {
  "use strict";
  const frames = JSON.parse(document.getElementById("replay-frames").textContent);
  const names = JSON.parse(document.getElementById("replay-seat-names").textContent);
  const lang = (document.documentElement.lang || "nl").slice(0, 2);
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const RANK = "A23456789TJQK";
  const SUIT = "cdhs";
  let index = 0;

  function code(card) {
    // A card id of a Jokeren pack (0..107), or a code ("7h", "**"), or {code: ...}.
    if (card && typeof card === "object" && "code" in card) return card.code;
    if (typeof card === "string") return card;
    const k = card % 54;
    if (k >= 52) return "**";
    return RANK[k % 13] + SUIT[Math.floor(k / 13)];
  }

  function cardSpan(card) {
    const c = code(card);
    const span = document.createElement("span");
    if (c === "**") {
      span.textContent = "🃏";
    } else {
      const rank = c[0] === "T" ? "10" : c[0];
      span.textContent = rank + (SUITS[c[1]] || c[1]);
      if (c[1] === "d" || c[1] === "h") span.className = "red";
    }
    return span;
  }

  function cards(list) {
    const box = document.createElement("span");
    box.className = "cards";
    (list || []).forEach((c, i) => {
      if (i) box.append(" ");
      box.append(cardSpan(c));
    });
    return box;
  }

  function line(label, value) {
    const p = document.createElement("p");
    const b = document.createElement("strong");
    b.textContent = label + ": ";
    p.append(b, value);
    return p;
  }

  function renderTable(obs) {
    const view = document.getElementById("table-view");
    view.replaceChildren();
    if (typeof obs.current_player === "number") {
      view.append(line(gettext("To move"), names[obs.current_player]));
    }
    if ("stock_count" in obs) view.append(line(gettext("Closed stock"), String(obs.stock_count)));
    if ("open_top" in obs) {
      view.append(line(gettext("Open pile"), obs.open_top === null ? "–" : cardSpan(obs.open_top)));
    }
    const melds = obs.table || obs.melds;
    if (Array.isArray(melds)) {
      const list = document.createElement("ul");
      melds.forEach((m) => {
        const li = document.createElement("li");
        const owner = typeof m.owner === "number" ? names[m.owner] + ": " : "";
        li.append(owner, cards(m.cards || m));
        list.append(li);
      });
      view.append(line(gettext("Melds on the table"), melds.length ? "" : "–"), list);
    }
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = gettext("Everything South could see (JSON)");
    const pre = document.createElement("pre");
    pre.className = "obs";
    pre.textContent = JSON.stringify(obs, null, 1);
    details.append(summary, pre);
    view.append(details);
  }

  function render() {
    const frame = frames[index];
    document.getElementById("position").textContent = index + " / " + (frames.length - 1);
    const text = lang === "en" ? frame.text_en : frame.text_nl;
    document.querySelector("#action-text strong").textContent =
      text || gettext("The deal");
    const seats = document.getElementById("seats");
    seats.replaceChildren(
      ...frame.observations.map((obs, seat) => {
        const box = document.createElement("div");
        box.className = "replay-seat" + (frame.seat === seat ? " active" : "");
        const title = document.createElement("strong");
        title.textContent = names[seat];
        // The engines give the hand's codes ("7h") beside its ids; use them when there.
        box.append(title, document.createElement("br"), cards(obs.hand_codes || obs.hand));
        return box;
      }),
    );
    renderTable(frame.observations[0]);
  }

  function go(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    render();
  }
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(index - 1));
  document.getElementById("next").addEventListener("click", () => go(index + 1));
  document.getElementById("last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(index + 1);
    if (e.key === "ArrowLeft") go(index - 1);
  });
  render();
})();
