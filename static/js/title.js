/* The tab title follows the game area that the live poll swaps in: "Your move · …" while
   the game waits for the viewer (the server puts the title in #game's data-title). */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSettle", function () {
    var game = document.getElementById("game");
    var title = game && game.getAttribute("data-title");
    if (title) { document.title = title; }
  });
}());
