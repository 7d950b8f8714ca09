// A race's standings, live (races/stream.py): the page's element with data-race-stream opens
// that Server-Sent Events stream, puts each table it sends in place of #standings, and puts
// what it says aloud (overtakes, finishes, the start and the close) in #race-news, a live
// region screen readers announce.  EventSource opens a dropped stream again by itself; the
// server sends the standings as they are on every opening, so nothing is missed.
// data-reload-on-change (the race's own page): a new race state reloads the page, which
// then shows the start's countdown, the player's game, or the results.  A change of the race's
// players (a join, a removal: the table's data-roster) is told to the page as the body's
// "race-roster-changed" event, on which the host's list of players (races/_joiners.html)
// comes again, with a Remove button beside each.
"use strict";
(() => {
  const root = document.querySelector("[data-race-stream]");
  if (!root || !("EventSource" in window)) return;
  const shown = root.dataset.raceState;
  let roster = document.getElementById("standings")?.dataset.roster;
  const source = new EventSource(root.dataset.raceStream);
  source.addEventListener("open", () => { root.dataset.live = "on"; });
  source.addEventListener("error", () => { root.dataset.live = "reconnecting"; });
  source.addEventListener("standings", (event) => {
    const holder = document.createElement("template");
    holder.innerHTML = event.data;  // the site's own template (races/_standings.html), names escaped there
    const table = holder.content.firstElementChild;
    const old = document.getElementById("standings");
    if (!table || !old) return;
    const me = old.dataset.me;
    if (me) {
      table.dataset.me = me;
      for (const row of table.querySelectorAll("tr[data-entry]")) {
        if (row.dataset.entry === me) row.setAttribute("aria-current", "true");
      }
    }
    old.replaceWith(table);
    if ("reloadOnChange" in root.dataset && table.dataset.raceState !== shown) window.location.reload();
    else if (table.dataset.roster !== roster) {
      roster = table.dataset.roster;
      document.body.dispatchEvent(new CustomEvent("race-roster-changed"));
    }
  });
  source.addEventListener("news", (event) => {
    const region = document.getElementById("race-news");
    if (region) region.textContent = event.data;
  });
  source.addEventListener("closed", () => {
    source.close();
    root.dataset.live = "closed";
  });
})();
