// The table in the page (form#grid, docs/TABLE.md): its slots and cards read as the rule reads
// them, a move and the marks drawn, the roving tab stop, a slot redrawn where it stands when an
// answer of changes comes, and where the focus goes after a swap.  The other modules find the
// grid, a slot and the cards shown through its helpers.
import { marks } from "./rule.js";

export function grid() { return document.getElementById("grid"); }
export function slotAt(name) { return name ? document.querySelector('#grid button.slot[data-slot="' + name + '"]') : null; }
// The table as the page shows it: each slot's name to its card, "" for a gap (as rule.js reads it).
export function cards() {
  const shown = {};
  document.querySelectorAll("#grid button.slot").forEach((slot) => { shown[slot.dataset.slot] = slot.dataset.card || ""; });
  return shown;
}
// The table's width as the grid says it (data-cols): 13, or 14 where the aces stay.
export function width() { return Number(grid().dataset.cols); }
// The table turned a quarter on a phone held upright (site.css, the same query).
export function turned() { return !!(window.matchMedia && window.matchMedia("(max-width: 700px) and (orientation: portrait)").matches); }
// The path an htmx event's request went to.
export function pathOf(event) { return (event.detail.pathInfo && event.detail.pathInfo.requestPath) || ""; }
// Once per answer: each element it swapped in (an answer of the slots that changed has a few)
// settles with an event of its own.  ``seen`` is the listener's own memory.
export function firstFor(event, seen) {
  const xhr = event.detail && event.detail.xhr;
  if (xhr && seen.xhr === xhr) return false;
  seen.xhr = xhr;
  return true;
}

// The card of ``move`` drawn in its gap, if the table still shows it where it was.
export function drawMove(move) {
  const from = slotAt(move.from), to = slotAt(move.to);
  if (!from || !to || !from.dataset.card || to.dataset.card) return false;
  to.replaceChildren(...from.childNodes);
  to.dataset.card = from.dataset.card;
  from.dataset.card = "";
  return true;
}
// Each slot's classes as presenters.table.SlotView.classes writes them, with no hint.
export function drawMarks(table) {
  const shown = cards(), found = marks(shown);
  table.querySelectorAll("button.slot").forEach((slot) => {
    const name = slot.dataset.slot, card = shown[name], classes = ["slot"];
    if (card) {
      classes.push("card");
      if (card[1] === "H" || card[1] === "D") classes.push("red");
      if (found.locked[name]) classes.push("locked");
      if (found.movable[name]) classes.push("movable");
    } else {
      classes.push("gap");
      if (found.dead[name]) classes.push("dead");
    }
    const value = classes.join(" ");
    if (slot.className !== value) slot.className = value;
  });
}

// The table is one tab stop (a roving tabindex): the slot last focused, or at first the first
// card that can move, has tabindex 0 and the others -1; the keys move within it (keys.js).
let stop = null;  // the data-slot of the table's tab stop
export function rove(name) {
  const slots = document.querySelectorAll("#grid button.slot");
  if (!slots.length) return null;
  const target = slotAt(name) || slotAt(stop) || document.querySelector("#grid button.slot.movable") || slots[0];
  // Only the slots whose tabindex changes: each change makes the browser restyle.
  slots.forEach((slot) => {
    const index = slot === target ? 0 : -1;
    if (slot.tabIndex !== index) slot.tabIndex = index;
  });
  stop = target.dataset.slot;
  return target;
}
document.addEventListener("DOMContentLoaded", () => { rove(); });
document.addEventListener("focusin", (event) => {
  const slot = event.target.closest && event.target.closest("#grid button.slot");
  if (slot) rove(slot.dataset.slot);
});

// A slot that an answer of changes redraws (views.table_changes) is updated where it stands,
// its attributes and its face, rather than replaced: the slot in focus (the one just clicked)
// keeps the focus, and the browser, which lays the page out again at once when the focused
// element goes, lays it out once, when it next paints.  What the scripts set on a slot (its
// tabindex, its style) stays.
const OWN = { tabindex: true, style: true };
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const slot = event.detail.target, fresh = event.detail.fragment && event.detail.fragment.firstElementChild;
  if (!slot || !fresh || !slot.matches("#grid button.slot") || fresh.tagName !== "BUTTON") return;
  for (const attribute of [...slot.attributes]) {
    if (!OWN[attribute.name] && !fresh.hasAttribute(attribute.name)) slot.removeAttribute(attribute.name);
  }
  for (const attribute of fresh.attributes) {
    if (slot.getAttribute(attribute.name) !== attribute.value) slot.setAttribute(attribute.name, attribute.value);
  }
  if (slot.innerHTML !== fresh.innerHTML) slot.replaceChildren(...fresh.childNodes);
  event.detail.shouldSwap = false;
});

// A shuffle shows at once that it is happening: the cards it gathers (all but those in place)
// fade on the table while the server deals them again (it holds the seed, so only its answer
// can say where they go), and the table is marked busy for screen readers; the answer's table
// replaces it, and a shuffle that never reached the server leaves it as it was.
document.addEventListener("htmx:beforeRequest", (event) => {
  const table = grid();
  if (!table || !/\/shuffle\/$/.test(pathOf(event))) return;
  table.classList.add("shuffling");
  table.setAttribute("aria-busy", "true");
});
document.addEventListener("htmx:afterRequest", (event) => {
  const table = grid();
  if (!table || !/\/shuffle\/$/.test(pathOf(event))) return;
  table.classList.remove("shuffling");
  table.removeAttribute("aria-busy");
});

// The focus never falls to the page when htmx swaps the table: after a move it stays on the
// slot, after Undo (or Redo) it goes to the card that went back (or forth again), after Shuffle
// (or the end) to the table's tab stop, and a button that comes back (Hint, Show me) keeps it.
let restore = null;
document.addEventListener("htmx:beforeSwap", (event) => {
  const game = document.querySelector(".game"), element = document.activeElement;
  restore = null;
  if (!game || !element || !game.contains(element)) return;
  const kind = (pathOf(event).match(/\/(undo|redo|shuffle)\/$/) || [])[1];
  restore = { element: element, slot: element.dataset.slot, id: element.id, kind: kind, before: cards() };
});
const roved = {};
document.addEventListener("htmx:afterSettle", (event) => {
  if (!firstFor(event, roved)) return;
  const was = restore;
  restore = null;
  rove();
  if (!was) return;
  // The player moved on meanwhile (an arrow key while the answer settled): the focus is theirs.
  const now = document.activeElement;
  if (now && now !== was.element && now.isConnected && now.closest && now.closest("#grid button.slot")) return;
  let target = null;
  if (was.slot) target = slotAt(was.slot);
  else if (was.kind === "undo" || was.kind === "redo") {
    const shown = cards();
    for (const name in shown) if (shown[name] && !was.before[name]) target = slotAt(name);
  } else if (was.kind !== "shuffle" && was.id) target = document.getElementById(was.id);
  target = target || rove();
  if (target) { rove(target.dataset.slot); if (target !== document.activeElement) target.focus(); }
});

// A hint's card and gap may be off the screen (a phone held upright shows a part of the table,
// a moon's 14 rows all the less): bring them into view, once they are drawn.
document.addEventListener("htmx:afterSettle", (event) => {
  if (!/\/hint\/$/.test(pathOf(event))) return;
  const from = document.querySelector("#grid .hint-from"), to = document.querySelector("#grid .hint-to");
  const hidden = [from, to].some((slot) => {
    if (!slot) return false;
    const box = slot.getBoundingClientRect();
    return box.top < 0 || box.bottom > window.innerHeight;
  });
  if (hidden) from.scrollIntoView({ block: "center" });
});

// The notes told once (the one that says the table is turned, the home page's how-to): closed,
// each stays closed in this browser.  Without scripts the how-to stays, above the table, until
// a first game starts (games/views.py, home).
const ONCE = { "turned-note": "addiction-turned-note", "howto": "addiction-howto" };
document.addEventListener("DOMContentLoaded", () => {
  for (const [id, key] of Object.entries(ONCE)) {
    const note = document.getElementById(id);
    try { if (note && window.localStorage.getItem(key) === "seen") note.hidden = true; } catch { /* no storage */ }
  }
});
document.addEventListener("click", (event) => {
  const close = event.target.closest && event.target.closest("#turned-note-close, #howto-close");
  if (!close) return;
  const id = close.id.replace(/-close$/, "");
  document.getElementById(id).hidden = true;
  try { window.localStorage.setItem(ONCE[id], "seen"); } catch { /* no storage */ }
});
