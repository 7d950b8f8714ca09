// The page's keys (games/_keys.html lists them), all read by one keydown listener, and never
// while the player is typing in a field: on the table the arrows, Home and End walk the slots;
// U or Ctrl+Z undo, Shift+U, Ctrl+Y or Ctrl+Shift+Z redo, S says the counters, Shift+S shuffles
// (asking first while a card can still move), H asks for a hint, G goes to the next gap a card
// can fill, N starts a new game once this one has ended, ? opens the list of keys; on a replay
// the left and right arrows step.  A rank or suit key held lights the cards it names (finder.js;
// S and H do so when held, and say the counters or ask a hint when tapped).
import { sayCounters } from "./announce.js";
import { keyDown as findKey } from "./finder.js";
import { rove, slotAt, turned, width } from "./table.js";

// The one test of "the player is typing": every key below leaves a field its own.
export function typing(target) { return !!(target.closest && target.closest("input, textarea, select, [contenteditable]")); }

// Press the button ``id`` as a click would, asking ``question`` first; false if there is none.
function press(id, question) {
  const button = document.getElementById(id);
  if (!button || button.disabled) return false;
  if (question && !window.confirm(question)) return true;
  // A button htmx has just swapped in is its own once htmx has settled it (a boosted form posted
  // before that would go without htmx, and without the CSRF header).
  (function click() {
    if (document.querySelector(".htmx-settling, .htmx-added")) return setTimeout(click, 25);
    const current = document.getElementById(id);
    if (current && !current.disabled) current.click();
  })();
  return true;
}

// The arrow keys move the focus around the table, as a grid (wrapping at its edges); Home and End
// go to a row's ends, with Ctrl to the table's.  Enter and Space press the slot (moves.js).
function walk(event, slot) {
  let [row, col] = slot.dataset.slot.split("-").map(Number);
  const cols = width();
  let step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
  if (step && turned()) step = [step[1], step[0]];  // upright on a phone, a row of the game runs down the screen
  if (step) { row = (row + step[0] + 4) % 4; col = (col + step[1] + cols) % cols; }
  else if (event.key === "Home") { col = 0; if (event.ctrlKey) row = 0; }
  else if (event.key === "End") { col = cols - 1; if (event.ctrlKey) row = 3; }
  else return false;
  const next = slotAt(row + "-" + col);
  if (next) next.focus();
  return !!next;
}

// G: the next gap a card can fill (Shift: the one before), in the table's order.
function nextGap(back) {
  const gaps = Array.from(document.querySelectorAll("#grid button.slot.gap:not(.dead)"));
  if (!gaps.length) return false;
  const all = Array.from(document.querySelectorAll("#grid button.slot"));
  const at = all.indexOf(document.activeElement), order = gaps.map((gap) => all.indexOf(gap));
  const pick = back
    ? gaps.filter((gap, i) => order[i] < at).pop() || gaps[gaps.length - 1]
    : gaps.filter((gap, i) => order[i] > at)[0] || gaps[0];
  rove(pick.dataset.slot);
  pick.focus();
  return true;
}

// A replay steps with the left and right arrows, and the focus stays on the step control.
let replayFocus = null;
function stepReplay(key) {
  const rel = { ArrowLeft: "prev", ArrowRight: "next" }[key];
  const link = rel && document.querySelector('#replay .replay-steps a[rel="' + rel + '"]');
  if (!link) return false;
  replayFocus = rel;
  link.click();
  return true;
}
document.addEventListener("htmx:beforeSwap", (event) => {
  const element = document.activeElement;
  if (event.detail.target && event.detail.target.id === "replay" && element && element.closest && element.closest("#replay")) {
    replayFocus = element.getAttribute("rel") || replayFocus || "next";
  }
});
document.addEventListener("htmx:afterSettle", () => {
  if (!replayFocus || !document.getElementById("replay")) return;
  const steps = document.querySelector("#replay .replay-steps");
  const target = steps && (steps.querySelector('a[rel="' + replayFocus + '"]') || steps.querySelector("a[rel], a, button"));
  replayFocus = null;
  if (target) target.focus();
});

// The keys with Ctrl (or Cmd): undo and redo; any other is the browser's.
function controlKey(event, key) {
  if (key === "z") return press(event.shiftKey ? "redo-button" : "undo-button");
  if (key === "y") return press("redo-button");
  return false;
}
function plainKey(event, key) {
  const shift = event.shiftKey;
  if (key === "u") return press(shift ? "redo-button" : "undo-button");
  if (key === "s" && shift) {
    const shuffle = document.getElementById("shuffle-button");
    return press("shuffle-button", shuffle && shuffle.dataset.keyConfirm);
  }
  if (key === "s") return sayCounters();
  if (key === "h") return press("hint-button");
  if (key === "g") return nextGap(shift);
  if (key === "n" && !shift) {
    const grid = document.getElementById("grid");
    return !!grid && grid.dataset.status !== "playing" && press("new-game-button");
  }
  return stepReplay(key);
}
// ?: the list of keys, as a dialog; while it is open, the keys are its own (Escape closes it).
function dialogKey(event, dialog) {
  if (event.key === "?") {
    if (dialog.open) dialog.close(); else dialog.showModal();
    return true;
  }
  return dialog.open ? false : null;
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || typing(event.target)) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const control = event.ctrlKey || event.metaKey;
  const dialog = document.getElementById("keys-dialog");
  const slot = event.target.closest && event.target.closest("#grid button.slot");
  let done = dialog && dialog.showModal ? dialogKey(event, dialog) : null;
  if (done === null && slot && !event.metaKey) done = walk(event, slot) || null;
  if (done === null && !control) done = findKey(event, key, () => plainKey(event, key));
  if (done === null) done = control ? controlKey(event, key) : plainKey(event, key);
  if (done) event.preventDefault();
});

// "All keys (?)" opens the list in the page; without scripts it is the rules page's.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("#keys-link");
  const dialog = document.getElementById("keys-dialog");
  if (!link || !dialog || !dialog.showModal) return;
  event.preventDefault();
  dialog.showModal();
});
// The skip link lands on the table's tab stop, where the arrows work.
document.addEventListener("click", (event) => {
  if (!(event.target.closest && event.target.closest("#skip-to-table"))) return;
  const target = rove();
  if (target) { event.preventDefault(); target.focus(); }
});
