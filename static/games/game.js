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

  // The H key asks for a hint, as the Hint button does (outside text fields).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "h" && event.key !== "H") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    var button = document.getElementById("hint-button");
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });

  // "Show me": ask for a hint, play it exactly (slot and gap), and again, at a readable
  // pace, until the player stops it, the game ends or nothing helps.  The server finds
  // every hint and checks every move; this only presses the buttons a player would.
  var demo = { on: false, timer: null, pace: 900 };
  function pace() {  // the button may set its own pace (data-pace-ms), read at the start; about one move a second
    var button = demoButton();
    var ms = button ? Number(button.dataset.paceMs) : NaN;
    return isNaN(ms) ? 900 : ms;
  }
  function demoButton() { return document.getElementById("demo"); }
  function showDemoButton() {
    var button = demoButton();
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
    var grid = document.getElementById("grid");
    if (!demo.on || !grid || grid.dataset.status !== "playing" || !window.htmx) return stopDemo();
    var hint = grid.dataset.hint;
    if (!hint) {
      var ask = document.getElementById("hint-button");
      return ask ? htmx.ajax("POST", ask.getAttribute("formaction"), { source: grid, target: grid, swap: "outerHTML" }) : stopDemo();
    }
    if (hint === "none") return stopDemo();
    if (hint === "shuffle") {
      var shuffle = document.querySelector("#status button.hinted");
      return shuffle ? htmx.ajax("POST", shuffle.getAttribute("formaction"), { source: grid, target: grid, swap: "outerHTML" }) : stopDemo();
    }
    var parts = hint.split(">");
    htmx.ajax("POST", grid.getAttribute("hx-post"), {
      source: grid, target: grid, swap: "outerHTML", values: { slot: parts[0], to: parts[1] },
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#demo");
    if (!button) return;
    if (demo.on) return stopDemo();
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    demo.on = true;
    demo.pace = pace();
    showDemoButton();
    demoStep();
  });
  document.addEventListener("htmx:afterSettle", function () {
    showDemoButton();
    if (demo.on) { clearTimeout(demo.timer); demo.timer = setTimeout(demoStep, demo.pace); }
  });
  document.addEventListener("htmx:responseError", stopDemo);
  document.addEventListener("htmx:sendError", stopDemo);
  document.addEventListener("DOMContentLoaded", showDemoButton);
})();
