/* Every page's forms, progressively enhanced (each works without this script): a select
   marked data-autosubmit (the header's language) sends its form when changed, and a game's
   or a tournament's preset fills in the rule fields. The game page's own forms and board
   have scripts of their own (board.js and the rest, loaded by that page alone), which find
   nodes with the two functions this one lends them (window.conquestDom). */
(function () {
  "use strict";

  // Without a root: the document. With a missing (null) root: nothing, never the document.
  function $(selector, root) {
    var scope = root === undefined ? document : root;
    return scope ? scope.querySelector(selector) : null;
  }
  function $all(selector, root) {
    var scope = root === undefined ? document : root;
    return scope ? Array.prototype.slice.call(scope.querySelectorAll(selector)) : [];
  }
  // The other scripts find nodes the same way (board.js hands them on to the board's).
  window.conquestDom = { $: $, $all: $all };

  document.addEventListener("change", function (event) {
    var node = event.target;
    if (node.hasAttribute && node.hasAttribute("data-autosubmit")) { node.form.submit(); return; }
    var form = node.closest && node.closest("form");
    if (!form) { return; }
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
})();
