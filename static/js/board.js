/* The game page's board, progressively enhanced: every form works without the board's
   scripts. This one holds what they share (window.conquestBoard, loaded first): the
   territories as the drawn board tells of them, the line that says what was chosen, and
   whether the player has touched a form since the game area was drawn. The others add
   their own parts to it:
     board_choice.js  clicking (or Enter on) a territory fills in the forms;
     countdown.js     the deadlines counted down;
     board_zoom.js    the map zoomed and panned, drawing only the discs and names that fit;
     board_find.js    a territory found by its name;
     board_keys.js    the map by keyboard;
     game_stream.js   the game's stream and the live poll, which redraw the game area;
   map_taps.js (the map by finger) uses it too. */
(function () {
  "use strict";

  // forms.js (every page's, loaded before) finds nodes for all the scripts
  var $ = window.conquestDom.$, $all = window.conquestDom.$all;
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
  function board() { return $("svg.board"); }
  function gameId() { var g = game(); return g ? g.getAttribute("data-game") : ""; }

  window.conquestBoard = {
    dirty: false,  // the player has touched a form since the game area was drawn
    $: $, $all: $all, game: game, gameId: gameId, board: board, neighbours: neighbours,
    territory: territory, ownerOf: ownerOf, armiesOf: armiesOf, nameOf: nameOf, say: say
  };
})();
