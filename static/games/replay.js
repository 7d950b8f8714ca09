// A replay's Play/Pause: steps forward on its own, about one step a second, until the end
// or a pause.  Without this file the button stays hidden and the step links do the same.
(function () {
  "use strict";

  var playing = false, timer = null, PACE_MS = 900;

  function button() { return document.getElementById("replay-play"); }
  function link(selector) { return document.querySelector("#replay .replay-steps " + selector); }

  // The button is drawn again with every step (it is inside #replay): show it and its word.
  function show() {
    var play = button();
    if (!play) return;
    play.hidden = false;
    play.textContent = playing ? play.dataset.pauseText : play.dataset.playText;
  }
  function stop() {
    playing = false;
    clearTimeout(timer);
    show();
  }
  // Each step replaces the address rather than adding to the history, so that Back in the
  // browser leaves the replay instead of stepping through it; the address is the step shown.
  var asked = null;  // the step autoplay asked for and has not shown yet
  function go(href) {
    asked = href;
    htmx.ajax("GET", href, { target: "#replay", swap: "outerHTML" }).then(function () {
      if (asked === href && playing) history.replaceState(history.state, "", href);
      if (asked === href) asked = null;
    });
  }
  // A step that arrives after Pause is not shown: the table stays where it was paused.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    if (!playing && asked && config && config.path === asked) {
      event.detail.shouldSwap = false;
      asked = null;
    }
  });
  function step() {
    var next = link('a[rel="next"]');
    if (!playing || !next) return stop();
    go(next.getAttribute("href"));
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("#replay-play")) return;
    if (playing) return stop();
    if (!window.htmx) return;
    playing = true;
    show();
    var next = link('a[rel="next"]');
    if (next) return step();
    go(link("a").getAttribute("href"));  // at the end: start again from the deal
  });
  // The button keeps the keyboard's focus across steps, so Space pauses as it played.
  var focused = false;
  document.addEventListener("htmx:beforeSwap", function () {
    focused = document.activeElement === button();
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!document.getElementById("replay")) return;
    show();
    if (focused && button()) button().focus();
    if (!playing) return;
    clearTimeout(timer);
    if (link('a[rel="next"]')) timer = setTimeout(step, PACE_MS);
    else stop();
  });
  document.addEventListener("htmx:responseError", stop);
  document.addEventListener("htmx:sendError", stop);
  document.addEventListener("DOMContentLoaded", show);
})();
