// Instant moves.  A click (a key, a drop) on a slot is drawn at once when the page's copy of the
// rule (rule.js) says it moves a card: the card in its gap, the counters, the marks of what can
// move now.  Then the move is posted as always, and the server's answer confirms it (the slots
// that changed, as drawn already) or corrects it: a refusal or a stale page (409/422) swaps in
// the server's table with its note.  Nothing is kept only in the page.  The queue's decisions
// are queue.js's; this file draws them and talks to htmx.
import { announce } from "./announce.js";
import { putFigures } from "./figures.js";
import { motion, cardsAt, slideFrom } from "./motion.js";
import * as Queue from "./queue.js";
import { moveFor, takenBack } from "./rule.js";
import { sound } from "./sound.js";
import { cards, drawMarks, drawMove, grid, pathOf, rove, slotAt } from "./table.js";

const RESEND_MS = 50;  // htmx let a move go unsent (its grid was busy): how soon to try again
const queue = Queue.createQueue();

// A post the script makes for the player (a click, a drag, "Show me") goes from the button it
// stands for, with the grid's form: not from the form itself, since htmx remembers the form's
// last clicked button (Undo, say) and would post to that button's address instead; an answer of
// only what changed leaves the form, and that memory, in place.
export function postFrom(button, path, values) {
  if (!button) return null;
  return htmx.ajax("POST", path, { source: button, target: grid(), swap: "outerHTML", values: values || {} });
}

function drawCounters(table) {
  const moves = document.getElementById("moves-count");
  if (moves) moves.textContent = String(Number(table.dataset.moves || 0) + Queue.pending(queue));
}

// A click on ``slot`` (a drag: onto the gap ``to``): drawn if the rule moves it, then queued.
// False where the page cannot play it (the game is over, htmx is missing): the form posts it.
export function play(slot, to) {
  const table = grid();
  if (!table || table.dataset.status !== "playing" || !window.htmx) return false;
  if (repainting) return true;  // a click on a table being replaced is on cards that may not be there: it goes
  const shown = cards(), move = Queue.drawable(queue) ? moveFor(shown, slot, to) : null;
  if (!move && !to && Queue.drawable(queue) && !Queue.busy(queue)) {
    // Nothing queued or out: the table shown is the server's, and its rule refuses the click as
    // the server would, in the server's words (the grid carries them); nothing is posted.
    const words = shown[slot] ? table.dataset.refusedCard : table.dataset.refusedGap;
    if (words) {
      tell(words);
      return true;
    }
  }
  if (move) {
    move.card = shown[move.from];  // the card it moves: an answer's redraw checks it is still there
    const before = motion() ? cardsAt() : null;
    drawMove(move);
    drawMarks(table);
    if (table.dataset.hint) table.removeAttribute("data-hint");
    if (before) slideFrom(before);
    sound("move");
  }
  Queue.add(queue, slot, to, move);
  drawCounters(table);
  sendNext();
  return true;
}

function sendNext() {
  const table = grid();
  const step = Queue.next(queue, Date.now(), !!table);
  if (!step) return;
  if (step.wait) { setTimeout(sendNext, step.wait); return; }
  if (step.release) { step.release.forEach((issue) => issue()); return; }
  postFrom(slotAt(step.send.slot), table.getAttribute("hx-post"), Queue.values(step.send, table.dataset.version));
  if (Queue.unsent(queue)) setTimeout(sendNext, RESEND_MS);
}

// An answer to the move in flight is about to be swapped in: the moves queued after it are
// taken off the page first (last first), so that the answer's slots land on the table it was
// made from, the move in flight drawn and nothing after it.
document.addEventListener("htmx:beforeSwap", (event) => {
  const item = queue.sending;
  if (!item || item.undone || !Queue.isSending(queue, event.detail.xhr)) return;
  item.undone = true;
  Queue.drawnMoves(queue).reverse().forEach((move) => drawMove({ from: move.to, to: move.from }));
});

// Each answer, once: the moves still queued are drawn again over what it swapped in, in the same
// task, so nothing flickers, each only while its card is where it was and the rule makes the same
// move (Queue.standing); the first that is not stops the queue, its clicks and the later ones go
// unsent, and a note says so.  A move in flight that the server made otherwise than the page
// drew it leaves slots the answer did not touch: then the server's whole table comes again.
function redrawQueued(status) {
  const table = grid(), item = queue.sending;
  if (!table || (item && item.redrawn)) return;
  if (item) item.redrawn = true;
  const playing = table.dataset.status === "playing";
  Queue.answered(queue, status, playing);
  const note = table.dataset.droppedNote || "";
  if (status === 200 && playing && item && item.move && cards()[item.move.to] !== item.move.card) {
    Queue.stop(queue);  // nothing more is sent
    repaint(note);
    return;
  }
  const found = Queue.standing(queue, cards(), moveFor);
  let drawn = false;
  found.draw.forEach((move) => { drawn = drawMove(move) || drawn; });
  if (drawn) drawMarks(table);
  drawCounters(table);
  if (found.lie) tell(note);
}
// The page's own note, as the server writes a refusal's (a warning in #note), said aloud too.
function tell(words) {
  const place = document.getElementById("note"), warning = document.createElement("p");
  if (!words) return;
  warning.className = "warning";
  warning.textContent = words;
  if (place) place.replaceChildren(warning);
  announce(words);
}
// The server's whole table in place of the page's (as htmx reloads it), then the note; clicks
// made meanwhile are not played.
let repainting = false;
function repaint(note) {
  repainting = true;
  // The game's own page (its grid posts moves to /game/<id>/move/), wherever it is shown: the
  // home page shows one too.
  const page = grid().getAttribute("action").replace(/move\/$/, "");
  htmx.ajax("GET", page, { target: "#grid", swap: "outerHTML" }).finally(() => {
    repainting = false;
  }).then(() => tell(note));
}
// An answer of changes: its figures go in place first, then the queued moves over them.
document.addEventListener("table-changed", (event) => {
  putFigures(event.detail);
  redrawQueued(200);
});
document.addEventListener("htmx:afterSwap", (event) => {
  const detail = event.detail;
  if (Queue.isSending(queue, detail.xhr) && detail.target && detail.target.id === "grid") redrawQueued(detail.xhr.status);
});

// Undo drawn at once: the grid names the move undo takes back (data-undo, docs/TABLE.md), so
// when Undo's post goes (after the moves queued before it: htmx:confirm below holds it), its
// card goes back to its slot in the same task, counted as the move it is (docs/RULES.md,
// "Undo and redo"), and the focus goes with it.  The post carries the version the move was
// read from, so the server takes back that same move or answers 409 with its table.  The next
// undo's move is the server's to say: the attribute goes until the answer brings it.
function drawUndo(event) {
  const table = grid(), back = table && takenBack(table.dataset.undo);
  const shown = cards();
  if (!back || shown[back.from] !== back.card || shown[back.to] !== "") return;
  const before = motion() ? cardsAt() : null, focused = document.activeElement;
  drawMove(back);
  drawMarks(table);
  table.removeAttribute("data-undo");
  if (table.dataset.hint) table.removeAttribute("data-hint");
  const moves = document.getElementById("moves-count");
  if (moves) moves.textContent = String(Number(moves.textContent) + 1);
  if (before) slideFrom(before);
  sound("move");
  event.detail.xhr.addictionDrawn = true;
  if (focused && focused.closest && focused.closest(".game")) {
    const card = rove(back.to);
    if (card) card.focus();
  }
}
document.addEventListener("htmx:beforeRequest", (event) => {
  if (/\/undo\/$/.test(pathOf(event))) drawUndo(event);
});

// A drawn move or undo whose answer never came to swap in (the network failed, the server
// erred, the session ended): the page's table may show what the server never did, so the
// server's comes again.
function lost(xhr) { return !xhr.status || (xhr.status >= 500) || xhr.status === 403 || xhr.status === 404; }

// Which request is which: the first after a move was sent is the move's; any other post of the
// game (a shuffle, a hint...) holds the queue until it is back.
function ofTheGame(event) { const elt = event.detail.elt; return !!(elt && elt.closest && elt.closest(".game")); }
document.addEventListener("htmx:beforeRequest", (event) => {
  const detail = event.detail;
  if (Queue.claim(queue, detail.xhr)) return;
  if (ofTheGame(event) && detail.requestConfig && detail.requestConfig.verb === "post") {
    detail.xhr.addictionOther = true;
    Queue.otherStarted(queue, Date.now());
  }
});
document.addEventListener("htmx:afterRequest", (event) => {
  const xhr = event.detail.xhr;
  if (xhr && xhr.addictionOther) {
    xhr.addictionOther = false;
    Queue.otherFinished(queue);
    if (xhr.addictionDrawn && lost(xhr)) { Queue.stop(queue); repaint(""); }
  } else if (Queue.isSending(queue, xhr)) {
    const drawn = !!queue.sending.move;
    Queue.finished(queue, xhr ? xhr.status : 0);
    if (drawn && lost(xhr)) repaint("");
  } else return;
  setTimeout(sendNext, 0);  // once htmx has let the grid's request go (hx-sync)
});

// The table's own clicks (and Enter or Space on a slot) go through the queue.
document.addEventListener("click", (event) => {
  const slot = event.target.closest && event.target.closest("#grid button.slot");
  if (!slot || event.defaultPrevented) return;
  if (play(slot.dataset.slot)) { event.preventDefault(); event.stopPropagation(); }
}, true);

// Any other action waits for the moves queued before it.
document.addEventListener("htmx:confirm", (event) => {
  const elt = event.detail.elt;
  if (!Queue.busy(queue) || (elt.closest && !elt.closest(".game"))) return;
  if (queue.sending && elt === slotAt(queue.sending.slot)) return;  // the queue's own post
  event.preventDefault();
  event.stopPropagation();  // its question (data-confirm, below) is asked when its turn comes
  Queue.hold(queue, () => event.detail.issueRequest(false));
}, true);
// Give up asks first.  Its button posts the grid's form (form="grid"), so the question is on the
// button, where htmx's own hx-confirm (read from the form) would not find it.
document.addEventListener("htmx:confirm", (event) => {
  const trigger = event.detail.triggeringEvent;
  const question = trigger && trigger.submitter && trigger.submitter.dataset.confirm;
  if (!question) return;
  event.preventDefault();
  if (window.confirm(question)) event.detail.issueRequest(true);
});
