// "Show me": ask for a hint, play it exactly (slot and gap), and again, at a readable pace,
// until the player stops it, the game ends or nothing helps.  The server finds every hint and
// checks every move; this only presses the buttons a player would.
import { postFrom } from "./moves.js";
import { grid, slotAt } from "./table.js";

const PACE_MS = 900;  // about one move a second, unless the button says otherwise (data-pace-ms)
const demo = { on: false, timer: null, pace: PACE_MS };

function demoButton() { return document.getElementById("demo"); }
function pace() {  // read at the start
  const button = demoButton();
  const ms = button ? Number(button.dataset.paceMs) : NaN;
  return isNaN(ms) ? PACE_MS : ms;
}
function showDemoButton() {
  const button = demoButton();
  if (!button) return;
  button.hidden = false;
  button.textContent = demo.on ? button.dataset.stopText : button.dataset.startText;
  button.setAttribute("aria-pressed", demo.on ? "true" : "false");
}
function stopDemo() {
  demo.on = false;
  clearTimeout(demo.timer);
  showDemoButton();
}
function demoStep() {
  const table = grid();
  if (!demo.on || !table || table.dataset.status !== "playing" || !window.htmx) return stopDemo();
  const hint = table.dataset.hint;
  if (!hint) {
    const ask = document.getElementById("hint-button");
    return postFrom(ask, ask && ask.getAttribute("formaction")) || stopDemo();
  }
  if (hint === "none") return stopDemo();
  if (hint === "shuffle") {
    const shuffle = document.querySelector("#status button.hinted");
    return postFrom(shuffle, shuffle && shuffle.getAttribute("formaction")) || stopDemo();
  }
  const [from, to] = hint.split(">");
  return postFrom(slotAt(from), table.getAttribute("hx-post"), { slot: from, to: to }) || stopDemo();
}

document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("#demo");
  if (!button) return;
  if (demo.on) return stopDemo();
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  demo.on = true;
  demo.pace = pace();
  showDemoButton();
  demoStep();
});
document.addEventListener("htmx:afterSettle", () => {
  showDemoButton();
  if (demo.on) { clearTimeout(demo.timer); demo.timer = setTimeout(demoStep, demo.pace); }
});
document.addEventListener("htmx:responseError", stopDemo);
document.addEventListener("htmx:sendError", stopDemo);
document.addEventListener("DOMContentLoaded", showDemoButton);
