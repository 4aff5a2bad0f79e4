/* The game's deadlines counted down each second ([data-countdown]: the server writes the
   time left in words; this shows it to the second, and marks a speed game's last minute).
   Started with the game area (game_stream.js), after board.js. */
(function () {
  "use strict";

  var B = window.conquestBoard;
  var $all = B.$all;

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

  B.tick = tick;
})();
