/* The map zoomed and panned (board.js first): buttons, dragging, the wheel and pinching at
   the pointer, opened on what matters to the viewer; every disc the same size on screen,
   drawn only where it covers no other (a "+" badge tells of those left out), a name only
   where it fits. Without it the whole map shows. */
(function () {
  "use strict";

  var B = window.conquestBoard;
  var $ = B.$, $all = B.$all, game = B.game, gameId = B.gameId, board = B.board;
  var territory = B.territory, armiesOf = B.armiesOf, nameOf = B.nameOf;

  // The view is kept as a centre in map units and a zoom factor over the base scale, per
  // game, in this module and in sessionStorage: the live poll, a form's answer and a reload
  // redraw the map, and the view the player chose comes back with it.
  // The map's size in its own units: the drawn board's viewBox as the server sent it (the
  // classic map is 1000 by 600; every map carries its own), read once per drawn board.
  var MAP_W = 1000, MAP_H = 600, ZOOM_MAX = 8, ZOOM_STEP = 1.5, OPENING_ZOOM_MAX = 4;
  var FINEST_PX_PER_UNIT = 4, FRAME_MARGIN_PX = 24;
  var DISC_PX = 24, NAME_PX = 10;     // a disc's width on screen (a tap's target), a name's size
  var mapView = null;                 // {game, cx, cy, z}
  var gesture = null, pointers = {}, swallowClick = false;

  // Base scale (screen px per map unit): the whole map in the box, at any size (a phone
  // included: zooming in is the player's, the opening frame the viewer's territories').
  function measure(svg) {
    if (!svg) { return; }
    if (!svg._size) {
      var box = (svg.getAttribute("viewBox") || "").split(/[ ,]+/).map(parseFloat);
      svg._size = box.length === 4 && box[2] > 0 && box[3] > 0 ? [box[2], box[3]] : [1000, 600];
    }
    MAP_W = svg._size[0]; MAP_H = svg._size[1];
  }
  function baseScale(svg) {
    measure(svg);
    return Math.min(svg.clientWidth / MAP_W, svg.clientHeight / MAP_H);
  }
  function zoomMin() { return 1; }
  // Deep enough for the smallest territory of the biggest map to take a finger's tap.
  function zoomMax(svg) { return Math.max(ZOOM_MAX, FINEST_PX_PER_UNIT / baseScale(svg)); }

  // What matters to the viewer: the selection, else their territories, else the last move's.
  function framedTerritories(svg) {
    var points = $all(".territory.selected", svg);
    if (!points.length) { points = $all(".territory.mine", svg); }
    var ids = points.map(function (t) { return t.getAttribute("data-territory"); });
    if (!ids.length) { ids = (svg.getAttribute("data-last-move") || "").split(" ").filter(Boolean); }
    return ids;
  }

  // The opening view: the whole map (the discs that decide the game drawn first, a crowded
  // spot a tap away: map_taps.js), or the frame around the selection.
  function startingView(svg) {
    var id = gameId();
    try {
      var saved = JSON.parse(window.sessionStorage.getItem("conquest-map-" + id) || "null");
      if (saved && typeof saved.z === "number") { saved.game = id; return saved; }
    } catch (e) { /* storage refused: start afresh */ }
    var ids = $all(".territory.selected", svg).length ? framedTerritories(svg) : [];
    if (!ids.length) { return { game: id, cx: MAP_W / 2, cy: MAP_H / 2, z: 1 }; }
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    ids.forEach(function (t) {
      var at = labelPoint(t);
      x0 = Math.min(x0, at[0]); x1 = Math.max(x1, at[0]);
      y0 = Math.min(y0, at[1]); y1 = Math.max(y1, at[1]);
    });
    var margin = 2 * FRAME_MARGIN_PX;
    var s = Math.min((svg.clientWidth - margin) / Math.max(x1 - x0, 1),
                     (svg.clientHeight - margin) / Math.max(y1 - y0, 1));
    var z = Math.max(1, Math.min(OPENING_ZOOM_MAX, s / baseScale(svg)));
    return { game: id, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, z: z };
  }

  function labelPoint(id) {
    var count = $('svg.board .count[data-for="' + id + '"]');
    var match = count && /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(count.getAttribute("transform"));
    return match ? [parseFloat(match[1]), parseFloat(match[2])] : [MAP_W / 2, MAP_H / 2];
  }

  function saveView() {
    try { window.sessionStorage.setItem("conquest-map-" + mapView.game, JSON.stringify(mapView)); }
    catch (e) { /* private mode: the view lasts until the page is left */ }
  }

  function applyView(svg, relabel) {
    svg = svg || board();
    if (!svg || !svg.clientWidth || !svg.clientHeight) { return; }
    measure(svg);
    if (!mapView || mapView.game !== gameId()) { mapView = startingView(svg); relabel = true; }
    mapView.z = Math.max(zoomMin(svg), Math.min(zoomMax(svg), mapView.z));
    var s = baseScale(svg) * mapView.z;
    var w = svg.clientWidth / s, h = svg.clientHeight / s;
    mapView.cx = w >= MAP_W ? MAP_W / 2 : Math.max(w / 2, Math.min(MAP_W - w / 2, mapView.cx));
    mapView.cy = h >= MAP_H ? MAP_H / 2 : Math.max(h / 2, Math.min(MAP_H - h / 2, mapView.cy));
    svg.setAttribute("viewBox", [mapView.cx - w / 2, mapView.cy - h / 2, w, h]
      .map(function (n) { return n.toFixed(2); }).join(" "));
    svg.classList.add("zoomable");
    if (relabel || svg._scale !== s) { scaleLabels(svg, s); svg._scale = s; }
    svg.style.setProperty("--ring", (3 / s).toFixed(3) + "px");
    svg.style.setProperty("--halo", (1.5 / s).toFixed(3) + "px");
    saveView();
  }

  // Level of detail: every disc is DISC_PX wide on screen whatever the zoom, and drawn only
  // where it covers no disc drawn before it (the selection and its targets first, then the
  // viewer's, then the biggest stacks); a name only where it covers neither a drawn disc
  // nor a drawn name. Zooming in spreads the territories apart and brings the rest in.
  function scaleLabels(svg, s) {
    var disc = DISC_PX / (2 * 7.5 * s);  // the same size on screen at every zoom
    var name = NAME_PX / (5.6 * s);
    var below = 7.5 * disc + 1.5 + 5.6 * name * 0.8;
    $all(".count", svg).forEach(function (count) {
      var d = $(".disc", count), label = $(".name", count);
      if (d) { d.setAttribute("transform", "scale(" + disc.toFixed(3) + ")"); }
      if (label) {
        label.setAttribute("y", "0");
        label.setAttribute("transform", "translate(0 " + below.toFixed(2) + ") scale(" + name.toFixed(3) + ")");
        label.classList.remove("crowded");
      }
    });
    uncrowd(svg);
  }

  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  // What decides the game first: the territory found or focused, the selection and its
  // targets, then the enemies' stacks, then the viewer's own, then the rest (the neutral,
  // nobody's, out of sight), each by size.
  function rankOf(count) {
    if (count.classList.contains("found") || count.classList.contains("focused")) { return -1; }
    if (count.classList.contains("selected") || count.classList.contains("target")) { return 0; }
    var t = territory(count.getAttribute("data-for")), g = game();
    var owner = t ? t.getAttribute("data-owner") : "";
    if (!t || owner === "" || owner === "neutral" || t.hasAttribute("data-fog")) { return 3; }
    if (t.classList.contains("mine")) { return 2; }
    return g && owner === g.getAttribute("data-seat") ? 2 : 1;
  }

  function uncrowd(svg) {
    var area = svg.getBoundingClientRect();
    var counts = $all(".count", svg).map(function (count) {
      var d = $(".disc", count), label = $(".name", count);
      return { count: count, rank: rankOf(count), armies: armiesOf(count.getAttribute("data-for")),
               disc: d ? d.getBoundingClientRect() : null, label: label,
               name: label ? label.getBoundingClientRect() : null };
    }).sort(function (a, b) { return a.rank - b.rank || b.armies - a.armies; });
    var drawn = [], covering = [];
    $all(".cluster", svg).forEach(function (badge) { badge.remove(); });
    counts.forEach(function (c) {
      var box = c.disc, inside = box && overlaps(box, area);
      var by = inside ? drawn.findIndex(function (other) { return overlaps(box, other); }) : -1;
      var fits = inside && by < 0;
      c.count.classList.toggle("lod-out", !!box && inside && !fits);
      if (fits) { drawn.push(box); covering.push({ count: c.count, hidden: [] }); }
      else if (by >= 0) { covering[by].hidden.push(c.count.getAttribute("data-for")); }
    });
    covering.forEach(function (c, i) {
      if (c.hidden.length) { clusterBadge(svg, c.count, c.hidden, drawn.filter(function (box, j) { return j !== i; })); }
    });
    var names = [];
    counts.forEach(function (c) {
      if (!c.label) { return; }
      var out = c.count.classList.contains("lod-out")
        || drawn.some(function (d) { return d !== c.disc && overlaps(c.name, d); })
        || names.some(function (other) { return overlaps(c.name, other); });
      if (out) { c.label.classList.add("crowded"); } else { names.push(c.name); }
    });
  }

  // A count left out is still told of: the disc that covers it wears "+" and the armies
  // left out under it; its title names them (a tap there offers them: map_taps.js).
  // It takes the first corner where it covers no other disc drawn (`others`); where every
  // corner does, it lets taps through to the disc under it (its title stays the disc's).
  function clusterBadge(svg, count, hidden, others) {
    var NS = "http://www.w3.org/2000/svg", disc = $(".disc", count);
    var sum = hidden.reduce(function (total, id) { return total + armiesOf(id); }, 0);
    var badge = document.createElementNS(NS, "g"), rect = document.createElementNS(NS, "rect");
    var text = document.createElementNS(NS, "text"), title = document.createElementNS(NS, "title");
    var label = "+" + (hidden.some(function (id) { return territory(id) && territory(id).hasAttribute("data-fog"); }) ? "?" : sum);
    badge.setAttribute("class", "cluster");
    badge.setAttribute("data-hidden", hidden.join(" "));
    // beside the disc, not in it: a disc's box stays the disc's (what the crowding measures)
    var at = disc.getAttribute("transform") || "";
    rect.setAttribute("x", String(-2 - 1.9 * label.length)); rect.setAttribute("y", "-4.6");
    rect.setAttribute("width", String(4 + 3.8 * label.length)); rect.setAttribute("height", "8");
    rect.setAttribute("rx", "3");
    text.setAttribute("y", "2.2"); text.textContent = label;
    title.textContent = (svg.getAttribute("data-cluster-word") || "+") + " " + hidden.map(function (id) {
      return nameOf(id) + " (" + (territory(id).getAttribute("data-armies") || "?") + ")";
    }).join(", ");
    badge.appendChild(title); badge.appendChild(rect); badge.appendChild(text);
    count.appendChild(badge);
    var corners = [[8.5, -7], [-8.5, -7], [8.5, 7], [-8.5, 7]];
    var clear = corners.some(function (corner) {
      badge.setAttribute("transform", at + " translate(" + corner[0] + " " + corner[1] + ")");
      var box = badge.getBoundingClientRect();
      return !others.some(function (other) { return overlaps(box, other); });
    });
    if (!clear) {
      badge.setAttribute("transform", at + " translate(8.5 -7)");
      badge.style.pointerEvents = "none";
    }
  }

  function zoomBy(factor, atX, atY) {
    var svg = board();
    if (!svg || !mapView) { return; }
    var rect = svg.getBoundingClientRect();
    var s = baseScale(svg) * mapView.z;
    // Keep the map point under (atX, atY) where it is; the box's centre by default.
    var px = atX === undefined ? rect.width / 2 : atX - rect.left;
    var py = atY === undefined ? rect.height / 2 : atY - rect.top;
    var mx = mapView.cx + (px - rect.width / 2) / s, my = mapView.cy + (py - rect.height / 2) / s;
    mapView.z = Math.max(zoomMin(svg), Math.min(zoomMax(svg), mapView.z * factor));
    var s2 = baseScale(svg) * mapView.z;
    mapView.cx = mx - (px - rect.width / 2) / s2;
    mapView.cy = my - (py - rect.height / 2) / s2;
    applyView(svg);
  }

  // The map point under a point of the screen.
  function mapPoint(svg, x, y) {
    var rect = svg.getBoundingClientRect(), s = baseScale(svg) * mapView.z;
    return [mapView.cx + (x - rect.left - rect.width / 2) / s,
            mapView.cy + (y - rect.top - rect.height / 2) / s];
  }

  function resetView() {
    var svg = board();
    if (!svg) { return; }
    mapView = { game: gameId(), cx: MAP_W / 2, cy: MAP_H / 2, z: 1 };
    applyView(svg, true);
  }

  // On a wide screen the player may have the map across the window (kept for every game).
  function wideMapChosen() {
    try { return window.localStorage.getItem("conquest-wide-map") === "1"; } catch (e) { return false; }
  }
  function wideMap(on, quiet) {
    try { window.localStorage.setItem("conquest-wide-map", on ? "1" : "0"); } catch (e) { /* kept until reload */ }
    var grid = $(".game-grid");
    if (grid) { grid.classList.toggle("wide-map", on); }
    $all("[data-zoom=wide]").forEach(function (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); });
    if (!quiet) { applyView(null, true); }
  }

  function initMap() {
    var svg = board();
    if (!svg) { return; }
    wideMap(wideMapChosen(), true);
    $all(".zoom, .zoom-help, .find").forEach(function (node) { node.hidden = false; });
    applyView(svg, true);
    followTheMove(svg);
  }

  // Stepping through the moves (?at=N), the view keeps its zoom and follows each move:
  // a move made out of the view brings the view over to it.
  function followTheMove(svg) {
    var g = game(), ids = (svg.getAttribute("data-last-move") || "").split(" ").filter(Boolean);
    if (!g || g.getAttribute("data-live") === "1" || !ids.length || !mapView) { return; }
    var box = (svg.getAttribute("viewBox") || "").split(" ").map(parseFloat);
    var points = ids.map(labelPoint);
    var out = points.some(function (at) {
      return at[0] < box[0] || at[0] > box[0] + box[2] || at[1] < box[1] || at[1] > box[1] + box[3];
    });
    if (!out) { return; }
    mapView.cx = points.reduce(function (sum, at) { return sum + at[0]; }, 0) / points.length;
    mapView.cy = points.reduce(function (sum, at) { return sum + at[1]; }, 0) / points.length;
    applyView(svg, true);
  }

  document.addEventListener("pointerdown", function (event) {
    var svg = event.target.closest && event.target.closest("svg.board");
    if (!svg || !mapView || (event.pointerType === "mouse" && event.button !== 0)) { return; }
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    var ids = Object.keys(pointers);
    if (ids.length === 1) {
      gesture = { x: event.clientX, y: event.clientY, cx: mapView.cx, cy: mapView.cy, moved: false, svg: svg, id: event.pointerId };
    } else if (ids.length === 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      gesture = { pinch: Math.hypot(a.x - b.x, a.y - b.y) || 1, z: mapView.z, moved: true, svg: svg,
                  at: mapPoint(svg, (a.x + b.x) / 2, (a.y + b.y) / 2) };
    }
  });

  document.addEventListener("pointermove", function (event) {
    if (!gesture || !pointers[event.pointerId]) { return; }
    pointers[event.pointerId] = { x: event.clientX, y: event.clientY };
    var svg = gesture.svg, ids = Object.keys(pointers);
    if (gesture.pinch && ids.length === 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      // the map point first under the fingers' midpoint stays under it as they spread
      var z = gesture.z * (Math.hypot(a.x - b.x, a.y - b.y) || 1) / gesture.pinch;
      mapView.z = Math.max(zoomMin(svg), Math.min(zoomMax(svg), z));
      var rect = svg.getBoundingClientRect(), s2 = baseScale(svg) * mapView.z;
      mapView.cx = gesture.at[0] - ((a.x + b.x) / 2 - rect.left - rect.width / 2) / s2;
      mapView.cy = gesture.at[1] - ((a.y + b.y) / 2 - rect.top - rect.height / 2) / s2;
      applyView(svg);
      return;
    }
    if (gesture.pinch) { return; }
    var dx = event.clientX - gesture.x, dy = event.clientY - gesture.y;
    if (!gesture.moved && Math.hypot(dx, dy) < 6) { return; }
    if (!gesture.moved) {
      gesture.moved = true;
      svg.classList.add("panning");
      try { svg.setPointerCapture(event.pointerId); } catch (e) { /* the pointer is gone */ }
    }
    var s = baseScale(svg) * mapView.z;
    mapView.cx = gesture.cx - dx / s;
    mapView.cy = gesture.cy - dy / s;
    applyView(svg);
  });

  function pointerGone(event) {
    if (!pointers[event.pointerId]) { return; }
    delete pointers[event.pointerId];
    if (gesture && gesture.moved) {
      swallowClick = true;  // a drag or a pinch is no click on a territory
      window.setTimeout(function () { swallowClick = false; }, 0);
    }
    if (gesture && gesture.svg) { gesture.svg.classList.remove("panning"); }
    var left = Object.keys(pointers);
    gesture = left.length === 1 && mapView ? { x: pointers[left[0]].x, y: pointers[left[0]].y, cx: mapView.cx, cy: mapView.cy, moved: true, svg: board() } : null;
  }
  document.addEventListener("pointerup", pointerGone);
  document.addEventListener("pointercancel", pointerGone);
  document.addEventListener("click", function (event) {
    if (swallowClick && event.target.closest && event.target.closest("svg.board")) {
      event.preventDefault(); event.stopPropagation(); swallowClick = false;
    }
  }, true);
  document.addEventListener("dragstart", function (event) {
    if (event.target.closest && event.target.closest("svg.board")) { event.preventDefault(); }
  });
  // The wheel (and a trackpad's pinch) zooms the map at the pointer, as maps do.
  document.addEventListener("wheel", function (event) {
    var svg = event.target.closest && event.target.closest("svg.board");
    if (!svg || !mapView) { return; }
    event.preventDefault();
    var lines = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1;
    zoomBy(Math.exp(-Math.max(-200, Math.min(200, event.deltaY * lines)) / 300), event.clientX, event.clientY);
  }, { passive: false });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-zoom]");
    if (!button) { return; }
    var how = button.getAttribute("data-zoom");
    if (how === "in") { zoomBy(ZOOM_STEP); } else if (how === "out") { zoomBy(1 / ZOOM_STEP); }
    else if (how === "wide") { wideMap(!wideMapChosen()); } else { resetView(); }
  });
  window.addEventListener("resize", function () { applyView(null, true); });
  // A territory reached with Tab comes into the view if it is zoomed out of it.
  document.addEventListener("focusin", function (event) {
    var t = event.target.closest && event.target.closest("svg.board [data-territory]");
    var svg = board();
    if (!t || !svg || !mapView) { return; }
    var at = labelPoint(t.getAttribute("data-territory"));
    var box = (svg.getAttribute("viewBox") || "").split(" ").map(parseFloat);
    if (at[0] < box[0] || at[0] > box[0] + box[2] || at[1] < box[1] || at[1] > box[1] + box[3]) {
      mapView.cx = at[0]; mapView.cy = at[1];
      applyView(svg);
    }
  });

  B.labelPoint = labelPoint;
  B.initMap = initMap;
  B.applyView = applyView;
  B.baseScale = baseScale;
  B.zoomMax = zoomMax;
  B.view = function () { return mapView; };
  B.mapWidth = function () { measure(board()); return MAP_W; };
  B.uncrowd = function () { if (board()) { uncrowd(board()); } };
})();
