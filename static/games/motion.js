// Cards slide to their new slots (a move, an undo, a shuffle, a replay's step).  Before htmx
// swaps an answer in, where each card stands is noted; in the next frame, each card that now
// stands elsewhere starts from where it stood and slides to its slot.  The board itself changes
// at once, and the slide is a transform, which the browser animates without laying the page out
// again.  A card still sliding when the next answer comes (quick plays) starts its next slide
// from where it is.  Off when the device asks for less motion, unless the settings say
// otherwise (data-motion on <html>, from a cookie), and off when the settings say so.
import { grid } from "./table.js";

const SLIDE = { duration: 220, easing: "ease-out" };
// A sliding card is drawn above the others, and is not in the way of a click: a quick player's
// click on a slot that a card is sliding over goes to that slot.
const FLYING = { zIndex: 2, pointerEvents: "none" };

export function motion() {
  const chosen = document.documentElement.dataset.motion;
  if (chosen) return chosen === "on";
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}
// Each card's slot and where it is in the table (which may itself move on the page).
export function cardsAt() {
  const at = {}, table = grid();
  if (!table) return at;
  const origin = table.getBoundingClientRect();
  table.querySelectorAll(".slot[data-card]").forEach((slot) => {
    const box = slot.getBoundingClientRect();
    if (slot.dataset.card) {
      at[slot.dataset.card] = { slot: slot, name: slot.dataset.slot, left: box.left - origin.left, top: box.top - origin.top };
    }
  });
  return at;
}
// In the next frame, each card that stood elsewhere in ``before`` (cardsAt) slides from there.
export function slideFrom(before) {
  requestAnimationFrame(() => {
    // A gap never slides; a card still in the slot it had keeps any slide it is making there
    // (so an answer that confirms a move drawn already does not cut its slide); a card in
    // another slot slides there from where it stood, mid-slide or not.
    document.querySelectorAll("#grid .slot.gap, #grid .slot:not([data-card])").forEach((slot) => {
      slot.getAnimations().forEach((animation) => animation.cancel());
    });
    const now = cardsAt();
    for (const card of Object.keys(now)) {
      const from = before[card], to = now[card];
      if (!from || from.name === to.name) continue;
      to.slot.getAnimations().forEach((animation) => animation.cancel());
      const origin = grid().getBoundingClientRect(), box = to.slot.getBoundingClientRect();
      const shift = "translate(" + (from.left - (box.left - origin.left)) + "px, " + (from.top - (box.top - origin.top)) + "px)";
      to.slot.animate([{ transform: shift, ...FLYING }, { transform: "none", ...FLYING }], SLIDE);
    }
  });
}

let stood = null;  // noted before an answer's swap, used by the first afterSwap that follows
document.addEventListener("htmx:beforeSwap", () => { stood = motion() ? cardsAt() : null; });
document.addEventListener("htmx:afterSwap", () => {
  if (!stood) return;
  const before = stood;
  stood = null;
  slideFrom(before);
});
