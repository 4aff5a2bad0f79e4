/* A territory found by its name (the field over the map; board.js, board_choice.js and
   board_zoom.js first): the one named is centred, brought close enough to tap, drawn
   whatever else is crowded (rank 0) and chosen as a click chooses. */
(function () {
  "use strict";

  var B = window.conquestBoard;
  var $ = B.$, $all = B.$all, board = B.board, territory = B.territory;
  var FOUND_ZOOM = 4;

  // The field's list holds every territory's name.
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
    var svg = board(), mapView = B.view();
    if (!svg || !mapView || !territory(id)) { return; }
    $all(".count.found", svg).forEach(function (c) { c.classList.remove("found"); });
    var count = $('.count[data-for="' + id + '"]', svg);
    if (count) { count.classList.add("found"); }
    B.onTerritory(id, true);
    // its land a third of the box across (its neighbours around it), deep enough to tap
    var at = B.labelPoint(id), land = $(".land", territory(id)), size = land ? land.getBBox() : null;
    var s = size ? Math.min(svg.clientWidth / (3 * Math.max(size.width, 1)),
                            svg.clientHeight / (3 * Math.max(size.height, 1))) : 0;
    mapView.cx = at[0]; mapView.cy = at[1];
    mapView.z = Math.max(1, Math.min(B.zoomMax(svg), s / B.baseScale(svg) || FOUND_ZOOM));
    B.applyView(svg, true);
    var node = territory(id);
    B.rovingTo(node);
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
})();
