// What a screen reader hears, in the live region that stays on the page (#announcer): what each
// action did and its note, the counters on the S key, and what went wrong when a post failed.
// The words are always the server's, in the player's language.
import { firstFor, pathOf } from "./table.js";

export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  text = text.replace(/\s+/g, " ").trim();
  // The same words again (two undos) must change the region, or they are not said.
  region.textContent = text && text === region.textContent ? text + "\u00a0" : text;
}

// The counters, as the S key says them: "Deal #1, Moves 12, Shuffles left 2, Time 1:04.3";
// false where there are none.
export function sayCounters() {
  const counters = document.querySelectorAll("#status .counters > div");
  if (!counters.length) return false;
  announce(Array.from(counters, (pair) => pair.querySelector("dt").textContent + " " + pair.querySelector("dd").textContent).join(", "));
  return true;
}

// After each action: what it did (the server's words in #said) and the note; once per answer,
// though its grid and its status bar each settle.  Each thing once: not what is hidden (the
// list of bests, which the record's sentence says), not the verdict's placeholder (the verdict
// is said when it comes), not the "assisted" sentence that stays under every move of an
// assisted game (it is said with the hint).
const QUIET = "[hidden], .assisted, .verdict:not([data-verdict])";
function sayable(element) {
  const copy = element.cloneNode(true);
  copy.querySelectorAll(QUIET).forEach((quiet) => quiet.remove());
  return copy.textContent;
}
const announced = {};
document.addEventListener("htmx:afterSettle", (event) => {
  if (!firstFor(event, announced)) return;
  const path = pathOf(event);
  if (/\/verdict\/$/.test(path)) {  // the verdict, come in after the end: it alone
    const verdict = document.querySelector("#status [data-verdict]");
    if (verdict) announce(verdict.textContent);
    return;
  }
  const note = document.querySelector("#status .note"), said = document.getElementById("said");
  if (!note) return;
  const words = said ? said.textContent.trim() : "";
  const assisted = /\/hint\/$/.test(path) && note.querySelector(".assisted");
  announce((words ? words + ". " : "") + sayable(note) + (assisted ? " " + assisted.textContent : ""));
});

// When a post fails on the network or is refused outright (an expired session, a game that is
// gone), say so in the note and aloud; the table stays as it was.
function say(text) {
  const status = document.getElementById("status");
  if (!status) return;
  const note = status.querySelector(".note"), p = document.createElement("p");
  p.className = "warning";
  p.textContent = text;
  note.replaceChildren(p);
  announce(text);
}
// The words come from the page, in the player's language.
function words(name) {
  const game = document.querySelector(".game[data-error-text]");
  return game ? game.dataset[name] : "";
}
document.addEventListener("htmx:sendError", () => say(words("errorText")));
document.addEventListener("htmx:responseError", () => say(words("refusedText")));
