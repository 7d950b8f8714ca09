// Drag and drop (mouse, pen or touch): a card dragged onto a gap is played as a click with that
// gap as its destination (slot=R-C&to=R-C, moves.js); the server decides whether the move is
// legal, as for a click.  A press that hardly moves stays a click.
import { play } from "./moves.js";
import { grid } from "./table.js";

const DRAG_PX = 8;
let drag = null;  // the press under way: the card's slot, where it started, whether it has moved

document.addEventListener("pointerdown", (event) => {
  const card = event.target.closest && event.target.closest("#grid button.slot.card");
  const table = grid();
  if (!card || !table || table.dataset.status !== "playing" || event.button !== 0) return;
  drag = { from: card.dataset.slot, x: event.clientX, y: event.clientY, moved: false, card: card };
});
document.addEventListener("pointermove", (event) => {
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PX) return;
  drag.moved = true;
  drag.card.classList.add("dragging");
  drag.card.style.transform = "translate(" + (event.clientX - drag.x) + "px," + (event.clientY - drag.y) + "px)";
  event.preventDefault();
});
function endDrag() {
  if (drag) { drag.card.classList.remove("dragging"); drag.card.style.transform = ""; }
  const was = drag;
  drag = null;
  return was;
}
// A drag is never also a click: the click the browser may send right after it is swallowed.
function swallow(click) { click.preventDefault(); click.stopPropagation(); }
document.addEventListener("pointerup", (event) => {
  const was = endDrag();
  if (!was || !was.moved) return;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const gap = under && under.closest && under.closest("#grid button.slot.gap");
  document.addEventListener("click", swallow, true);
  setTimeout(() => document.removeEventListener("click", swallow, true), 0);
  if (gap && grid() && window.htmx) play(was.from, gap.dataset.slot);
});
document.addEventListener("pointercancel", endDrag);
