/* The game area (#game), drawn and redrawn (the board's other scripts first): its set-up
   once the page is read and after every swap, the game's stream, and the live poll kept
   from wiping a form the player is filling in (a banner offers the new state instead). */
(function () {
  "use strict";

  var B = window.conquestBoard;
  var $ = B.$, $all = B.$all, game = B.game;

  var stale = false;      // the game moved on while the player was busy

  function showStaleBanner() {
    if (stale || !game()) { return; }
    stale = true;
    var banner = document.createElement("div");
    banner.className = "stale-banner";
    banner.setAttribute("role", "status");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = game().getAttribute("data-refresh-label") || "↻";
    button.addEventListener("click", function () {
      B.dirty = false; stale = false;
      window.htmx.ajax("GET", window.location.pathname, { target: "#game", swap: "outerHTML" });
    });
    banner.appendChild(document.createTextNode((game().getAttribute("data-moved-label") || "") + " "));
    banner.appendChild(button);
    var play = document.getElementById("play");
    (play || game()).insertBefore(banner, (play || game()).firstChild.nextSibling);
  }

  function init(root) {
    $all("form.placement", root).forEach(B.updateRemaining);
    $all("#form-trade", root).forEach(B.updateSetValue);
    var fortify = $("#form-fortify", root);
    if (fortify && fortify.getAttribute("data-mode") === "spread") {
      var from = $("[name=from]", fortify);
      if (from && from.value) { B.chooseFortifySource(from.value, true); }
    }
    var g = game();
    if (g && g.getAttribute("data-selected") === null) {
      var selected = $("svg.board .territory.selected");
      g.setAttribute("data-selected", selected ? selected.getAttribute("data-territory") : "");
    }
    B.initMap();
    B.rovingTabindex();
    B.tick();
  }


  // The game's stream (EventSource, /api/v1/games/{id}/stream/) says at once when the game
  // moved or a chat line came; the live poll's own request then redraws the page. While the
  // stream is open the 4-second poll stands by; without EventSource, or while the stream is
  // down (the browser reconnects by itself, Last-Event-ID and all), the poll goes on.
  var streaming = false, fromStream = false, stream = null, redraw = null;
  function follow() {
    var game = document.getElementById("game");
    if (stream || !window.EventSource || !game || !document.getElementById("live-poll")) { return; }
    stream = new EventSource("/api/v1/games/" + game.getAttribute("data-game") +
                             "/stream/?last_event_id=" + (game.getAttribute("data-version") || 0));
    stream.addEventListener("open", function () { streaming = true; });
    stream.addEventListener("error", function () { streaming = false; });
    stream.addEventListener("game_event", function () {
      if (redraw) { return; }
      redraw = window.setTimeout(function () {  // a burst of events: one redraw
        redraw = null;
        var poll = document.getElementById("live-poll");
        if (!poll || !window.htmx) { return; }
        fromStream = true;
        window.htmx.ajax("GET", poll.getAttribute("hx-get"),
                         { source: poll, target: "#game", swap: "outerHTML" });
        fromStream = false;
      }, 30);
    });
    stream.addEventListener("chat", function () {
      if (window.conquestChat) { window.conquestChat.refresh(); }
    });
    // The server ends every stream after a while (the browser comes back by itself, from
    // the close's id); one whose sign-in ended is not worth coming back to: the poll says
    // what the page may show now.
    stream.addEventListener("close", function (event) {
      var reason = null;
      try { reason = JSON.parse(event.data).reason; } catch (e) { reason = null; }
      if (reason === "credentials_ended") {
        stream.close();
        streaming = false;
      }
    });
  }
  document.body && document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "live-poll" && (stale || (streaming && !fromStream))) {
      event.preventDefault();
    }
  });
  // A poll answered with what the page already shows (two polls in flight, one drawn
  // first): not drawn again, so nothing the player chose since is lost.
  function stampOf(url) {
    var found = /[?&]v=([^&]*)/.exec(url || "");
    return found ? found[1] : null;
  }
  function shownAlready(event) {
    var shown = document.getElementById("live-poll");
    var asked = stampOf(event.detail.pathInfo && event.detail.pathInfo.requestPath);
    var answer = /id="live-poll"[^>]*hx-get="([^"]*)"/.exec(event.detail.serverResponse || "");
    return !!(shown && asked !== null && answer &&
              stampOf(answer[1].replace(/&amp;/g, "&")) === stampOf(shown.getAttribute("hx-get")));
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var elt = config && config.elt;
    if (!elt || elt.id !== "live-poll") { return; }
    if (shownAlready(event)) {
      event.detail.shouldSwap = false;
    } else if (B.dirty) {
      event.detail.shouldSwap = false;
      showStaleBanner();
    }
  });
  // Swapping the whole game area out and in lets the browser's scroll anchoring jump to
  // the foot of the page: the page stays where the player had it. The new map takes the
  // player's zoom before it is first painted.
  var scrolledTo = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "game") { scrolledTo = window.scrollY; }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (scrolledTo !== null) { window.scrollTo(0, scrolledTo); scrolledTo = null; }
    // A new game area, untouched: what the player does from now on (even before it
    // settles) counts as touched.
    if (event.detail.target && event.detail.target.id === "game") { B.dirty = false; stale = false; }
    B.initMap();
  });

  // Bring a node into sight below the map when the map is pinned to the top of the screen
  // (one column), or into the window otherwise.
  function reveal(node) {
    var area = $("#board"), top = 0;
    if (area && window.getComputedStyle(area).position === "sticky") {
      top = area.getBoundingClientRect().bottom;
    }
    var box = node.getBoundingClientRect();
    if (box.top < top || box.top > window.innerHeight - 96) {
      window.scrollBy(0, box.top - top - 8);
    }
  }
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "game" || document.getElementById("game")) {
      init(document);
      var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
      if (elt && elt.tagName === "FORM" && elt.classList.contains("act")) {
        var alert = $("#game [role=alert]") || $("#game .notes");
        if (alert) {
          alert.setAttribute("tabindex", "-1"); alert.focus({ preventScroll: true });
          reveal(alert);
        }
      }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    follow();
    window.setInterval(B.tick, 1000);
  });
})();
