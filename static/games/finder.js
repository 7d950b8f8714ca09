// The card finder (docs/RULES.md, "Keys"): while a rank key (2-9, T or 0, J, Q, K, A) and/or a
// suit key (S, H, D, C) is held, the cards they name light up on the table and the others dim;
// on a touch screen a long press on a card lights its suit.  S and H are also "say the counters"
// and "hint": a tap of either does that, as before; held (or with a rank key down) it finds.
// keys.js gives this file the keys (never while the player types); what a key names and what a
// held set of keys matches are find.js's.
import { announce } from "./announce.js";
import { matches, named } from "./find.js";
import { grid } from "./table.js";

const HOLD_MS = 250;  // S or H held this long finds rather than acting
const LONG_PRESS_MS = 500;  // a touch on a card held this long lights its suit

const held = new Map();  // key -> what it names, for the keys finding now
const waiting = new Map();  // "s" or "h" -> {timer, act}: a tap acts, a hold finds

function light() {
  const table = grid();
  if (!table) return;
  const ranks = new Set(), suits = new Set();
  for (const name of held.values()) { if (name.rank) ranks.add(name.rank); else suits.add(name.suit); }
  const found = [];
  table.querySelectorAll("button.slot").forEach((slot) => {
    const on = matches(slot.dataset.card, ranks, suits);
    slot.classList.toggle("found", on);
    if (on) found.push(slot);
  });
  table.classList.toggle("finding", held.size > 0);
  // A card named by rank and suit is said where it is (its label), for a player who cannot see it.
  if (ranks.size === 1 && suits.size === 1 && found.length === 1) announce(found[0].getAttribute("aria-label"));
}

// A key down (keys.js, not while typing, no Ctrl, Alt or Cmd): true when the finder takes it,
// null when it is not a finder key.  ``act`` does what the key does when tapped (S, H).
export function keyDown(event, key, act) {
  if (!grid()) return null;
  const name = named(key);
  if (!name || (event.shiftKey && (key === "s" || key === "h"))) return null;
  if (event.repeat) return true;
  // Another finder key while S or H waits: that one was held to find, not tapped.
  for (const [waitingKey, tapped] of waiting) {
    if (waitingKey === key) continue;
    clearTimeout(tapped.timer);
    waiting.delete(waitingKey);
    held.set(waitingKey, named(waitingKey));
  }
  if ((key === "s" || key === "h") && !held.size) {
    // Tapped, it does what it always did; held past HOLD_MS, it finds.
    const timer = setTimeout(() => { waiting.delete(key); held.set(key, name); light(); }, HOLD_MS);
    waiting.set(key, { timer: timer, act: act });
    return true;
  }
  held.set(key, name);
  light();
  return true;
}

function keyUp(key) {
  const tapped = waiting.get(key);
  if (tapped) {
    clearTimeout(tapped.timer);
    waiting.delete(key);
    tapped.act();
    return;
  }
  if (held.delete(key)) light();
}
document.addEventListener("keyup", (event) => { keyUp(event.key.length === 1 ? event.key.toLowerCase() : event.key); });
// A key released while the page had no focus never comes up here: nothing stays lit.
window.addEventListener("blur", () => {
  for (const tapped of waiting.values()) clearTimeout(tapped.timer);
  waiting.clear();
  if (held.size) { held.clear(); light(); }
});

// A long press on a card (touch): its suit lights until the finger lifts, and the card does not
// move (the click that follows the press is swallowed).
let press = null;
// The click a touch screen sends after the finger lifts (some milliseconds later) is the press's:
// swallowed, the next one only, and only for a moment.
function swallowNextClick() {
  const swallow = (click) => { click.preventDefault(); click.stopPropagation(); stop(); };
  const stop = () => window.removeEventListener("click", swallow, true);
  window.addEventListener("click", swallow, true);  // before the table's own (moves.js, on document)
  setTimeout(stop, 700);
}
document.addEventListener("pointerdown", (event) => {
  const card = event.pointerType === "touch" && event.target.closest && event.target.closest("#grid button.slot.card");
  if (!card) return;
  press = { x: event.clientX, y: event.clientY, timer: setTimeout(() => {
    press.lit = true;
    held.set("press", { suit: card.dataset.card[1] });
    light();
  }, LONG_PRESS_MS) };
});
document.addEventListener("pointermove", (event) => {
  if (press && !press.lit && Math.hypot(event.clientX - press.x, event.clientY - press.y) > 8) { clearTimeout(press.timer); press = null; }
});
function endPress() {
  if (!press) return;
  clearTimeout(press.timer);
  if (press.lit) {
    held.delete("press");
    light();
    swallowNextClick();
  }
  press = null;
}
document.addEventListener("pointerup", endPress);
document.addEventListener("pointercancel", endPress);
// The browser's own long-press menu would cover the table.
document.addEventListener("contextmenu", (event) => {
  if (event.target.closest && event.target.closest("#grid button.slot.card")) event.preventDefault();
});
