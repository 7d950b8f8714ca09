// The figures beside the table: the ticking clock, and the figures an answer of only what
// changed brings (version, status, moves... docs/TABLE.md), put where a whole table would have
// drawn them.
import { grid } from "./table.js";

// The clock: the server sends the time at render and how much more it may add before the idle
// cap; the display ticks within that, and every action brings the server's figure again.
function start() {
  const clock = document.getElementById("clock");
  if (clock && !clock.dataset.t0) clock.dataset.t0 = String(performance.now());
}
function tick() {
  const clock = document.getElementById("clock");
  if (!clock) return;
  start();
  const left = Number(clock.dataset.tickMsLeft || 0);
  const shown = Number(clock.dataset.elapsedMs || 0) + Math.min(left, performance.now() - Number(clock.dataset.t0));
  // As the server's duration filter writes it: M:SS.t, or H:MM:SS.t from an hour on.
  const tenths = Math.floor(shown / 100), s = Math.floor(tenths / 10);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0") + "." + (tenths % 10);
  clock.textContent = h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
}
setInterval(tick, 100);
document.addEventListener("DOMContentLoaded", start);
document.addEventListener("htmx:afterSwap", start);

// An answer that sends only what changed (views.table_changes) leaves the grid and the counters
// in place: its table-changed event's figures (in "grid", the grid's data-* attributes without
// their "data-"; the clock's tick-ms-left) go on the grid, in its form's version field, in the
// counters and on the clock, before the answer settles.  moves.js calls this, then draws the
// moves still queued over them.
function setFigures(element, figures) {
  for (const [name, value] of Object.entries(figures)) {
    if (String(value)) element.setAttribute(`data-${name}`, String(value));
    else element.removeAttribute(`data-${name}`);
  }
}
export function putFigures(detail) {
  const table = grid(), figures = detail && detail.grid, tickMsLeft = detail && detail["tick-ms-left"];
  if (!table || !figures) return;
  setFigures(table, figures);
  table.querySelector("input[name=version]").value = figures.version;
  const moves = document.getElementById("moves-count"), left = document.getElementById("shuffles-left-count");
  if (moves) moves.textContent = figures.moves;
  if (left) left.textContent = figures["shuffles-left"];
  const clock = document.getElementById("clock");
  if (clock && tickMsLeft !== undefined) {
    setFigures(clock, { "elapsed-ms": figures["elapsed-ms"], "tick-ms-left": tickMsLeft });
    clock.dataset.t0 = String(performance.now());
    tick();
  }
}
