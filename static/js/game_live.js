/* The game page's live updates, heard and kept in hand. The live poll and the game's stream
   (game_stream.js), a history step (history.js) and the player's own forms replace the game area
   (#game) whole, so no live region may sit inside it: a screen reader hears a region only
   while it stays in place. The one region is #game-news, outside #game; here it says
     - what an update brought: an opponent's move (the log's new lines), the answer to the
       player's own move (the notes), the board the history shows, and "your move" when the
       game comes to wait for the player;
     - what the parts of #game marked data-speak come to say between updates (the
       selection on the map, the armies left to place, a roll's odds).
   Focus survives every update: each element of #game that takes focus has an id, the same
   in every drawing of the same state (its own, else one made from its form, name and
   value, or its link), and after a swap the element with the id that had it has it again
   (a move's answer takes it instead: game_stream.js). Where that element is gone, the play
   panel's heading takes it, never <body>. */
(function () {
  "use strict";

  var FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
  var before = null;  // what the game area was, as a swap starts

  function byId(id) { return document.getElementById(id); }
  function game() { return byId("game"); }
  function words(node) { return node ? (node.innerText || node.textContent || "").replace(/\s+/g, " ").trim() : ""; }

  function say(text) {
    var region = byId("game-news");
    if (!region || !text) { return; }
    // The same words twice are still news: a region speaks only when its text changes.
    region.textContent = region.textContent === text ? text + "\u00a0" : text;
  }

  // ---- Stable ids --------------------------------------------------------------------
  function slug(text) {
    return String(text || "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
      .slice(0, 60);
  }

  function idFor(node) {
    var form = node.form || (node.closest && node.closest("form"));
    var tag = node.tagName.toLowerCase();
    var step = node.getAttribute("data-step");
    if (step) { return "step-" + slug(step); }
    if (node.getAttribute("data-territory")) { return "t-" + node.getAttribute("data-territory"); }
    var own = node.getAttribute("name")
      ? slug(node.getAttribute("name")) + (node.value !== undefined && /^(radio|checkbox|submit)$/.test(node.type || "")
        && node.getAttribute("value") !== null ? "-" + slug(node.getAttribute("value")) : "")
      : tag === "a" ? "link-" + slug(node.getAttribute("href"))
      : tag === "summary" ? "summary-" + slug((node.parentNode && node.parentNode.className) || "")
      : tag;
    var where = form ? (form.id || "form-" + slug(form.getAttribute("action"))) : "game";
    return where + "-" + own;
  }

  function stampIds(root) {
    if (!root) { return; }
    var taken = {};
    Array.prototype.forEach.call(root.querySelectorAll(FOCUSABLE), function (node) {
      if (node.id) { return; }
      var base = idFor(node), id = base, n = (taken[base] || 0) + 1;
      if (n > 1) { id = base + "-" + n; }
      while (byId(id)) { n += 1; id = base + "-" + n; }
      taken[base] = n;
      node.id = id;
    });
  }

  // ---- What an update brought --------------------------------------------------------
  function logLinesAfter(root, version) {
    var lines = [];
    Array.prototype.forEach.call(root.querySelectorAll("#log li.event"), function (line) {
      if (parseInt(line.getAttribute("value"), 10) > version) {
        lines.push(words(line.querySelector(".text")));
      }
    });
    return lines.reverse();  // the log shows the newest first; they are told in order
  }

  // Whether the game waits for the viewer: the head says so, or (every seat at once) the
  // title the server gave the area leads with "Your move".
  function yourMove(root) {
    if (!root) { return false; }
    var lead = (document.body.getAttribute("data-your-move-words") || "") + " · ";
    return !!root.querySelector(".game-head .your-move") ||
      (lead.length > 3 && (root.getAttribute("data-title") || "").indexOf(lead) === 0);
  }

  function news(was, elt) {
    var now = game();
    if (!now) { return ""; }
    var told = [];
    var own = elt && elt.tagName === "FORM" && elt.classList.contains("act");
    if (own) {
      told.push(words(now.querySelector("#game-notes")));
      Array.prototype.forEach.call(now.querySelectorAll("[role=alert]"), function (alert) {
        if (!alert.closest("#game-notes")) { told.push(words(alert)); }
      });
    } else if (now.getAttribute("data-live") === "1" && was.live) {
      var lines = logLinesAfter(now, was.version);
      // A long catch-up (the page was away): the last few, and how many in all.
      if (lines.length > 4) { lines = lines.slice(-3); }
      told = told.concat(lines);
    }
    var history = now.querySelector(".history-note");
    if (history && words(history) !== was.history) { told.push(words(history)); }
    if (yourMove(now) && !was.yourMove) { told.push(words(now.querySelector(".game-head .state"))); }
    return told.filter(Boolean).join(" ");
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "game" || !event.detail.shouldSwap) { return; }
    var active = document.activeElement;
    before = {
      version: parseInt(target.getAttribute("data-version"), 10) || 0,
      live: target.getAttribute("data-live") === "1",
      yourMove: yourMove(target),
      history: words(target.querySelector(".history-note")),
      focused: active && active !== document.body && target.contains(active) ? active.id : null
    };
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var now = game();
    if (!now || !before || !(event.detail.target && event.detail.target.id === "game")) { return; }
    var was = before;
    before = null;
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    stampIds(now);
    if (observer) { observer.takeRecords(); }  // the new area's own first words are not news
    remember(now);
    say(news(was, elt));
    var own = elt && elt.tagName === "FORM" && elt.classList.contains("act");
    if (own || !was.focused) { return; }  // a move's answer takes the focus (game_stream.js)
    var again = byId(was.focused);
    if (!again || !now.contains(again)) {
      again = byId("play-title");
      if (again) { again.setAttribute("tabindex", "-1"); }
    }
    if (again && document.activeElement !== again) {
      // (the notes an answer was read in take the focus only by script: tabindex -1)
      if (again.tabIndex < 0 && !again.hasAttribute("tabindex")) { again.setAttribute("tabindex", "-1"); }
      again.focus({ preventScroll: true });
    }
  });

  // ---- The data-speak parts, between updates -----------------------------------------
  // A swap inserts #game whole (a record of #main's own children): only changes inside a
  // data-speak part that was already there are spoken.
  var pending = [], observer = null;
  function heard(records) {
    records.forEach(function (record) {
      var node = record.target.nodeType === 1 ? record.target : record.target.parentNode;
      var part = node && node.closest && node.closest("#game [data-speak]");
      if (part && pending.indexOf(part) < 0) { pending.push(part); }
    });
    if (!pending.length) { return; }
    var parts = pending;
    pending = [];
    // Only what a part has not said yet (a script writing the same help again is no news).
    say(parts.filter(function (part) {
      var text = words(part), fresh = text !== part.conquestSaid;
      part.conquestSaid = text;
      return fresh;
    }).map(words).filter(Boolean).join(" "));
  }

  function remember(root) {
    Array.prototype.forEach.call(root ? root.querySelectorAll("[data-speak]") : [], function (part) {
      part.conquestSaid = words(part);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    stampIds(game());
    remember(game());
    var main = byId("main");
    if (main && window.MutationObserver) {
      observer = new window.MutationObserver(heard);
      observer.observe(main, { childList: true, characterData: true, subtree: true });
    }
  });
})();
