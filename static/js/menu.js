/* The header's menu (base.html), a <details> that opens and closes without this script.
   With it: a wide screen, where the links show in a row, keeps it open even in a browser
   that cannot show a closed <details>'s content (CSS ::details-content); Escape closes it
   and gives the focus back to its button. */
(function () {
  "use strict";

  var WIDE = "(min-width: 60rem)";

  function menu() { return document.getElementById("site-menu"); }

  function follow(wide) {
    var m = menu();
    if (m) { m.open = wide; }
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.matchMedia) { return; }
    var query = window.matchMedia(WIDE);
    follow(query.matches);
    if (query.addEventListener) {
      query.addEventListener("change", function (event) { follow(event.matches); });
    }
  });

  document.addEventListener("keydown", function (event) {
    var m = menu();
    if (event.key !== "Escape" || !m || !m.open || !m.contains(event.target)) { return; }
    if (window.matchMedia && window.matchMedia(WIDE).matches) { return; }
    m.open = false;
    m.querySelector("summary").focus();
  });
})();
