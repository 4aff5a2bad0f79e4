/* The map by keyboard (board.js and board_zoom.js first). The map is one stop of the Tab
   order (a roving tabindex: the selected territory, else the last one focused, else the
   player's first); the arrow keys move the focus to the neighbour lying that way (sea
   lanes included, across the map's edge too), and Enter or Space acts on it as a click
   does; "m" brings the focus back to the map. */
(function () {
  "use strict";

  var B = window.conquestBoard;
  var $ = B.$, $all = B.$all, territory = B.territory, neighbours = B.neighbours;
  var labelPoint = B.labelPoint;

  var focusedTerritory = null;
  var ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  function rovingTabindex() {
    var all = $all("svg.board [data-territory]");
    if (!all.length) { return; }
    var keep = $("svg.board .territory.selected")
      || (focusedTerritory && territory(focusedTerritory))
      || $("svg.board .territory.mine") || all[0];
    all.forEach(function (t) { t.setAttribute("tabindex", t === keep ? "0" : "-1"); });
  }

  function rovingTo(node) {
    $all("svg.board [data-territory]").forEach(function (other) {
      other.setAttribute("tabindex", other === node ? "0" : "-1");
    });
    focusedTerritory = node.getAttribute("data-territory");
  }

  // The board's own table (data-arrows: left, up, right, down; web/arrow_keys.py) leads
  // every territory to every other; a board without one takes the nearest that way.
  var ARROW_ORDER = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"];
  function neighbourToward(id, arrow, key) {
    var table = (territory(id) && territory(id).getAttribute("data-arrows") || "").split(" ");
    if (table.length === 4) { var given = table[ARROW_ORDER.indexOf(key)]; return given === "-" ? null : given; }
    var here = labelPoint(id), best = null, bestCost = Infinity;
    (neighbours()[id] || []).forEach(function (other) {
      var there = labelPoint(other);
      var dx = there[0] - here[0], dy = there[1] - here[1];
      // a sea lane across the map's edge (Alaska to Kamchatka) runs the short way round
      var mapW = B.mapWidth();
      if (Math.abs(dx + mapW) < Math.abs(dx)) { dx += mapW; }
      if (Math.abs(dx - mapW) < Math.abs(dx)) { dx -= mapW; }
      var along = dx * arrow[0] + dy * arrow[1];
      var across = Math.abs(dx * arrow[1] - dy * arrow[0]);
      if (along <= 0 || across > along * 2.2) { return; }  // not that way
      var cost = along + across * 2;
      if (cost < bestCost) { best = other; bestCost = cost; }
    });
    return best;
  }

  document.addEventListener("keydown", function (event) {
    var t = event.target.closest && event.target.closest("svg.board [data-territory]");
    if (!t || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var id = t.getAttribute("data-territory");
    if (ARROWS[event.key]) {
      event.preventDefault();
      var next = neighbourToward(id, ARROWS[event.key], event.key);
      if (!next) { return; }
      t.setAttribute("tabindex", "-1");
      var node = territory(next);
      node.setAttribute("tabindex", "0");
      node.focus();
    } else if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      t.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    }
  });
  document.addEventListener("focusin", function (event) {
    var t = event.target.closest && event.target.closest("svg.board [data-territory]");
    $all("svg.board .count.focused").forEach(function (c) { c.classList.remove("focused"); });
    if (!t) { return; }
    focusedTerritory = t.getAttribute("data-territory");
    var count = $('svg.board .count[data-for="' + focusedTerritory + '"]');
    if (count) { count.classList.add("focused"); if (count.classList.contains("lod-out")) { B.uncrowd(); } }
    $all("svg.board [data-territory]").forEach(function (other) {
      other.setAttribute("tabindex", other === t ? "0" : "-1");
    });
  });

  // "m" (anywhere but a field) brings the focus back to the map, on the territory it
  // last had (the hint under the map says so).
  document.addEventListener("keydown", function (event) {
    if (event.key !== "m" && event.key !== "M") { return; }
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) { return; }
    var here = event.target;
    if (here && here.closest && here.closest("input, textarea, select, [contenteditable]")) { return; }
    var t = $('svg.board [data-territory][tabindex="0"]') || $("svg.board [data-territory]");
    if (!t) { return; }
    event.preventDefault();
    t.focus({ preventScroll: true });
    var area = $("#board");
    if (area && area.getBoundingClientRect().top < 0) { area.scrollIntoView(); }
  });

  // One column pins the map to the top of the screen: a control the focus comes to (by
  // Tab, by a form's answer) scrolls out from under it. Not one a finger or the mouse
  // presses: it is in sight, and scrolling between the press and the release would take
  // the release off it, so the tap would never click (a link would not open).
  var pressing = false;
  document.addEventListener("pointerdown", function () { pressing = true; }, true);
  function released() { window.setTimeout(function () { pressing = false; }, 0); }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  document.addEventListener("focusin", function (event) {
    var area = $("#board"), node = event.target;
    if (pressing || !area || !node.getBoundingClientRect || area.contains(node)
        || window.getComputedStyle(area).position !== "sticky") { return; }
    var bottom = area.getBoundingClientRect().bottom, box = node.getBoundingClientRect();
    // the padding is the pinned map's height (where it stands once pinned), not where its
    // foot is now: further down, that could exceed the window and nothing would scroll
    var pinned = (parseFloat(window.getComputedStyle(area).top) || 0) + area.offsetHeight;
    document.documentElement.style.scrollPaddingTop = Math.ceil(pinned + 8) + "px";
    if (box.top < bottom + 4 && box.bottom > 0) { window.scrollBy(0, box.top - bottom - 8); }
  });

  B.rovingTabindex = rovingTabindex;
  B.rovingTo = rovingTo;
})();
