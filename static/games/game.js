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
    // As the server's duration filter writes it: M:SS.t, or H:MM:SS.t from an hour on.
    var tenths = Math.floor(shown / 100), s = Math.floor(tenths / 10);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    var ss = String(s % 60).padStart(2, "0") + "." + (tenths % 10);
    clock.textContent = h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
  }
  setInterval(tick, 100);
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", start);

  // An answer that sends only what changed (views.table_changes) leaves the grid and the
  // counters in place: their figures (version, status, moves, ...) come with the answer, and
  // go on the grid, in its form's version field, in the counters and on the clock, before
  // the answer settles.
  function setFigures(element, figures) {
    Object.keys(figures).forEach(function (name) {
      var value = String(figures[name]);
      if (value) element.setAttribute(name, value);
      else element.removeAttribute(name);
    });
  }
  document.addEventListener("table-changed", function (event) {
    var grid = document.getElementById("grid"), figures = event.detail && event.detail.grid;
    if (!grid || !figures) return;
    setFigures(grid, figures);
    grid.querySelector("input[name=version]").value = figures["data-version"];
    var moves = document.getElementById("moves-count"), left = document.getElementById("shuffles-left-count");
    if (moves) moves.textContent = figures["data-moves"];
    if (left) left.textContent = figures["data-shuffles-left"];
    var clock = document.getElementById("clock");
    if (clock && event.detail.clock) {
      setFigures(clock, event.detail.clock);
      clock.dataset.t0 = String(performance.now());
      tick();
    }
  });

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
    if (!region) return;
    text = text.replace(/\s+/g, " ").trim();
    // The same words again (two undos) must change the region, or they are not said.
    region.textContent = text && text === region.textContent ? text + "\u00a0" : text;
  }
  // Once per answer: each element it swapped in (an answer of the slots that changed has a
  // few) settles with an event of its own.
  function firstFor(event, seen) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && seen.xhr === xhr) return false;
    seen.xhr = xhr;
    return true;
  }
  // After each action: what it did (the server's words in #said) and the note; once per
  // answer, though its grid and its status bar each settle.
  // Each thing once: not what is hidden (the list of bests, which the record's sentence says),
  // not the verdict's placeholder (the verdict is said when it comes), not the "assisted"
  // sentence that stays under every move of an assisted game (it is said with the hint).
  var QUIET = "[hidden], .assisted, .verdict:not([data-verdict])";
  function sayable(element) {
    var copy = element.cloneNode(true);
    copy.querySelectorAll(QUIET).forEach(function (quiet) { quiet.remove(); });
    return copy.textContent;
  }
  var announced = {};
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!firstFor(event, announced)) return;
    var path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (/\/verdict\/$/.test(path)) {  // the verdict, come in after the end: it alone
      var verdict = document.querySelector("#status [data-verdict]");
      return verdict ? announce(verdict.textContent) : undefined;
    }
    var note = document.querySelector("#status .note");
    var said = document.getElementById("said");
    if (!note) return;
    var words = said ? said.textContent.trim() : "";
    var assisted = /\/hint\/$/.test(path) && note.querySelector(".assisted");
    announce((words ? words + ". " : "") + sayable(note) + (assisted ? " " + assisted.textContent : ""));
  });
  // A hint's card and gap may be off the screen (a phone held upright shows a part of the
  // table, a moon's 14 rows all the less): bring them into view, once they are drawn.
  document.addEventListener("htmx:afterSettle", function (event) {
    var path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (!/\/hint\/$/.test(path)) return;
    var from = document.querySelector("#grid .hint-from"), to = document.querySelector("#grid .hint-to");
    var hidden = [from, to].some(function (slot) {
      if (!slot) return false;
      var box = slot.getBoundingClientRect();
      return box.top < 0 || box.bottom > window.innerHeight;
    });
    if (hidden) from.scrollIntoView({ block: "center" });
  });
  // The S key says the counters: "Deal #1, Moves 12, Shuffles left 2, Time 1:04.3".
  document.addEventListener("keydown", function (event) {
    if (event.key !== "s" || event.shiftKey) return;  // Shift+S shuffles (below)
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    var counters = document.querySelectorAll("#status .counters > div");
    if (!counters.length) return;
    event.preventDefault();
    announce(Array.prototype.map.call(counters, function (pair) {
      return pair.querySelector("dt").textContent + " " + pair.querySelector("dd").textContent;
    }).join(", "));
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

  // The table is one tab stop (a roving tabindex): the slot last focused, or at first the
  // first card that can move, has tabindex 0 and the others -1; the keys move within it.
  var stop = null;  // the data-slot of the table's tab stop
  function slotAt(name) { return name ? document.querySelector('#grid button.slot[data-slot="' + name + '"]') : null; }
  function rove(name) {
    var slots = document.querySelectorAll("#grid button.slot");
    if (!slots.length) return null;
    var target = slotAt(name) || slotAt(stop) || document.querySelector("#grid button.slot.movable") || slots[0];
    // Only the slots whose tabindex changes: each change makes the browser restyle.
    for (var i = 0; i < slots.length; i++) {
      var index = slots[i] === target ? 0 : -1;
      if (slots[i].tabIndex !== index) slots[i].tabIndex = index;
    }
    stop = target.dataset.slot;
    return target;
  }
  document.addEventListener("DOMContentLoaded", function () { rove(); });
  document.addEventListener("focusin", function (event) {
    var slot = event.target.closest && event.target.closest("#grid button.slot");
    if (slot) rove(slot.dataset.slot);
  });

  // The table turned a quarter on a phone held upright (site.css, the same query).
  function turned() { return !!(window.matchMedia && window.matchMedia("(max-width: 700px) and (orientation: portrait)").matches); }
  // The note that says so, once: closed, it stays closed in this browser.
  document.addEventListener("DOMContentLoaded", function () {
    var note = document.getElementById("turned-note");
    try { if (note && window.localStorage.getItem("addiction-turned-note") === "seen") note.hidden = true; } catch (e) { /* no storage */ }
  });
  document.addEventListener("click", function (event) {
    if (!(event.target.closest && event.target.closest("#turned-note-close"))) return;
    document.getElementById("turned-note").hidden = true;
    try { window.localStorage.setItem("addiction-turned-note", "seen"); } catch (e) { /* no storage */ }
  });

  // Arrow keys move the focus around the table, as a grid (wrapping at its edges); Home and
  // End go to a row's ends, with Ctrl to the table's.  Enter and Space press the slot.
  document.addEventListener("keydown", function (event) {
    var slot = event.target.closest && event.target.closest("#grid button.slot");
    if (!slot || event.altKey || event.metaKey) return;
    var rc = slot.dataset.slot.split("-").map(Number), row = rc[0], col = rc[1];
    var cols = slotAt("0-13") ? 14 : 13;  // Blue Moon and Red Moon have a 14th column
    var step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[event.key];
    if (step && turned()) step = [step[1], step[0]];  // upright on a phone, a row of the game runs down the screen
    if (step) { row = (row + step[0] + 4) % 4; col = (col + step[1] + cols) % cols; }
    else if (event.key === "Home") { col = 0; if (event.ctrlKey) row = 0; }
    else if (event.key === "End") { col = cols - 1; if (event.ctrlKey) row = 3; }
    else return;
    var next = slotAt(row + "-" + col);
    if (next) { next.focus(); event.preventDefault(); }
  });

  // A slot that an answer of changes redraws (views.table_changes) is updated where it
  // stands, its attributes and its face, rather than replaced: the slot in focus (the one
  // just clicked) keeps the focus, and the browser, which lays the page out again at once
  // when the focused element goes, lays it out once, when it next paints.  What this file
  // sets on a slot (its tabindex, its style) stays.
  var OWN = { tabindex: true, style: true };
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var slot = event.detail.target, fresh = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!slot || !fresh || !slot.matches("#grid button.slot") || fresh.tagName !== "BUTTON") return;
    Array.prototype.slice.call(slot.attributes).forEach(function (attribute) {
      if (!OWN[attribute.name] && !fresh.hasAttribute(attribute.name)) slot.removeAttribute(attribute.name);
    });
    Array.prototype.forEach.call(fresh.attributes, function (attribute) {
      if (slot.getAttribute(attribute.name) !== attribute.value) slot.setAttribute(attribute.name, attribute.value);
    });
    if (slot.innerHTML !== fresh.innerHTML) slot.replaceChildren.apply(slot, Array.prototype.slice.call(fresh.childNodes));
    event.detail.shouldSwap = false;
  });

  // The focus never falls to the page when htmx swaps the table: after a move it stays on
  // the slot, after Undo (or Redo) it goes to the card that went back (or forth again),
  // after Shuffle (or the end) to the table's tab stop, and a button that comes back (Hint,
  // Show me) keeps it.
  var restore = null;
  // The table as the page shows it: each slot's name to its card, "" for a gap (as rule.js reads it).
  function cards() {
    var shown = {};
    document.querySelectorAll("#grid button.slot").forEach(function (s) { shown[s.dataset.slot] = s.dataset.card || ""; });
    return shown;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var game = document.querySelector(".game"), el = document.activeElement;
    restore = null;
    if (!game || !el || !game.contains(el)) return;
    var detail = event.detail, path = (detail.pathInfo && detail.pathInfo.requestPath) || "";
    restore = { element: el, slot: el.dataset.slot, id: el.id, kind: (path.match(/\/(undo|redo|shuffle)\/$/) || [])[1], before: cards() };
  });
  var roved = {};
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!firstFor(event, roved)) return;
    var was = restore, target = null;
    restore = null;
    rove();
    if (!was) return;
    // The player moved on meanwhile (an arrow key while the answer settled): the focus is theirs.
    var now = document.activeElement;
    if (now && now !== was.element && now.isConnected && now.closest && now.closest("#grid button.slot")) return;
    if (was.slot) target = slotAt(was.slot);
    else if (was.kind === "undo" || was.kind === "redo") {
      var now = cards();
      for (var name in now) if (now[name] && !was.before[name]) target = slotAt(name);
    } else if (was.kind !== "shuffle" && was.id) target = document.getElementById(was.id);
    target = target || rove();
    if (target) { rove(target.dataset.slot); if (target !== document.activeElement) target.focus(); }
  });

  // A replay steps with the arrow keys, and the focus stays on the step control.
  var replayFocus = null;
  document.addEventListener("keydown", function (event) {
    var rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    if (!rel || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    var link = document.querySelector('#replay .replay-steps a[rel="' + rel + '"]');
    if (!link) return;
    event.preventDefault();
    replayFocus = rel;
    link.click();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var el = document.activeElement;
    if (event.detail.target && event.detail.target.id === "replay" && el && el.closest && el.closest("#replay")) {
      replayFocus = el.getAttribute("rel") || replayFocus || "next";
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!replayFocus || !document.getElementById("replay")) return;
    var steps = document.querySelector("#replay .replay-steps");
    var target = steps && (steps.querySelector('a[rel="' + replayFocus + '"]') || steps.querySelector("a[rel], a, button"));
    replayFocus = null;
    if (target) target.focus();
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
  // A post the script makes for the player (a drag, "Show me") goes from the button it
  // stands for, with the grid's form: not from the form itself, since htmx remembers the
  // form's last clicked button (Undo, say) and would post to that button's address instead;
  // an answer of only what changed leaves the form, and that memory, in place.
  function postFrom(button, path, values) {
    if (!button) return null;
    return htmx.ajax("POST", path, { source: button, target: document.getElementById("grid"), swap: "outerHTML", values: values || {} });
  }
  function demoStep() {
    var grid = document.getElementById("grid");
    if (!demo.on || !grid || grid.dataset.status !== "playing" || !window.htmx) return stopDemo();
    var hint = grid.dataset.hint;
    if (!hint) {
      var ask = document.getElementById("hint-button");
      return postFrom(ask, ask && ask.getAttribute("formaction")) || stopDemo();
    }
    if (hint === "none") return stopDemo();
    if (hint === "shuffle") {
      var shuffle = document.querySelector("#status button.hinted");
      return postFrom(shuffle, shuffle && shuffle.getAttribute("formaction")) || stopDemo();
    }
    var parts = hint.split(">");
    postFrom(slotAt(parts[0]), grid.getAttribute("hx-post"), { slot: parts[0], to: parts[1] }) || stopDemo();
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
  // Cards slide to their new slots (a move, an undo, a shuffle, a replay's step).  Before
  // htmx swaps an answer in, where each card stands is noted; in the next frame, each card
  // that now stands elsewhere starts from where it stood and slides to its slot.  The board
  // itself changes at once, and the slide is a transform, which the browser animates
  // without laying the page out again.  A card still sliding when the next answer comes
  // (quick plays) starts its next slide from where it is.  Off when the device asks for
  // less motion, unless the settings say otherwise (data-motion on <html>, from a cookie),
  // and off when the settings say so.
  var SLIDE = { duration: 220, easing: "ease-out" };
  // A sliding card is drawn above the others, and is not in the way of a click: a quick
  // player's click on a slot that a card is sliding over goes to that slot.
  var FLYING = { zIndex: 2, pointerEvents: "none" };
  function motion() {
    var chosen = document.documentElement.dataset.motion;
    if (chosen) return chosen === "on";
    return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }
  function cardsAt() {  // each card's slot and where it is in the table (which may itself move on the page)
    var at = {}, grid = document.getElementById("grid");
    if (!grid) return at;
    var table = grid.getBoundingClientRect();
    grid.querySelectorAll(".slot[data-card]").forEach(function (slot) {
      var box = slot.getBoundingClientRect();
      if (slot.dataset.card) {
        at[slot.dataset.card] = { slot: slot, name: slot.dataset.slot, left: box.left - table.left, top: box.top - table.top };
      }
    });
    return at;
  }
  var stood = null;  // noted before an answer's swap, used by the first afterSwap that follows
  document.addEventListener("htmx:beforeSwap", function () { stood = motion() ? cardsAt() : null; });
  document.addEventListener("htmx:afterSwap", function () {
    if (!stood) return;
    var before = stood;
    stood = null;
    slideFrom(before);
  });
  function slideFrom(before) {
    requestAnimationFrame(function () {
      // A gap never slides; a card still in the slot it had keeps any slide it is making
      // there (so an answer that confirms a move drawn already does not cut its slide); a
      // card in another slot slides there from where it stood, mid-slide or not.
      document.querySelectorAll("#grid .slot.gap, #grid .slot:not([data-card])").forEach(function (slot) {
        slot.getAnimations().forEach(function (animation) { animation.cancel(); });
      });
      var now = cardsAt();
      Object.keys(now).forEach(function (card) {
        var from = before[card], to = now[card];
        if (!from || from.name === to.name) return;
        to.slot.getAnimations().forEach(function (animation) { animation.cancel(); });
        var table = document.getElementById("grid").getBoundingClientRect(), box = to.slot.getBoundingClientRect();
        var shift = "translate(" + (from.left - (box.left - table.left)) + "px, " + (from.top - (box.top - table.top)) + "px)";
        to.slot.animate([Object.assign({ transform: shift }, FLYING), Object.assign({ transform: "none" }, FLYING)], SLIDE);
      });
    });
  }

  document.addEventListener("htmx:responseError", stopDemo);
  document.addEventListener("htmx:sendError", stopDemo);
  document.addEventListener("DOMContentLoaded", showDemoButton);

  // Drag and drop (mouse, pen or touch): a card dragged onto a gap posts the same move
  // form with that gap as its destination (slot=R-C&to=R-C); the server decides whether
  // the move is legal, as for a click.  A press that hardly moves stays a click.
  var drag = null;
  var DRAG_PX = 8;
  document.addEventListener("pointerdown", function (event) {
    var card = event.target.closest && event.target.closest("#grid button.slot.card");
    var grid = document.getElementById("grid");
    if (!card || !grid || grid.dataset.status !== "playing" || event.button !== 0) return;
    drag = { from: card.dataset.slot, x: event.clientX, y: event.clientY, moved: false, card: card };
  });
  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_PX) return;
    drag.moved = true;
    drag.card.classList.add("dragging");
    drag.card.style.transform = "translate(" + (event.clientX - drag.x) + "px," + (event.clientY - drag.y) + "px)";
    event.preventDefault();
  });
  function endDrag() {
    if (drag) { drag.card.classList.remove("dragging"); drag.card.style.transform = ""; }
    var was = drag;
    drag = null;
    return was;
  }
  document.addEventListener("pointerup", function (event) {
    var was = endDrag();
    if (!was || !was.moved) return;
    var under = document.elementFromPoint(event.clientX, event.clientY);
    var gap = under && under.closest && under.closest("#grid button.slot.gap");
    var grid = document.getElementById("grid");
    // A drag is never also a click: swallow the click the browser may send right after it.
    function swallow(click) { click.preventDefault(); click.stopPropagation(); }
    document.addEventListener("click", swallow, true);
    setTimeout(function () { document.removeEventListener("click", swallow, true); }, 0);
    if (!gap || !grid || !window.htmx) return;
    play(was.from, gap.dataset.slot);
  });
  document.addEventListener("pointercancel", endDrag);

  // Instant moves.  A click (a key, a drop) on a slot is drawn at once when the page's copy
  // of the rule (rule.js) says it moves a card: the card in its gap, the counters, the marks
  // of what can move now.  Then the move is posted as always, and the server's answer
  // confirms it (the slots that changed, as drawn already) or corrects it: a refusal or a
  // stale page (409/422) swaps in the server's table with its note.  Nothing is kept only in
  // the page.  Moves made faster than the answers come wait in a queue, in order, each with
  // the version it expects; the other actions (undo, shuffle, a hint...) wait until the
  // queue is empty, and a refused move drops the moves queued after it.
  var queue = [];  // {slot, to, move}: move is what was drawn ({from, to}), or null
  var sending = null, waiting = [];  // the move in flight; the other actions waiting for the queue
  var others = 0, othersSince = 0;  // the game's other requests in flight (a shuffle, a hint...): the queue waits for them
  var OTHERS_WAIT_MS = 15000;
  function drawMarks(grid) {
    var table = cards(), marks = window.AddictionRule.marks(table);
    grid.querySelectorAll("button.slot").forEach(function (slot) {
      var name = slot.dataset.slot, card = table[name], classes = ["slot"];
      if (card) {
        classes.push("card");
        if (card[1] === "H" || card[1] === "D") classes.push("red");
        if (marks.locked[name]) classes.push("locked");
        if (marks.movable[name]) classes.push("movable");
      } else {
        classes.push("gap");
        if (marks.dead[name]) classes.push("dead");
      }
      var value = classes.join(" ");  // as presenters.SlotView.classes writes them, with no hint
      if (slot.className !== value) slot.className = value;
    });
  }
  // The card of ``move`` drawn in its gap, if the table still shows it where it was.
  function drawMove(move) {
    var from = slotAt(move.from), to = slotAt(move.to);
    if (!from || !to || !from.dataset.card || to.dataset.card) return false;
    to.replaceChildren.apply(to, Array.prototype.slice.call(from.childNodes));
    to.dataset.card = from.dataset.card;
    from.dataset.card = "";
    return true;
  }
  function pendingMoves() {  // the moves drawn that no answer has counted yet
    return queue.filter(function (item) { return item.move; }).length + (sending && sending.move && !sending.answered ? 1 : 0);
  }
  function drawCounters(grid) {
    var moves = document.getElementById("moves-count");
    if (moves) moves.textContent = String(Number(grid.dataset.moves || 0) + pendingMoves());
  }
  function play(slot, to) {
    var grid = document.getElementById("grid");
    if (!grid || grid.dataset.status !== "playing" || !window.htmx || !window.AddictionRule) return false;
    // While another action is out (a shuffle deals a table the page cannot know), the click
    // waits its turn undrawn, and the server decides on the table it then has.
    var move = others ? null : window.AddictionRule.moveFor(cards(), slot, to);
    if (move) {
      var before = motion() ? cardsAt() : null;
      drawMove(move);
      drawMarks(grid);
      if (grid.dataset.hint) grid.removeAttribute("data-hint");
      if (before) slideFrom(before);
      sound("move");
    }
    queue.push({ slot: slot, to: to || "", move: move });
    drawCounters(grid);
    sendNext();
    return true;
  }
  function sendNext() {
    var grid = document.getElementById("grid");
    // Another request of the game is out: wait for it, but not for ever (one whose end htmx
    // never told would otherwise hold every later click).
    if (others && Date.now() - othersSince > OTHERS_WAIT_MS) others = 0;
    if (others && queue.length) { setTimeout(sendNext, 100); return; }
    if (sending || others || !grid) return;
    if (!queue.length) {
      var later = waiting;
      waiting = [];
      later.forEach(function (issue) { issue(); });
      return;
    }
    sending = queue.shift();
    sending.xhr = null;  // the request htmx makes for it (htmx:beforeRequest)
    var values = { slot: sending.slot, version: grid.dataset.version };
    if (sending.to) values.to = sending.to;
    postFrom(slotAt(sending.slot), grid.getAttribute("hx-post"), values);
    if (sending && !sending.xhr) {  // htmx did not send it (the grid was busy after all): again shortly
      queue.unshift(sending);
      sending = null;
      setTimeout(sendNext, 50);
    }
  }
  // Each answer: the moves still queued are drawn again over what it swapped in (it knows
  // only the moves before them), in the same task, so nothing flickers; a refusal, or a game
  // that ended, drops them.
  function redrawQueued(status) {
    var grid = document.getElementById("grid");
    if (!grid) return;
    if (sending) sending.answered = true;  // the counters it swapped in count it
    if (status !== 200 || grid.dataset.status !== "playing") queue = [];
    var drawn = false;
    queue.forEach(function (item) { if (item.move) drawn = drawMove(item.move) || drawn; });
    if (drawn) drawMarks(grid);
    drawCounters(grid);
  }
  document.addEventListener("table-changed", function () { redrawQueued(200); });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (sending && event.detail.xhr === sending.xhr && event.detail.target && event.detail.target.id === "grid") {
      redrawQueued(event.detail.xhr.status);
    }
  });
  function ofTheGame(event) { var elt = event.detail.elt; return !!(elt && elt.closest && elt.closest(".game")); }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (sending && !sending.xhr) sending.xhr = event.detail.xhr;
    else if (ofTheGame(event) && event.detail.requestConfig && event.detail.requestConfig.verb === "post") {
      event.detail.xhr.addictionOther = true;
      if (!others) othersSince = Date.now();
      others += 1;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.addictionOther) {
      event.detail.xhr.addictionOther = false;
      others = Math.max(0, others - 1);
      setTimeout(sendNext, 0);
      return;
    }
    if (!sending || event.detail.xhr !== sending.xhr) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status !== 200) queue = [];  // refused, stale or lost: the server's table (or note) stands
    sending = null;
    setTimeout(sendNext, 0);  // once htmx has let the grid's request go (hx-sync)
  });
  // The table's own clicks (and Enter or Space on a slot) go through the queue.
  document.addEventListener("click", function (event) {
    var slot = event.target.closest && event.target.closest("#grid button.slot");
    if (!slot || event.defaultPrevented) return;
    if (play(slot.dataset.slot)) { event.preventDefault(); event.stopPropagation(); }
  }, true);
  // Any other action waits for the moves queued before it.
  document.addEventListener("htmx:confirm", function (event) {
    if (!(queue.length || sending) || event.detail.elt.closest && !event.detail.elt.closest(".game")) return;
    if (sending && event.detail.elt === slotAt(sending.slot)) return;  // the queue's own post
    event.preventDefault();
    event.stopPropagation();  // its question (data-confirm, below) is asked when its turn comes
    waiting.push(function () { event.detail.issueRequest(false); });
  }, true);

  // The game's keys (games/_keys.html lists them): U or Ctrl+Z undo, Shift+U, Ctrl+Y or
  // Ctrl+Shift+Z redo, Shift+S shuffle (asking first while a card can still move), N a new
  // game once this one has ended, ? the list of keys.  Never while typing in a field.
  function typing(target) { return !!(target.closest && target.closest("input, textarea, select, [contenteditable]")); }
  function press(id, question) {
    var button = document.getElementById(id);
    if (!button || button.disabled) return false;
    if (question && !window.confirm(question)) return true;
    // A button htmx has just swapped in is its own once htmx has settled it (a boosted form
    // posted before that would go without htmx, and without the CSRF header).
    (function click() {
      if (document.querySelector(".htmx-settling, .htmx-added")) return setTimeout(click, 25);
      var current = document.getElementById(id);
      if (current && !current.disabled) current.click();
    })();
    return true;
  }
  document.addEventListener("keydown", function (event) {
    if (typing(event.target) || event.altKey) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key, control = event.ctrlKey || event.metaKey;
    var dialog = document.getElementById("keys-dialog");
    var done = false;
    if (event.key === "?" && dialog && dialog.showModal) {
      if (dialog.open) dialog.close(); else dialog.showModal();
      done = true;
    } else if (dialog && dialog.open) {
      return;  // the dialog's own keys (Escape closes it)
    } else if (control && key === "z") {
      done = press(event.shiftKey ? "redo-button" : "undo-button");
    } else if (control && key === "y") {
      done = press("redo-button");
    } else if (control) {
      return;
    } else if (key === "u") {
      done = press(event.shiftKey ? "redo-button" : "undo-button");
    } else if (key === "s" && event.shiftKey) {
      var shuffle = document.getElementById("shuffle-button");
      done = press("shuffle-button", shuffle && shuffle.dataset.keyConfirm);
    } else if (key === "g") {  // the next gap a card can fill (Shift: the one before), in the table's order
      var gaps = Array.prototype.slice.call(document.querySelectorAll("#grid button.slot.gap:not(.dead)"));
      if (gaps.length) {
        var all = Array.prototype.slice.call(document.querySelectorAll("#grid button.slot"));
        var at = all.indexOf(document.activeElement), order = gaps.map(function (gap) { return all.indexOf(gap); });
        var pick = event.shiftKey
          ? gaps.filter(function (gap, i) { return order[i] < at; }).pop() || gaps[gaps.length - 1]
          : gaps.filter(function (gap, i) { return order[i] > at; })[0] || gaps[0];
        rove(pick.dataset.slot);
        pick.focus();
        done = true;
      }
    } else if (key === "n" && !event.shiftKey) {
      var grid = document.getElementById("grid");
      done = !!grid && grid.dataset.status !== "playing" && press("new-game-button");
    }
    if (done) event.preventDefault();
  });
  // "All keys (?)" opens the list in the page; without scripts it is the rules page's.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#keys-link");
    var dialog = document.getElementById("keys-dialog");
    if (!link || !dialog || !dialog.showModal) return;
    event.preventDefault();
    dialog.showModal();
  });
  // The skip link lands on the table's tab stop, where the arrows work.
  document.addEventListener("click", function (event) {
    if (!(event.target.closest && event.target.closest("#skip-to-table"))) return;
    var target = rove();
    if (target) { event.preventDefault(); target.focus(); }
  });

  // Sounds (a setting, off unless chosen: data-sound="on" on <html>): made here with the Web
  // Audio API, no files: a soft tick for a move, a riffle of noise for a shuffle, four rising
  // notes for a win.  The browser lets a page sound only after the player's first click or key.
  var audio = null;
  function sounding() { return document.documentElement.dataset.sound === "on" && (window.AudioContext || window.webkitAudioContext); }
  function tone(frequency, start, length, volume) {
    var osc = audio.createOscillator(), gain = audio.createGain(), at = audio.currentTime + start;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(volume, at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + length);
  }
  function sound(kind) {
    if (!sounding()) return;
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (kind === "move") tone(660, 0, 0.06, 0.08);
    else if (kind === "win") [523, 659, 784, 1047].forEach(function (f, i) { tone(f, i * 0.12, 0.3, 0.1); });
    else if (kind === "shuffle") {
      var length = Math.floor(audio.sampleRate * 0.18), buffer = audio.createBuffer(1, length, audio.sampleRate);
      var data = buffer.getChannelData(0);
      for (var i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) * 0.15;
      var noise = audio.createBufferSource();
      noise.buffer = buffer;
      noise.connect(audio.destination);
      noise.start();
    }
    window.addictionSounds = (window.addictionSounds || []).concat([kind]);  // what was played, for tests
  }
  var wonBefore = false, sounded = {};
  document.addEventListener("DOMContentLoaded", function () {
    var grid = document.getElementById("grid");
    wonBefore = !!grid && grid.dataset.status === "won";
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!firstFor(event, sounded)) return;
    var grid = document.getElementById("grid"), path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (!grid) return;
    if (grid.dataset.status === "won" && !wonBefore) sound("win");
    else if (/\/shuffle\/$/.test(path) && event.detail.xhr && event.detail.xhr.status === 200) sound("shuffle");
    wonBefore = grid.dataset.status === "won";
  });
})();
