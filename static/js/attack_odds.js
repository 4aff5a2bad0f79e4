/* The attack form's odds, told again whenever the player changes the pair or the dice
   (by the selects or by clicking the map), and the move-in and fortify forms' chance that
   the border left behind holds against its strongest enemy neighbour, as the armies moved
   change: static/js/odds.js computes them here, the page gives the sentences in the
   reader's language (web/page/odds.py says the same on the server). A defender out of
   sight has no count: the attack form says so instead. */
(function () {
  "use strict";

  function json(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }
  function territory(id) {
    return document.querySelector('svg.board [data-territory="' + id + '"]');
  }

  function number(value, lang) {
    return new Intl.NumberFormat(lang, {
      minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false
    }).format(value);
  }
  // As web/page/odds.py's percent().
  function percent(chance, lang) {
    if (chance > 0 && chance < 0.001) { return "< " + number(0.1, lang) + " %"; }
    if (chance > 0.999 && chance < 1) { return "> " + number(99.9, lang) + " %"; }
    return number(chance * 100, lang) + " %";
  }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return values[name]; });
  }

  function lines(form, texts) {
    var from = form.querySelector("[name=from]"), to = form.querySelector("[name=to]");
    var dice = form.querySelector("[name=dice]");
    if (!from || !to || !from.value || !to.value) { return null; }
    var source = territory(from.value), target = territory(to.value);
    if (!source || !target) { return null; }
    var defenders = target.getAttribute("data-armies");
    if (target.hasAttribute("data-fog") || !defenders) { return [texts.fog]; }
    var attackers = Math.min(parseInt(source.getAttribute("data-armies"), 10) || 0, 1000);
    defenders = Math.min(parseInt(defenders, 10) || 0, 1000);
    if (attackers < 2 || defenders < 1) { return null; }
    var orders = json("odds-defenses") || {};
    window.ConquestOdds.caps = texts.dice;
    var odds = window.ConquestOdds.summary(attackers, defenders,
      parseInt(dice && dice.value, 10) || texts.dice.attack, orders[target.getAttribute("data-owner")] || "max");
    var lang = document.documentElement.lang || "en";
    var repeat = odds.repeat;
    var told = [
      fill(texts.take, { repeat: percent(repeat.conquer, lang), one: percent(odds.one_roll.conquer, lang) }),
      fill(texts.losses, { attacker: number(repeat.attacker_losses, lang),
                           defender: number(repeat.defender_losses, lang) })
    ];
    if (repeat.conquer > 0) {
      told.push(fill(texts.move_in, { mean: number(repeat.move_in.expected, lang),
                                      median: repeat.move_in.median }));
    }
    return told;
  }

  function update() {
    var form = document.getElementById("form-attack");
    var out = document.getElementById("attack-odds");
    var texts = json("odds-texts");
    if (!form || !out || !texts || !window.ConquestOdds) { return; }
    var told = lines(form, texts);
    out.textContent = "";
    (told || [texts.choose]).forEach(function (line) {
      var p = document.createElement("p");
      if (!told) { p.className = "help"; }
      p.textContent = line;
      out.appendChild(p);
    });
  }

  // ---- what a border keeps: the move-in and fortify forms --------------------------------
  // The chance that `source`, left with `kept` armies, holds against its strongest enemy
  // neighbour in sight attacking all out (web/page/odds.py's border_line says the same).
  function borderLine(source, kept, told) {
    var node = territory(source);
    if (!node || !(kept >= 1)) { return ""; }
    var strongest = null, most = 0;
    ((json("neighbours") || {})[source] || []).slice().sort().forEach(function (id) {
      var t = territory(id);
      var owner = t && t.getAttribute("data-owner");
      var armies = t ? parseInt(t.getAttribute("data-armies"), 10) || 0 : 0;
      if (!owner || told.friends.indexOf(owner) >= 0 || armies < 1) { return; }
      if (armies > most) { most = armies; strongest = t; }
    });
    if (!strongest) { return ""; }
    var lang = document.documentElement.lang || "en";
    window.ConquestOdds.caps = told.dice;
    var taken = most >= 2 ? window.ConquestOdds.summary(Math.min(most, 1000),
      Math.min(kept, 1000), told.dice.attack, told.defense).repeat.conquer : 0;
    return fill(told.text, {
      source: node.getAttribute("data-name"), kept: kept,
      enemy: strongest.getAttribute("data-name"), armies: most,
      hold: percent(1 - taken, lang)
    });
  }

  function updateBorders() {
    var told = json("border-texts");
    if (!told || !window.ConquestOdds) { return; }
    var occupy = document.getElementById("form-occupy");
    var out = document.getElementById("occupy-border");
    if (occupy && out) {
      var source = occupy.getAttribute("data-from");
      var armies = parseInt(occupy.querySelector("[name=armies]").value, 10);
      var node = territory(source);
      var have = node ? parseInt(node.getAttribute("data-armies"), 10) || 0 : 0;
      out.textContent = armies >= 0 ? borderLine(source, have - armies, told) : "";
    }
    var fortify = document.getElementById("form-fortify");
    out = document.getElementById("fortify-border");
    if (fortify && out) {
      var from = fortify.querySelector("[name=from]");
      var moved = parseInt((fortify.querySelector("[name=armies]") || {}).value, 10);
      var start = from && from.value ? territory(from.value) : null;
      var left = start ? (parseInt(start.getAttribute("data-armies"), 10) || 0) - (moved || 0) : 0;
      out.textContent = start ? borderLine(from.value, left, told) : "";
    }
  }

  function soon() { window.setTimeout(function () { update(); updateBorders(); }, 0); }
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("#form-occupy, #form-fortify")) { soon(); }
  });
  document.addEventListener("change", function (event) {
    if (event.target.closest && event.target.closest("#form-attack, #form-fortify")) { soon(); }
  });
  // A click (or Enter) on the map fills the form's selects in without a change event.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("svg.board")) { soon(); }
  });
  document.addEventListener("htmx:afterSettle", soon);
  document.addEventListener("DOMContentLoaded", soon);
})();
