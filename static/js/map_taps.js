/* The map by finger (and by mouse on a "+" badge of counts left out): a tap where several
   territories lie within reach of the finger offers them by name, the one under the tap
   first; a tap on one clear territory acts as a click does. A territory chosen to attack
   or fortify from then shows its targets as buttons around it. Loaded by the game page
   after board.js and the rest (window.conquestBoard); without it, a tap is a click. */
(function () {
  "use strict";

  var FINGER_PX = 16, STEP_PX = 4, SURE = 0.8, FAN_PX = 58;
  var lastPointer = "mouse", downAt = [0, 0];
  var api = function () { return window.conquestBoard; };

  function idAt(x, y) {
    var hit = document.elementFromPoint(x, y);
    if (!hit || !hit.closest || hit.closest(".tap-choice")) { return null; }
    var at = hit.closest("svg.board .count[data-for]") || hit.closest("svg.board [data-territory]");
    return at ? (at.getAttribute("data-for") || at.getAttribute("data-territory")) : null;
  }

  function screenPoint(svg, id) {
    var count = svg.querySelector('.count[data-for="' + id + '"] .disc');
    if (!count) { return null; }
    var box = count.getBoundingClientRect();
    if (box.width) { return [box.left + box.width / 2, box.top + box.height / 2]; }
    var at = api().labelPoint(id), ctm = svg.getScreenCTM();
    return ctm ? [ctm.a * at[0] + ctm.e, ctm.d * at[1] + ctm.f] : null;
  }

  // The territories a tap at (x, y) may have meant: what lies under the finger's width,
  // and every territory whose count (drawn or left out) is under it. One only when the
  // territory under the tap fills nearly all of it.
  function offered(x, y, radius) {
    var svg = api() && api().board();
    if (!svg) { return []; }
    radius = radius || FINGER_PX;
    var centre = idAt(x, y), hits = {}, samples = 0;
    for (var dx = -radius; dx <= radius; dx += STEP_PX) {
      for (var dy = -radius; dy <= radius; dy += STEP_PX) {
        if (dx * dx + dy * dy > radius * radius) { continue; }
        var id = idAt(x + dx, y + dy);
        samples += 1;
        if (id) { hits[id] = (hits[id] || 0) + 1; }
      }
    }
    Array.prototype.forEach.call(svg.querySelectorAll(".count[data-for]"), function (count) {
      var id = count.getAttribute("data-for"), at = screenPoint(svg, id);
      if (at && Math.hypot(at[0] - x, at[1] - y) <= radius && !hits[id]) { hits[id] = 0.5; }
    });
    var ids = Object.keys(hits);
    if (centre && (hits[centre] || 0) >= SURE * samples && ids.every(function (id) { return id === centre || hits[id] >= 1; })
        && ids.length <= 2) { return [centre]; }
    if (ids.length <= 1) { return ids; }
    return ids.sort(function (a, b) { return (b === centre) - (a === centre) || hits[b] - hits[a]; });
  }

  function close() {
    Array.prototype.forEach.call(document.querySelectorAll(".tap-choice"), function (node) { node.remove(); });
  }

  function choose(id, fan) {
    close();
    var t = api().territory(id);
    if (!t) { return; }
    t.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    if (fan) { showTargets(id); }
  }

  // A small panel of buttons over the map: `ids` by name (and armies), each at its place
  // around (x, y) when `around`, else in a list beside the tap.
  function panel(ids, x, y, kind, around) {
    close();
    var svg = api().board(), wrap = svg && svg.parentNode;
    if (!wrap || !ids.length) { return null; }
    var box = wrap.getBoundingClientRect(), node = document.createElement("div");
    node.className = "tap-choice " + kind;
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", svg.getAttribute("data-" + kind + "-word") || "");
    ids.forEach(function (id, i) {
      var button = document.createElement("button"), t = api().territory(id);
      button.type = "button";
      button.setAttribute("data-choose", id);
      button.className = "tap-option" + (t && t.classList.contains("mine") ? " mine" : "");
      button.textContent = api().nameOf(id) + " · " + (t.getAttribute("data-armies") || "?");
      button.setAttribute("aria-label", t.getAttribute("aria-label") || api().nameOf(id));
      if (around) {
        var angle = -Math.PI / 2 + 2 * Math.PI * i / ids.length;
        button.style.left = Math.max(64, Math.min(box.width - 64, x - box.left + FAN_PX * Math.cos(angle))) + "px";
        button.style.top = Math.max(24, Math.min(box.height - 24, y - box.top + FAN_PX * Math.sin(angle))) + "px";
      }
      node.appendChild(button);
    });
    var shut = document.createElement("button");
    shut.type = "button"; shut.className = "tap-close"; shut.textContent = "✕";
    shut.setAttribute("aria-label", svg.getAttribute("data-close-word") || "✕");
    node.appendChild(shut);
    if (!around) {
      node.style.left = Math.max(4, Math.min(box.width - 180, x - box.left - 80)) + "px";
      node.style.top = Math.max(4, Math.min(box.height - 40 * ids.length - 44, y - box.top + 14)) + "px";
    }
    wrap.appendChild(node);
    return node;
  }

  // The chosen territory's targets (the legal ones the page highlights) as buttons around it.
  function showTargets(id) {
    var svg = api().board(), g = document.getElementById("game");
    if (!svg || !g || g.getAttribute("data-selected") !== id) { return; }
    var targets = Array.prototype.map.call(svg.querySelectorAll(".territory.target"),
      function (t) { return t.getAttribute("data-territory"); });
    var at = screenPoint(svg, id);
    if (targets.length && at) { panel(targets, at[0], at[1], "targets", true); }
  }

  document.addEventListener("pointerdown", function (event) {
    lastPointer = event.pointerType || "mouse"; downAt = [event.clientX, event.clientY];
  }, true);

  // Before board_choice.js's own click (a capture on the window): a tap that may have meant
  // several territories asks which; one that meant one goes on as the click it is.
  window.addEventListener("click", function (event) {
    var option = event.target.closest && event.target.closest(".tap-choice [data-choose]");
    if (option) {
      event.preventDefault();
      choose(option.getAttribute("data-choose"), !option.closest(".targets"));
      return;
    }
    if (event.target.closest && event.target.closest(".tap-close")) { close(); return; }
    if (!event.isTrusted || !event.detail || !api()) { return; }  // keys and scripts: as they are
    var svg = event.target.closest && event.target.closest("svg.board.zoomable");
    if (!svg) { close(); return; }
    // a drag or a pinch ends in no click on a territory (board_zoom.js swallows it)
    if (Math.hypot(event.clientX - downAt[0], event.clientY - downAt[1]) > 6) { return; }
    // a mouse points precisely: it is asked which only on a "+" badge (counts left out)
    var badge = event.target.closest(".cluster");
    if (!badge && lastPointer === "mouse") { return; }
    var ids = badge ? [badge.closest(".count").getAttribute("data-for")].concat(badge.getAttribute("data-hidden").split(" "))
      : offered(event.clientX, event.clientY, FINGER_PX);
    close();
    if (ids.length > 1) {
      event.preventDefault();
      event.stopPropagation();
      var first = panel(ids, event.clientX, event.clientY, "choice", false);
      if (first) { first.querySelector("button").focus({ preventScroll: true }); }
      return;
    }
    if (ids.length === 1) {
      event.preventDefault();
      event.stopPropagation();
      choose(ids[0], true);
    }
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.querySelector(".tap-choice")) { close(); }
  });
  // (the poll asks every few seconds; only a game that moved redraws the map under it)
  document.addEventListener("htmx:afterSwap", close);

  window.conquestTaps = { offered: function (x, y) { return offered(x, y, FINGER_PX); } };
})();
