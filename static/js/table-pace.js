// The bots' pace at a card table (docs/rules.md, "The card table"): slow, normal, fast or
// instant, as BBO and Funbridge offer it. "Slow" is the pause of old between two shown
// moves, "normal" about half of it, "fast" a fifth, "instant" none: the bots' moves are
// then shown at once (table-moves.js draws the table once, with every move in the list of
// moves, and table-common.js reads them out together). The choice is kept on the account
// (POST /api/account/pace/, the page's `data-pace` and `data-pace-url`) and in the
// browser (localStorage), which holds for a visitor and for an account that never chose.

import { csrfToken, h, loadStored, markTable, saveStored, showMessage } from "./table-common.js";

/** Each pace and its share of the table's slowest pause. */
export const PACES = { slow: 1, normal: 0.5, fast: 0.2, instant: 0 };

/** The key under which the browser keeps the pace (both tables share it). */
const PACE_KEY = "table-pace";

const known = (pace) => Object.hasOwn(PACES, pace);

/**
 * The pace of the table `root` (`prefix` "jk" or "kj", `T` the page's strings): `slowest`
 * is the table's pause at "slow" in ms; a test may set `window.JK_TABLE_DELAY` to stand for
 * it. Returns `delay()` (the pause now, 0 at "instant") and `control` (the labelled
 * choice, to place at the table). The root is marked `data-pace` and `data-pace-ms`.
 */
export function tablePace({ root, prefix, T, slowest }) {
  const base = Number.isFinite(window.JK_TABLE_DELAY) ? window.JK_TABLE_DELAY : slowest;
  const chosen = root.dataset.pace;
  let pace = known(chosen) ? chosen : loadStored(PACE_KEY, "normal");
  if (!known(pace)) pace = "normal";
  const delay = () => Math.round(base * PACES[pace]);
  const mark = () => markTable(root, { pace, paceMs: delay() });

  async function keep() {
    saveStored(PACE_KEY, pace);
    const url = root.dataset.paceUrl;
    if (!url) return;
    const error = root.querySelector('[data-testid="error"]');
    try {
      const response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ pace }),
      });
      if (!response.ok) showMessage(error, T.pace_not_kept);
    } catch {
      showMessage(error, T.pace_not_kept);
    }
  }

  const select = h(
    "select",
    {
      class: `${prefix}-pace-select`,
      "data-testid": "pace",
      onchange: (e) => {
        pace = known(e.target.value) ? e.target.value : "normal";
        mark();
        keep();
      },
    },
    Object.keys(PACES).map((p) => h("option", { value: p, selected: p === pace, text: T[`pace_${p}`] })),
  );
  mark();
  const control = h("label", { class: `${prefix}-pace` }, h("span", { text: T.pace }), select);
  return { delay, control };
}
