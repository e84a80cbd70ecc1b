// Arranging the Jokeren hand: a card dragged to another place (mouse, pen or touch; on a
// touch screen a finger held on a card lifts it first), or moved one place along the hand
// with Shift and an arrow key. This module only finds the new place; the table keeps the
// order (`arrange`, table.js). No rule: the order of the hand is the player's own.

/** A drag moves further than this (px) before it counts (less is a click). */
const DRAG_START = 8;
/** A finger held this long (ms) on a card lifts it: it may then move up or down too (to
 * another row of a wrapped hand) instead of scrolling the page. Without the hold a finger
 * drags sideways only, and an upward or downward swipe scrolls as on any page. */
const HOLD_MS = 300;

/**
 * Dragging the cards of `hand` (the hand's box) within the table `root`: `state.busy` stops
 * it, `shownOrder()` is the hand's cards as shown (ids), `arrange(card, place)` puts a card
 * at a place among them. Returns `start(event, card)` (a card's pointerdown), `moveByKey(el,
 * step)` (for `handKeys`) and `justDragged()` (true during the click that ends a drag: it
 * selects nothing).
 */
export function handDrag({ root, state, hand, shownOrder, arrange }) {
  let drag = null;
  let dragged = false; // the click that ends a drag selects nothing

  /** Pointer down on a card of the hand: a drag may start (mouse, pen or touch). */
  function start(e, card) {
    if (state.busy || e.button !== 0) return;
    const el = e.currentTarget;
    drag = { card, el, x: e.clientX, y: e.clientY, moving: false, place: null, pointer: e.pointerId, hold: null };
    if (e.pointerType === "touch") drag.hold = setTimeout(liftHeld, HOLD_MS);
    el.setPointerCapture?.(e.pointerId);
    el.addEventListener("pointermove", moveDrag);
    el.addEventListener("pointerup", endDrag);
    el.addEventListener("pointercancel", cancelDrag);
  }

  /** The finger stayed on the card: lift it, so the next moves drag it in any direction. */
  function liftHeld() {
    if (!drag || drag.moving) return;
    drag.hold = null;
    drag.moving = true;
    drag.el.classList.add("is-dragging");
    navigator.vibrate?.(15);
  }

  /** While a card is lifted a finger's move drags it: the page does not scroll. */
  root.addEventListener(
    "touchmove",
    (e) => {
      if (drag && drag.moving) e.preventDefault();
    },
    { passive: false },
  );
  root.addEventListener("contextmenu", (e) => {
    if (drag) e.preventDefault(); // a long press lifts the card, it opens no menu
  });

  function moveDrag(e) {
    if (!drag || e.pointerId !== drag.pointer) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < DRAG_START) return;
    if (!drag.moving && drag.hold !== null && Math.abs(dy) > Math.abs(dx)) {
      stopDrag(); // a finger swiping up or down before the hold scrolls the page
      return;
    }
    clearTimeout(drag.hold);
    drag.moving = true;
    drag.el.classList.add("is-dragging");
    drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
    // The drop place: next to the card whose middle is nearest the pointer.
    const others = [...hand.querySelectorAll("[data-testid=hand-card]")];
    let best = null;
    for (const [i, other] of others.entries()) {
      other.classList.remove("drop-before", "drop-after");
      if (other === drag.el) continue;
      const r = other.getBoundingClientRect();
      const d = Math.hypot(e.clientX - (r.left + r.width / 2), e.clientY - (r.top + r.height / 2));
      if (!best || d < best.d) best = { d, i, other, after: e.clientX > r.left + r.width / 2 };
    }
    if (!best) return;
    best.other.classList.add(best.after ? "drop-after" : "drop-before");
    const from = others.indexOf(drag.el);
    const place = best.i + (best.after ? 1 : 0);
    drag.place = place > from ? place - 1 : place;
  }

  function stopDrag() {
    const d = drag;
    drag = null;
    clearTimeout(d.hold);
    d.el.removeEventListener("pointermove", moveDrag);
    d.el.removeEventListener("pointerup", endDrag);
    d.el.removeEventListener("pointercancel", cancelDrag);
    d.el.classList.remove("is-dragging");
    d.el.style.transform = "";
    for (const el of hand.querySelectorAll(".drop-before, .drop-after")) el.classList.remove("drop-before", "drop-after");
    return d;
  }

  function endDrag(e) {
    if (!drag || e.pointerId !== drag.pointer) return;
    const d = stopDrag();
    if (!d.moving) return;
    dragged = true;
    setTimeout(() => {
      dragged = false;
    }, 0);
    if (d.place !== null) arrange(d.card, d.place);
  }

  function cancelDrag() {
    if (drag) stopDrag();
  }

  /** Shift and an arrow key move the focused card one place along the hand. */
  function moveByKey(el, step) {
    if (state.busy) return;
    const order = shownOrder();
    const card = Number(el.dataset.card);
    const i = order.indexOf(card);
    if (i + step < 0 || i + step >= order.length) return;
    arrange(card, i + step);
  }

  return { start, moveByKey, justDragged: () => dragged };
}
