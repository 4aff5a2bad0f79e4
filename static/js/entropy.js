/* Players' entropy (docs/players/fair-dice.md "The draws"): fills each empty field marked data-entropy
   with 16 random bytes from the browser's own crypto, as 32 hex digits, and leaves it in
   sight so the player can keep it. Without this script the field stays empty (no entropy
   sent); a value the player typed is never replaced. */
(function () {
  "use strict";

  var kept = {};  // each join form's value (by its action) while the game area is redrawn

  function fields() {
    return Array.prototype.slice.call(document.querySelectorAll("input[data-entropy]"));
  }
  function formOf(input) { return input.form ? input.form.getAttribute("action") || "" : ""; }

  function randomHex(bytes) {
    var values = new Uint8Array(bytes);
    window.crypto.getRandomValues(values);
    return Array.prototype.map.call(values, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function fill() {
    if (!window.crypto || !window.crypto.getRandomValues) { return; }
    fields().forEach(function (input) {
      if (!input.value) { input.value = kept[formOf(input)] || randomHex(16); }
    });
  }

  document.addEventListener("DOMContentLoaded", fill);
  // The game page's live poll redraws its area (htmx): the join form keeps what it showed,
  // typed or drawn, rather than a new value each time.
  document.addEventListener("htmx:beforeSwap", function () {
    kept = {};
    fields().forEach(function (input) { if (input.value) { kept[formOf(input)] = input.value; } });
  });
  document.addEventListener("htmx:afterSettle", fill);
  // The lobby's invitations, redrawn as news comes (counters.js), keep what they showed.
  document.addEventListener("conquest:swapped", fill);
})();
