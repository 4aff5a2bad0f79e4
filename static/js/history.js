/* The game page's history view, progressively enhanced (without this script the slider's
   "Show" button and the step links load ?at=N pages). The slider moves one move per arrow
   key and the board follows once the keys rest; the step links and the autoplay load the
   board in place. The address names the move the board shows, and changes only when the
   board does, so a reload or a shared link shows the same board. */
(function () {
  "use strict";

  var wanted = null;    // the move the player asked for last (a number; the present = version)
  var loading = null;   // the move being loaded now, or null
  var wantedHow = "replace";  // how the address follows the move wanted: push or replace
  var timer = null;     // the slider's pause before loading
  var playing = false;  // autoplay on
  var playTimer = null;
  var PLAY_EVERY = 900; // ms a move stays on the board while playing
  var SLIDER_REST = 250;

  function form() { return document.querySelector("#game form.history"); }
  function slider() { return document.getElementById("history-at"); }
  function version() { var f = form(); return f ? parseInt(f.getAttribute("data-version"), 10) : 0; }
  function shown() {
    var s = slider();
    return s ? parseInt(s.getAttribute("value"), 10) : 0;  // the move this board shows
  }
  function urlFor(at) {
    var base = form().getAttribute("data-base");
    return at >= version() ? base : base + "?at=" + at;
  }
  function atOf(href) {
    var match = /[?&]at=(\d+)/.exec(href);
    return match ? parseInt(match[1], 10) : version();
  }

  // What had the focus, to give it back on the new board.
  function focusKey() {
    var node = document.activeElement;
    if (!node || !node.closest || !node.closest("#game")) { return null; }
    if (node.id) { return "#" + node.id; }
    if (node.getAttribute("data-step")) { return '[data-step="' + node.getAttribute("data-step") + '"]'; }
    return null;
  }

  function load(at, how) {
    wanted = at;
    wantedHow = how;
    if (loading !== null) { return; }  // the load under way looks at `wanted` when done
    loading = at;
    var focused = focusKey();
    var url = urlFor(at);
    window.htmx.ajax("GET", url, { target: "#game", swap: "outerHTML" }).then(function () {
      var done = loading;
      loading = null;
      if (done !== wanted) {
        // (Paused while the next frame was on its way: the board stays where it was.)
        if (wanted === shown()) { drawPlay(); } else { load(wanted, wantedHow); }
        return;
      }
      if (shown() === done) {
        var state = { conquestAt: done };
        if (wantedHow === "push") { window.history.pushState(state, "", url); }
        else { window.history.replaceState(state, "", url); }
        if (focused) {
          var again = document.querySelector("#game " + focused) ||
            (focused.indexOf("data-step") >= 0 ? document.querySelector("#game nav.steps") : null);
          if (again) { again.focus({ preventScroll: true }); }
        }
      }
      if (wantedHow === "push") { boardInSight(); }
      drawPlay();
      if (playing) { nextFrame(); }
    }, function () { loading = null; stopPlaying(); });
  }

  // The player asked for a move ("Show", a step) to see its board: the page comes up to
  // the board if its top has gone above the window (one column pins it there already).
  function boardInSight() {
    var area = document.getElementById("board");
    if (!area || window.getComputedStyle(area).position === "sticky") { return; }
    var top = area.getBoundingClientRect().top;
    if (top < 0) { window.scrollBy(0, top - 8); }
  }

  // An older answer never replaces the board once the player has asked for another move.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (loading === null || wanted === loading) { return; }
    var path = event.detail.pathInfo && event.detail.pathInfo.requestPath;
    if (path === urlFor(loading)) { event.detail.shouldSwap = false; }
  });
  // The live poll waits while the player moves through the history.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "live-poll" && (loading !== null || timer !== null || playing)) {
      event.preventDefault();
    }
  });

  document.addEventListener("input", function (event) {
    if (event.target.id !== "history-at") { return; }
    var at = parseInt(event.target.value, 10);
    var out = document.getElementById("history-out");
    if (out) { out.textContent = at; }
    event.target.setAttribute("aria-valuetext", at);
    stopPlaying();
    wanted = at;
    if (timer !== null) { window.clearTimeout(timer); }
    timer = window.setTimeout(function () { timer = null; load(wanted, "replace"); }, SLIDER_REST);
  });

  document.addEventListener("submit", function (event) {
    if (!event.target.matches || !event.target.matches("#game form.history")) { return; }
    event.preventDefault();
    stopPlaying();
    load(parseInt(slider().value, 10), "push");
  });

  document.addEventListener("click", function (event) {
    var step = event.target.closest && event.target.closest("#game nav.steps [data-step]");
    if (step && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      stopPlaying();
      load(atOf(step.getAttribute("href")), "push");
      return;
    }
    if (event.target.closest && event.target.closest("#history-play")) {
      if (playing) {
        // Paused: the board stops at the move it shows, not at a frame still on its way.
        stopPlaying();
        if (loading !== null) { wanted = shown(); }
        return;
      }
      playing = true;
      drawPlay();
      // From the present, playing starts over from the first move.
      if (shown() >= version()) { load(1, "replace"); } else { nextFrame(); }
    }
  });

  function nextFrame() {
    if (playTimer !== null) { window.clearTimeout(playTimer); }
    playTimer = window.setTimeout(function () {
      playTimer = null;
      if (!playing || loading !== null) { return; }
      var next = shown() + 1;
      if (next >= version()) { playing = false; }
      load(Math.min(next, version()), "replace");
    }, PLAY_EVERY);
  }

  function stopPlaying() {
    playing = false;
    if (playTimer !== null) { window.clearTimeout(playTimer); playTimer = null; }
    drawPlay();
  }

  function drawPlay() {
    var button = document.getElementById("history-play");
    var nav = document.querySelector("#game nav.steps");
    if (!button || !nav) { return; }
    button.hidden = false;
    button.setAttribute("aria-pressed", playing ? "true" : "false");
    button.textContent = playing ? "‖ " + nav.getAttribute("data-pause-label")
      : "▶ " + nav.getAttribute("data-play-label");
  }

  // Back and forward through the moves the player stepped to.
  window.addEventListener("popstate", function (event) {
    if (event.state && event.state.htmx) { return; }  // htmx restores its own pages
    if (!form()) { return; }
    stopPlaying();
    var at = atOf(window.location.search);
    if (at !== shown()) { load(at, "none"); }
  });

  document.addEventListener("htmx:afterSettle", drawPlay);
  document.addEventListener("DOMContentLoaded", function () {
    if (form() && window.history.state === null) {
      window.history.replaceState({ conquestAt: shown() }, "", window.location.href);
    }
    drawPlay();
  });
})();
