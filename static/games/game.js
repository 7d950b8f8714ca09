// Small comforts on top of server-rendered pages; everything works without this file.
(function () {
  "use strict";

  // The clock: the server sends the time at render and how much more it may add before the
  // idle cap; the display ticks within that, and every action brings the server's figure again.
  function start() {
    var clock = document.getElementById("clock");
    if (clock && !clock.dataset.t0) clock.dataset.t0 = String(performance.now());
  }
  function tick() {
    var clock = document.getElementById("clock");
    if (!clock) return;
    start();
    var left = Number(clock.dataset.tickMsLeft || 0);
    var shown = Number(clock.dataset.elapsedMs || 0) + Math.min(left, performance.now() - Number(clock.dataset.t0));
    var s = Math.floor(shown / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    var ss = String(s % 60).padStart(2, "0");
    clock.textContent = h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", start);

  // Give up asks first.  Its button posts the grid's form (form="grid"), so the question
  // is on the button, where htmx's own hx-confirm (read from the form) would not find it.
  document.addEventListener("htmx:confirm", function (event) {
    var trigger = event.detail.triggeringEvent;
    var question = trigger && trigger.submitter && trigger.submitter.dataset.confirm;
    if (!question) return;
    event.preventDefault();
    if (window.confirm(question)) event.detail.issueRequest(true);
  });

  // Say what the server said (a note, a win) in the region that stays on the page.
  function announce(text) {
    var region = document.getElementById("announcer");
    if (region) region.textContent = text.replace(/\s+/g, " ").trim();
  }
  document.addEventListener("htmx:afterSettle", function () {
    var note = document.querySelector("#status .note");
    if (note) announce(note.textContent);
  });

  // When a post fails on the network or is refused outright (an expired session, a game
  // that is gone), say so; the table stays as it was.
  function say(text) {
    var status = document.getElementById("status");
    if (!status) return;
    var note = status.querySelector(".note");
    note.innerHTML = "";
    var p = document.createElement("p");
    p.className = "warning";
    p.textContent = text;
    note.appendChild(p);
    announce(text);
  }
  // The words come from the page, in the player's language.
  function words(name) {
    var game = document.querySelector(".game[data-error-text]");
    return game ? game.dataset[name] : "";
  }
  document.addEventListener("htmx:sendError", function () { say(words("errorText")); });
  document.addEventListener("htmx:responseError", function () { say(words("refusedText")); });

  // Arrow keys move the focus around the table, as a grid.
  document.addEventListener("keydown", function (event) {
    var slot = event.target.closest && event.target.closest("#grid .slot");
    if (!slot) return;
    var step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
    if (!step) return;
    var rc = slot.dataset.slot.split("-").map(Number);
    var row = (rc[0] + step[0] + 4) % 4, col = (rc[1] + step[1] + 13) % 13;
    var next = document.querySelector('#grid [data-slot="' + row + "-" + col + '"]');
    if (next) { next.focus(); event.preventDefault(); }
  });

  // Keep the keyboard focus on the same slot after the grid is swapped.
  var focused = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var el = document.activeElement;
    focused = el && el.dataset && el.dataset.slot ? el.dataset.slot : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!focused) return;
    var el = document.querySelector('#grid [data-slot="' + focused + '"]');
    if (el) el.focus();
    focused = null;
  });
})();
