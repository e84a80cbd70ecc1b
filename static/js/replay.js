// Replay: step through the frames of one round (every seat's hand is open here).
//
// The page embeds the frames small (tournaments/selectors/replay.py replay_frames_json): per
// frame the action, every seat's hand as codes ("7h", "**") and only what changed on the
// table since the frame before, in the move events' one delta format ("set": new values,
// "splice": [start, removed, items] of a list; docs/api.md). The full table view of each
// frame is rebuilt here once, in order, with the table's own `withDelta`. The seats' hands are
// card faces sorted as at the table (table-cards.js: the same faces and order).

import { cardFace, shortLabel, sortHand, sortKlaverjasHand } from "./table-cards.js";
import { withDelta } from "./table-common.js";

(function () {
  "use strict";
  const frames = JSON.parse(document.getElementById("replay-frames").textContent);
  const names = JSON.parse(document.getElementById("replay-seat-names").textContent);
  const T = JSON.parse(document.getElementById("replay-strings").textContent);
  const lang = (document.documentElement.lang || "nl").slice(0, 2);
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const RANK = "A23456789TJQK";
  const SUIT = "cdhs";
  const KJ_RANK = "789TJQKA";
  const SUIT_NAMES = T.suit_names.split(",");
  const fmt = (text, vars) => text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? vars[k] : m));
  const CARD_NAMES = {
    letters: T.rank_letters.split(","),
    ranks: T.rank_names.split(","),
    suits: SUIT_NAMES,
    joker: T.joker,
    format: T.card_name,
    short: T.card_short,
  };

  // The full table view after each frame, from the deltas.
  const views = [];
  frames.forEach((frame, i) => views.push(withDelta(i ? views[i - 1] : {}, frame)));
  const klaverjas = views.length > 0 && views[0].game === "klaverjas";
  let index = 0;
  // The Jokeren table's sort (by suit or by rank), as the player last chose it there.
  const sortMode = (() => {
    try {
      return window.localStorage.getItem("jk-sort") === "rank" ? "rank" : "suit";
    } catch {
      return "suit";
    }
  })();

  /** A seat's hand as card faces, sorted as the table sorts it. */
  function handFaces(hand, obs) {
    const sorted = klaverjas ? sortKlaverjasHand(hand, obs.trump || null) : sortHand(hand, sortMode);
    const prefix = klaverjas ? "kj" : "jk";
    const box = el("div", null, { class: "replay-hand", "data-testid": "replay-hand" });
    box.append(
      ...sorted.map((c) =>
        cardFace(c, CARD_NAMES, { prefix, small: true, trump: klaverjas ? obs.trump || null : null }),
      ),
    );
    return box;
  }

  function code(card) {
    // A card id (Jokeren 0..107, Klaverjas 0..31), or a code ("7h", "**"), or {code: ...}.
    if (card && typeof card === "object" && "code" in card) return card.code;
    if (typeof card === "string") return card;
    if (klaverjas) return KJ_RANK[card % 8] + SUIT[Math.floor(card / 8)];
    const k = card % 54;
    if (k >= 52) return "**";
    return RANK[k % 13] + SUIT[Math.floor(k / 13)];
  }

  /** A card as the table names it, in the page's language (engine.cards.card_label):
   * Dutch "♦B", English "J♦"; a joker laid in a meld with the card it stands for,
   * "joker (♣8)" (engine.jokeren.actions.card_text). */
  const label = (c) => shortLabel(c, CARD_NAMES.letters, CARD_NAMES.short);

  function cardSpan(card, standsFor) {
    const c = code(card);
    const span = document.createElement("span");
    if (c === "**") {
      span.textContent = standsFor ? `${T.joker} (${label(standsFor)})` : T.joker;
      span.className = "joker";
    } else {
      span.textContent = label(c);
      if (c[1] === "d" || c[1] === "h") span.className = "red";
    }
    return span;
  }

  function cards(list, standsFor) {
    const box = document.createElement("span");
    box.className = "cards";
    (list || []).forEach((c, i) => {
      if (i) box.append(" ");
      box.append(cardSpan(c, standsFor ? standsFor[i] : null));
    });
    return box;
  }

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, v));
    return node;
  }

  function line(label, value) {
    const p = document.createElement("p");
    const b = document.createElement("strong");
    b.textContent = label + ": ";
    p.append(b, value);
    return p;
  }

  function jsonDetails(obs) {
    const details = document.createElement("details");
    const summary = el("summary", T.json);
    const pre = el("pre", JSON.stringify(obs, null, 1), { class: "obs" });
    details.append(summary, pre);
    return details;
  }

  // --- Jokeren -------------------------------------------------------------------------

  function renderJokeren(view, obs) {
    if (typeof obs.current_player === "number") {
      view.append(line(T.to_move, names[obs.current_player]));
    }
    if ("stock_count" in obs) view.append(line(T.closed_stock, String(obs.stock_count)));
    if ("open_top" in obs) {
      view.append(line(T.open_pile, obs.open_top === null ? "–" : cardSpan(obs.open_top)));
    }
    const melds = obs.table || obs.melds;
    if (Array.isArray(melds)) {
      const list = document.createElement("ul");
      melds.forEach((m) => {
        const li = document.createElement("li");
        const owner = typeof m.owner === "number" ? names[m.owner] + ": " : "";
        li.append(owner, cards(m.cards || m, m.stands_for));
        list.append(li);
      });
      view.append(line(T.melds, melds.length ? "" : "–"), list);
    }
    if (Array.isArray(obs.scores)) {
      view.append(line(T.score, obs.scores.map((s, i) => names[i] + " " + s).join(" · ")));
    }
  }

  // --- Klaverjas -----------------------------------------------------------------------

  /** "Slag voor West", and for the player's own seat, named "Jij" on their own replay,
   *  "Slag voor jou" (never "voor Jij"). */
  const trickTo = (seat) =>
    seat === 0 && names[0] === T.you ? T.trick_to_you : fmt(T.trick_to, { name: names[seat] });
  const teamName = (team) => fmt(T.team_of, { a: names[team], b: names[team + 2] });
  const suitText = (letter) => (SUITS[letter] || "") + " " + SUIT_NAMES[SUIT.indexOf(letter)];

  function suitSpan(letter) {
    const span = el("span", suitText(letter));
    if (letter === "d" || letter === "h") span.className = "red";
    return span;
  }

  function bidText(bid) {
    const name = names[bid.seat];
    if (!bid.play) return fmt(T.log_pass, { name });
    if (bid.suit) return fmt(T.log_play_suit, { name, suit: suitText(bid.suit) });
    return fmt(T.log_play_bid, { name });
  }

  function trickGrid(plays, winner) {
    // North at the top, West left, East right, South at the bottom, as at a card table.
    const grid = el("div", null, {
      class: "kj-replay-trick",
      style:
        "display:grid;grid-template-columns:repeat(3,8rem);grid-template-rows:repeat(3,auto);" +
        "gap:.25rem;text-align:center;margin:.5rem 0",
    });
    const place = { 2: "1 / 2", 1: "2 / 1", 3: "2 / 3", 0: "3 / 2" };
    for (let seat = 0; seat < 4; seat += 1) {
      const play = plays.find((p) => p.seat === seat);
      const order = play ? plays.indexOf(play) + 1 : null;
      const cell = el("div", null, {
        style:
          "grid-area:" +
          place[seat] +
          ";border:1px solid #ccc;border-radius:.3rem;padding:.2rem;background:#fff" +
          (seat === winner ? ";box-shadow:0 0 0 2px #15803d" : ""),
        "data-seat": String(seat),
      });
      cell.append(el("small", names[seat]), document.createElement("br"));
      if (play) {
        const c = cards([play.card]);
        c.style.fontSize = "1.3em";
        cell.append(c, el("small", " (" + order + ")"));
      } else {
        cell.append("–");
      }
      grid.append(cell);
    }
    return grid;
  }

  function teamTable(rows) {
    // rows: [label, value team 0, value team 1]
    const table = el("table", null, { class: "kj-replay-teams" });
    const head = el("tr");
    head.append(el("th", ""), el("th", teamName(0)), el("th", teamName(1)));
    table.append(head);
    rows.forEach(([label, a, b]) => {
      const tr = el("tr");
      tr.append(el("th", label), el("td", String(a)), el("td", String(b)));
      table.append(tr);
    });
    return table;
  }

  function renderKlaverjas(view, obs) {
    view.append(line(T.dealer_label, names[obs.dealer]));
    if (obs.deal_number > 0) view.append(el("p", T.log_redeal));
    view.append(line(T.proposed_trump, suitSpan(obs.proposed_trump)));
    const bids = el("ol", null, { class: "kj-replay-bids" });
    (obs.bids || []).forEach((b) => bids.append(el("li", bidText(b))));
    view.append(line(T.bidding, obs.bids && obs.bids.length ? "" : "–"), bids);
    view.append(line(T.trump, obs.trump ? suitSpan(obs.trump) : T.no_trump_yet));
    if (typeof obs.playing_seat === "number") {
      view.append(
        line(T.playing, names[obs.playing_seat] + " (" + teamName(obs.playing_team) + ")"),
      );
    }
    if (typeof obs.current_player === "number") {
      view.append(line(T.to_move, names[obs.current_player]));
    }

    // The trick on the table; between tricks, the last one with its winner.
    const tricks = obs.tricks || [];
    const plays = (obs.trick && obs.trick.plays) || [];
    if (plays.length) {
      view.append(el("h3", T.on_table), trickGrid(plays, null));
    } else if (tricks.length) {
      const last = tricks[tricks.length - 1];
      view.append(
        el("h3", T.last_trick + " · " + trickTo(last.winner)),
        trickGrid(last.plays, last.winner),
      );
    }

    const won = [0, 0];
    tricks.forEach((t) => (won[t.winner % 2] += 1));
    view.append(
      teamTable([
        [T.tricks, won[0], won[1]],
        [T.card_points, obs.points[0], obs.points[1]],
        [T.roem, obs.roem[0], obs.roem[1]],
      ]),
    );

    const roem = tricks
      .map((t, i) => [t, i])
      .filter(([t]) => t.roem > 0)
      .map(([t, i]) =>
        t.winner === 0 && names[0] === T.you
          ? fmt(T.roem_in_trick_you, { n: i + 1, roem: t.roem })
          : fmt(T.roem_in_trick, { n: i + 1, roem: t.roem, name: names[t.winner] }),
      );
    view.append(line(T.roem, roem.length ? roem.join(" · ") : "–"));

    if (tricks.length) {
      // Every card played, trick by trick, in play order.
      const table = el("table", null, { class: "kj-replay-tricks" });
      const head = el("tr");
      [T.trick, T.cards_in_order, T.won_by, T.points, T.roem].forEach((h) =>
        head.append(el("th", h)),
      );
      table.append(head);
      tricks.forEach((t, i) => {
        const tr = el("tr");
        const played = el("td");
        t.plays.forEach((p, j) => {
          if (j) played.append(", ");
          played.append(names[p.seat] + " ", cards([p.card]));
        });
        tr.append(
          el("td", String(i + 1)),
          played,
          el("td", names[t.winner]),
          el("td", String(t.points)),
          el("td", String(t.roem)),
        );
        table.append(tr);
      });
      view.append(el("h3", T.tricks_played), table);
    }

    const result = obs.result;
    if (result) {
      const box = el("div", null, { class: "kj-replay-result" });
      box.append(el("h3", T.round_result));
      box.append(line(T.playing, teamName(result.playing_team)));
      box.append(
        teamTable([
          [T.card_points, result.points[0], result.points[1]],
          [T.roem, result.roem[0], result.roem[1]],
          [T.score, result.scores[0], result.scores[1]],
        ]),
      );
      if (result.nat) box.append(el("p", fmt(T.nat_text, { team: teamName(result.playing_team) })));
      if (result.pit_team !== null && result.pit_team !== undefined) {
        // The bonus is what the score holds beyond the points and roem it was made of.
        const sum = (xs) => xs[0] + xs[1];
        const t = result.pit_team;
        const base = result.nat
          ? sum(result.points) + sum(result.roem)
          : result.points[t] + result.roem[t];
        const bonus = result.scores[t] - base;
        box.append(el("p", fmt(T.pit_text, { team: teamName(t), bonus })));
      }
      view.append(box);
    }
  }

  function render() {
    const frame = frames[index];
    const obs = views[index];
    document.getElementById("position").textContent = index + " / " + (frames.length - 1);
    const text = lang === "en" ? frame.text_en : frame.text_nl;
    document.querySelector("#action-text strong").textContent = text || T.the_deal;
    const seats = document.getElementById("seats");
    seats.replaceChildren(
      ...frame.hands.map((hand, seat) => {
        const box = document.createElement("div");
        box.className = "replay-seat" + (frame.seat === seat ? " active" : "");
        box.dataset.seat = String(seat);
        const title = el("strong", names[seat], { "data-testid": "replay-seat-name" });
        box.append(title);
        if (klaverjas) {
          box.append(el("span", " · " + teamName(seat % 2), { class: "muted" }));
          if (obs.dealer === seat) box.append(el("span", " · " + T.dealer, { class: "muted" }));
        }
        box.append(hand.length ? handFaces(hand, obs) : el("div", "–"));
        return box;
      }),
    );
    const view = document.getElementById("table-view");
    view.replaceChildren();
    if (klaverjas) renderKlaverjas(view, obs);
    else renderJokeren(view, obs);
    view.append(jsonDetails(obs));
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
