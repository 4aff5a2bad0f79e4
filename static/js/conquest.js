/* Conquest pages, progressively enhanced: every form works without this script.
   It makes clicking (or Enter on) a territory fill in the forms, highlights legal targets,
   counts armies left to place, shows a picked card set's value, counts deadlines down,
   keeps the live poll from wiping a form the player is filling in, and zooms and pans the
   map (buttons, dragging, the wheel and pinching at the pointer) opened on what matters to
   the viewer, drawing only the discs and names that fit; it finds a territory by name and
   takes a placement's number of armies. */
(function () {
  "use strict";

  var dirty = false;      // the player has touched a form since the game area was drawn
  var stale = false;      // the game moved on while the player was busy

  // Without a root: the document. With a missing (null) root: nothing, never the document.
  function $(selector, root) {
    var scope = root === undefined ? document : root;
    return scope ? scope.querySelector(selector) : null;
  }
  function $all(selector, root) {
    var scope = root === undefined ? document : root;
    return scope ? Array.prototype.slice.call(scope.querySelectorAll(selector)) : [];
  }
  function game() { return document.getElementById("game"); }
  function neighbours() {
    var node = document.getElementById("neighbours");
    if (!node) { return {}; }
    if (!node._parsed) { node._parsed = JSON.parse(node.textContent); }
    return node._parsed;
  }
  function territory(id) { return $('svg.board [data-territory="' + id + '"]'); }
  function ownerOf(id) { var t = territory(id); return t ? t.getAttribute("data-owner") : ""; }
  function armiesOf(id) { var t = territory(id); return t ? (parseInt(t.getAttribute("data-armies"), 10) || 0) : 0; }
  function nameOf(id) { var t = territory(id); return t ? t.getAttribute("data-name") : id; }
  function say(text) { var live = document.getElementById("selection"); if (live) { live.textContent = text; } }

  function attackTargets(source) {
    var me = game().getAttribute("data-seat");
    return (neighbours()[source] || []).filter(function (t) { return ownerOf(t) !== me; });
  }

  function fortifyTargets(source) {
    var me = game().getAttribute("data-seat");
    if (game().getAttribute("data-fortify") !== "connected") {
      return (neighbours()[source] || []).filter(function (t) { return ownerOf(t) === me; });
    }
    var seen = {}, queue = [source], found = [];
    seen[source] = true;
    while (queue.length) {
      var here = queue.shift();
      (neighbours()[here] || []).forEach(function (there) {
        if (!seen[there] && ownerOf(there) === me) {
          seen[there] = true; queue.push(there); found.push(there);
        }
      });
    }
    return found;
  }

  function highlight(selected, targets) {
    $all("svg.board .territory").forEach(function (t) {
      var id = t.getAttribute("data-territory");
      t.classList.toggle("selected", id === selected);
      t.classList.toggle("target", targets.indexOf(id) >= 0);
      stateInName(t, id === selected, targets.indexOf(id) >= 0);
    });
    $all("svg.board .count").forEach(function (c) {
      var id = c.getAttribute("data-for");
      c.classList.toggle("selected", id === selected);
      c.classList.toggle("target", targets.indexOf(id) >= 0);
    });
    game().setAttribute("data-selected", selected || "");
  }

  // A territory's accessible name says whether it is selected or a target (the board's
  // words for it), and aria-current marks the selected one.
  function stateInName(t, selected, target) {
    var svg = t.closest("svg.board"), base = t.getAttribute("data-label");
    if (!svg || !base) { return; }
    var word = selected ? svg.getAttribute("data-selected-word")
      : target ? svg.getAttribute("data-target-word") : "";
    t.setAttribute("aria-label", word ? base + ", " + word : base);
    if (selected) { t.setAttribute("aria-current", "true"); } else { t.removeAttribute("aria-current"); }
  }

  function setSelect(select, value, label) {
    if (!select) { return; }
    var exists = $all("option", select).some(function (o) { return o.value === value; });
    if (!exists) {
      var option = document.createElement("option");
      option.value = value; option.textContent = label || value;
      select.appendChild(option);
    }
    select.value = value;
    dirty = true;
  }

  function fillOptions(select, ids) {
    if (!select) { return; }
    var keep = select.value;
    $all("option", select).forEach(function (o) { if (o.value) { o.remove(); } });
    ids.forEach(function (id) {
      var option = document.createElement("option");
      option.value = id;
      option.textContent = nameOf(id) + " (" + armiesOf(id) + ")";
      select.appendChild(option);
    });
    select.value = ids.indexOf(keep) >= 0 ? keep : "";
  }

  function chooseAttackSource(id) {
    var attack = document.getElementById("form-attack");
    var fortify = document.getElementById("form-fortify");
    var targets = attackTargets(id);
    if (attack) {
      setSelect($("[name=from]", attack), id, nameOf(id));
      fillOptions($("[name=to]", attack), targets);
    }
    if (fortify) { chooseFortifySource(id, true); }
    highlight(id, attack ? targets : fortifyTargets(id));
    say(nameOf(id) + ": " + targets.map(nameOf).join(", "));
  }

  function chooseFortifySource(id, quiet) {
    var fortify = document.getElementById("form-fortify");
    if (!fortify) { return; }
    var from = $("[name=from]", fortify);
    if (!from) { return; }  // no territory of the player's can fortify: no select
    var hasSource = $all("option", from).some(function (o) { return o.value === id; });
    if (!hasSource) { return; }
    from.value = id;
    var targets = fortifyTargets(id);
    if (fortify.getAttribute("data-mode") === "spread") {
      $all(".row", fortify).forEach(function (row) {
        var input = $("input", row);
        row.classList.toggle("hidden", targets.indexOf(input.getAttribute("data-for-territory")) < 0);
      });
    } else {
      fillOptions($("[name=to]", fortify), targets);
    }
    if (!quiet) {
      highlight(id, targets);
      say(nameOf(id) + " → " + targets.map(nameOf).join(", "));
    }
  }

  function bump(input) {
    var value = parseInt(input.value || "0", 10) || 0;
    input.value = value + 1;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    dirty = true;
  }

  // A territory chosen to place on takes its number here, typed once (not a click per army).
  function askCount(id, input) {
    var box = document.querySelector(".place-count"), field = document.getElementById("place-count");
    if (!box || !field) { return; }
    box.hidden = false;
    box.setAttribute("data-for", id);
    $(".place-count-name", box).textContent = nameOf(id);
    field.value = input.value || "0";
    var form = input.closest("form");
    var count = form ? parseInt(form.getAttribute("data-count"), 10) || 0 : 0;
    if (count) { field.max = String(count); }
    if (window.matchMedia && window.matchMedia("(pointer: fine)").matches) {
      field.focus({ preventScroll: true }); field.select();
    }
  }

  function onTerritory(id, found) {
    var g = game();
    if (!g || g.getAttribute("data-live") !== "1") { return false; }
    var me = g.getAttribute("data-seat");
    var owner = ownerOf(id);
    var selected = g.getAttribute("data-selected") || "";
    var form;
    if ((form = document.getElementById("form-claim")) && owner === "") {
      setSelect($("[name=territory]", form), id, nameOf(id)); highlight(id, []);
      say(nameOf(id)); return true;
    }
    if ((form = document.getElementById("form-choose_capital")) && owner === me) {
      setSelect($("[name=territory]", form), id, nameOf(id)); highlight(id, []);
      say(nameOf(id)); return true;
    }
    form = document.getElementById("form-place") || document.getElementById("form-place_neutral");
    if (form) {
      var input = $('input[data-for-territory="' + id + '"]', form);
      if (input) {
        if (!found) { bump(input); }
        highlight(id, []); say(nameOf(id) + ": " + (input.value || 0));
        askCount(id, input);
        return true;
      }
    }
    var attack = document.getElementById("form-attack");
    var fortify = document.getElementById("form-fortify");
    if (attack || fortify) {
      if (owner === me) {
        var canAttackFrom = attack && armiesOf(id) >= 2 && attackTargets(id).length > 0;
        if (selected && selected !== id && fortify && $("[name=from]", fortify) && !canAttackFrom
            && fortifyTargets(selected).indexOf(id) >= 0) {
          if (fortify.getAttribute("data-mode") === "spread") {
            chooseFortifySource(selected, true);
            var row = $('input[data-for-territory="' + id + '"]', fortify);
            if (row) { bump(row); }
          } else {
            $("[name=from]", fortify).value = selected;
            fillOptions($("[name=to]", fortify), fortifyTargets(selected));
            setSelect($("[name=to]", fortify), id, nameOf(id));
          }
          highlight(selected, [id]);
          say(nameOf(selected) + " → " + nameOf(id));
          return true;
        }
        if (selected === id) { highlight("", []); say(""); return true; }
        if (armiesOf(id) >= 2) {
          if (attack) { chooseAttackSource(id); } else { chooseFortifySource(id); }
          dirty = true;
          return true;
        }
        say(nameOf(id) + ": " + armiesOf(id));
        return true;
      }
      if (attack && selected && (neighbours()[selected] || []).indexOf(id) >= 0) {
        setSelect($("[name=to]", attack), id, nameOf(id));
        highlight(selected, [id]);
        say(nameOf(selected) + " ⚔ " + nameOf(id));
        var dice = $("[name=dice]", attack);
        if (dice) { dice.focus({ preventScroll: true }); }
        return true;
      }
      // Not a neighbour of the territory chosen to attack from: say why nothing was chosen.
      var why = document.getElementById("selection");
      if (attack && selected && ownerOf(selected) === me && why && why.getAttribute("data-not-neighbour")) {
        say(why.getAttribute("data-not-neighbour").replace("{to}", nameOf(id))
          .replace("{from}", nameOf(selected)));
        return true;
      }
    }
    say(nameOf(id));
    return true;
  }

  function updateRemaining(form) {
    var count = parseInt(form.getAttribute("data-count"), 10) || 0;
    var used = $all("input[type=number]", form).reduce(function (sum, input) {
      return sum + (parseInt(input.value || "0", 10) || 0);
    }, 0);
    var note = $(".remaining", form);
    if (note) {
      note.textContent = used + " / " + count;
      note.classList.toggle("error", used > count);
    }
  }

  function updateSetValue(form) {
    var note = $(".set-value", form);
    if (!note) { return; }
    var picked = $all("input[name=card]:checked", form).map(function (c) { return parseInt(c.value, 10); })
      .sort(function (a, b) { return a - b; }).join(",");
    var values = {};
    (note.getAttribute("data-sets") || "").split(";").forEach(function (pair) {
      if (pair) { var kv = pair.split("="); values[kv[0]] = kv[1]; }
    });
    var count = $all("input[name=card]:checked", form).length;
    if (count === 3) {
      note.textContent = values[picked] ? "= " + values[picked] : "✘";
    } else {
      note.textContent = count + " / 3";
    }
  }

  function formatLeft(ms) {
    if (ms <= 0) { return "0:00:00"; }
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400);
    s -= d * 86400;
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var clock = h + ":" + (m < 10 ? "0" : "") + m + ":" + (sec < 10 ? "0" : "") + sec;
    return (d ? d + "d " : "") + clock;
  }

  function tick() {
    $all("[data-countdown]").forEach(function (node) {
      var left = Date.parse(node.getAttribute("data-countdown")) - Date.now();
      node.textContent = formatLeft(left);
      node.classList.toggle("urgent", left < 60000);  // a speed game's last minute
    });
  }

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
      dirty = false; stale = false;
      window.htmx.ajax("GET", window.location.pathname, { target: "#game", swap: "outerHTML" });
    });
    banner.appendChild(document.createTextNode((game().getAttribute("data-moved-label") || "") + " "));
    banner.appendChild(button);
    var play = document.getElementById("play");
    (play || game()).insertBefore(banner, (play || game()).firstChild.nextSibling);
  }

  function init(root) {
    $all("form.placement", root).forEach(updateRemaining);
    $all("#form-trade", root).forEach(updateSetValue);
    var fortify = $("#form-fortify", root);
    if (fortify && fortify.getAttribute("data-mode") === "spread") {
      var from = $("[name=from]", fortify);
      if (from && from.value) { chooseFortifySource(from.value, true); }
    }
    var g = game();
    if (g && g.getAttribute("data-selected") === null) {
      var selected = $("svg.board .territory.selected");
      g.setAttribute("data-selected", selected ? selected.getAttribute("data-territory") : "");
    }
    initMap();
    rovingTabindex();
    tick();
  }


  // ---- The map's zoom and pan --------------------------------------------------------
  // The view is kept as a centre in map units and a zoom factor over the base scale, per
  // game, in this module and in sessionStorage: the live poll, a form's answer and a reload
  // redraw the map, and the view the player chose comes back with it.
  // The map's size in its own units: the drawn board's viewBox as the server sent it (the
  // classic map is 1000 by 600; every map carries its own), read once per drawn board.
  var MAP_W = 1000, MAP_H = 600, ZOOM_MAX = 8, ZOOM_STEP = 1.5, OPENING_ZOOM_MAX = 4;
  var FINEST_PX_PER_UNIT = 4, FRAME_MARGIN_PX = 24, FOUND_ZOOM = 4;
  var DISC_PX = 24, NAME_PX = 10;     // a disc's width on screen (a tap's target), a name's size
  var mapView = null;                 // {game, cx, cy, z}
  var gesture = null, pointers = {}, swallowClick = false;

  function board() { return $("svg.board"); }
  function gameId() { var g = game(); return g ? g.getAttribute("data-game") : ""; }

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

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("svg.board [data-territory]") : null;
    if (target && onTerritory(target.getAttribute("data-territory"))) { event.preventDefault(); }
    // A click on an army disc is a click on its territory: a small one (Luxembourg, a
    // Caribbean island) lies wholly under its disc, whose edge covers its neighbours.
    var disc = !target && event.target.closest ? event.target.closest("svg.board .count[data-for] .disc") : null;
    var owner = disc && territory(disc.closest(".count").getAttribute("data-for"));
    if (owner) {
      event.preventDefault();
      owner.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    }
  });

  // ---- Finding a territory by name --------------------------------------------------
  // The field's list holds every territory's name; the one named is centred, brought close
  // enough to tap, drawn whatever else is crowded (rank 0) and chosen as a click chooses.
  function findByName(text) {
    var wanted = (text || "").trim().toLowerCase();
    if (!wanted) { return null; }
    var options = $all("#territory-names option");
    var exact = options.filter(function (o) { return o.value.toLowerCase() === wanted; });
    var start = options.filter(function (o) { return o.value.toLowerCase().indexOf(wanted) === 0; });
    var hit = exact[0] || (start.length === 1 ? start[0] : null);
    return hit ? hit.getAttribute("data-for") : null;
  }

  function showTerritory(id) {
    var svg = board();
    if (!svg || !mapView || !territory(id)) { return; }
    $all(".count.found", svg).forEach(function (c) { c.classList.remove("found"); });
    var count = $('.count[data-for="' + id + '"]', svg);
    if (count) { count.classList.add("found"); }
    onTerritory(id, true);
    // its land a third of the box across (its neighbours around it), deep enough to tap
    var at = labelPoint(id), land = $(".land", territory(id)), size = land ? land.getBBox() : null;
    var s = size ? Math.min(svg.clientWidth / (3 * Math.max(size.width, 1)),
                            svg.clientHeight / (3 * Math.max(size.height, 1))) : 0;
    mapView.cx = at[0]; mapView.cy = at[1];
    mapView.z = Math.max(1, Math.min(zoomMax(svg), s / baseScale(svg) || FOUND_ZOOM));
    applyView(svg, true);
    var node = territory(id);
    rovingTo(node);
  }

  function rovingTo(node) {
    $all("svg.board [data-territory]").forEach(function (other) {
      other.setAttribute("tabindex", other === node ? "0" : "-1");
    });
    focusedTerritory = node.getAttribute("data-territory");
  }

  function findAsked(event) {
    var field = event.target;
    var id = findByName(field.value);
    if (!id) { return false; }
    showTerritory(id);
    return true;
  }
  // a name picked from the list (typed ones wait for Enter)
  document.addEventListener("input", function (event) {
    if (event.target.id === "find-territory"
        && (!event.inputType || event.inputType === "insertReplacementText")) { findAsked(event); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.id === "find-territory" && event.key === "Enter") {
      event.preventDefault();
      findAsked(event);
    }
  });

  // ---- The map by keyboard -----------------------------------------------------------
  // The map is one stop of the Tab order (a roving tabindex: the selected territory, else
  // the last one focused, else the player's first); the arrow keys move the focus to the
  // neighbour lying that way (sea lanes included, across the map's edge too), and Enter or
  // Space acts on it as a click does.
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
      measure(board());
      if (Math.abs(dx + MAP_W) < Math.abs(dx)) { dx += MAP_W; }
      if (Math.abs(dx - MAP_W) < Math.abs(dx)) { dx -= MAP_W; }
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
    if (count) { count.classList.add("focused"); if (count.classList.contains("lod-out")) { uncrowd(board()); } }
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
  // Tab, by a form's answer) scrolls out from under it.
  document.addEventListener("focusin", function (event) {
    var area = $("#board"), node = event.target;
    if (!area || !node.getBoundingClientRect || area.contains(node)
        || window.getComputedStyle(area).position !== "sticky") { return; }
    var bottom = area.getBoundingClientRect().bottom, box = node.getBoundingClientRect();
    document.documentElement.style.scrollPaddingTop = Math.ceil(bottom + 8) + "px";
    if (box.top < bottom + 4 && box.bottom > 0) { window.scrollBy(0, box.top - bottom - 8); }
  });

  document.addEventListener("input", function (event) {
    if (event.target.id === "place-count") {
      var id = event.target.closest(".place-count").getAttribute("data-for");
      var placing = document.getElementById("form-place") || document.getElementById("form-place_neutral");
      var into = placing && $('input[data-for-territory="' + id + '"]', placing);
      if (into) {
        into.value = event.target.value;
        updateRemaining(placing); dirty = true;
        say(nameOf(id) + ": " + (into.value || 0));
      }
      return;
    }
    var form = event.target.closest && event.target.closest("form");
    if (!form) { return; }
    if (form.classList.contains("act")) { dirty = true; }
    if (form.classList.contains("placement")) { updateRemaining(form); }
    if (form.id === "form-trade") { updateSetValue(form); }
    if (event.target.id === "history-at") {
      var out = document.getElementById("history-out");
      if (out) { out.textContent = event.target.value; }
    }
  });

  document.addEventListener("change", function (event) {
    var node = event.target;
    if (node.hasAttribute && node.hasAttribute("data-autosubmit")) { node.form.submit(); return; }
    var form = node.closest && node.closest("form");
    if (!form) { return; }
    if (form.classList.contains("act")) { dirty = true; }
    if (form.id === "form-trade") { updateSetValue(form); }
    if (node.name === "from" && node.value) {
      if (form.id === "form-attack") { chooseAttackSource(node.value); }
      if (form.id === "form-fortify") { chooseFortifySource(node.value); }
    }
    if (form.id === "create-game" || form.hasAttribute("data-presets")) { presetChanged(form, node); }
  });

  // Lobby and tournaments: a preset fills in every rule field; touching a rule field (one
  // under "All the rules") makes it "custom".
  function presetChanged(form, node) {
    var rules = JSON.parse(document.getElementById("preset-rules").textContent);
    var players = JSON.parse(document.getElementById("preset-players").textContent);
    if (node.name === "preset") {
      var chosen = rules[node.value];
      if (!chosen) { return; }
      // The engine's default of every rule the preset does not name (web/forms:
      // rule_defaults), so that no rule of an earlier choice stays behind.
      var defaults = JSON.parse(document.getElementById("rule-defaults").textContent);
      Object.keys(defaults).forEach(function (key) {
        var value = key in chosen ? chosen[key] : defaults[key];
        $all('[name="' + key + '"]', form).forEach(function (input) {
          if (input.type === "radio") { input.checked = input.value === String(value); }
          else if (input.type === "checkbox") { input.checked = !!value; }
          else { input.value = value === null ? "" : value; }
        });
      });
      if (players[node.value] && $("[name=players]", form)) {
        $("[name=players]", form).value = String(players[node.value]);
      }
    } else if (node.closest("details.rules")) {
      var custom = $('[name=preset][value=custom]', form);
      if (custom) { custom.checked = true; }
    }
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
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var elt = config && config.elt;
    if (elt && elt.id === "live-poll" && dirty) {
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
  document.addEventListener("htmx:afterSwap", function () {
    if (scrolledTo !== null) { window.scrollTo(0, scrolledTo); scrolledTo = null; }
    initMap();
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
      dirty = false; stale = false;
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

  // What the board's other scripts (map_taps.js) use of this one.
  window.conquestBoard = {
    territory: territory, nameOf: nameOf, armiesOf: armiesOf, labelPoint: labelPoint,
    ownerOf: ownerOf, board: board, uncrowd: function () { if (board()) { uncrowd(board()); } }
  };

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    follow();
    window.setInterval(tick, 1000);
  });
})();
