/* Conquest pages, progressively enhanced: every form works without this script.
   It makes clicking (or Enter on) a territory fill in the forms, highlights legal targets,
   counts armies left to place, shows a picked card set's value, counts deadlines down,
   and keeps the live poll from wiping a form the player is filling in. */
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
    });
    $all("svg.board .count").forEach(function (c) {
      var id = c.getAttribute("data-for");
      c.classList.toggle("selected", id === selected);
      c.classList.toggle("target", targets.indexOf(id) >= 0);
    });
    game().setAttribute("data-selected", selected || "");
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

  function onTerritory(id) {
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
      if (input) { bump(input); highlight(id, []); say(nameOf(id) + ": " + input.value); return true; }
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
      node.textContent = formatLeft(Date.parse(node.getAttribute("data-countdown")) - Date.now());
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
    tick();
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("svg.board [data-territory]") : null;
    if (target && onTerritory(target.getAttribute("data-territory"))) { event.preventDefault(); }
  });

  document.addEventListener("input", function (event) {
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
    if (form.id === "create-game") { presetChanged(form, node); }
  });

  // Lobby: a preset fills in every rule field; touching a rule field makes it "custom".
  function presetChanged(form, node) {
    var rules = JSON.parse(document.getElementById("preset-rules").textContent);
    var players = JSON.parse(document.getElementById("preset-players").textContent);
    if (node.name === "preset") {
      var chosen = rules[node.value];
      if (!chosen) { return; }
      var defaults = {
        setup: "deal", initial_placement: "turns", placement_batch: "1",
        initial_max_per_territory: "", card_values: "escalating", card_territory_bonus: "once",
        occupy_minimum: "dice", fortify: "adjacent", objective: "domination",
        capitals_to_win: "table", capital_collapse: false, neutral: true,
        neutral_reinforcement: "opponent", max_missed_turns: "3", dropped_seat: "neutral",
        fog: false, team_size: "1", fixed_infantry: "4", fixed_cavalry: "6",
        fixed_artillery: "8", fixed_mixed: "10", continent_bonus_after_round: false,
        max_cards: "", elimination_trade_at: "6", elimination_trade_when: "immediately",
        forced_trade: "until_below_5", traded_cards: "discard", card_draw: "end_of_turn",
        cards: "yes", minimum_reinforcement: "territories", neutral_dice: "max",
        capital_card_out: false, play_order: "setup"
      };
      Object.keys(defaults).forEach(function (key) {
        var value = key in chosen ? chosen[key] : defaults[key];
        $all('[name="' + key + '"]', form).forEach(function (input) {
          if (input.type === "radio") { input.checked = input.value === String(value); }
          else if (input.type === "checkbox") { input.checked = !!value; }
          else { input.value = value === null ? "" : value; }
        });
      });
      if (players[node.value]) { $("[name=players]", form).value = String(players[node.value]); }
    } else if (node.name !== "name" && node.name !== "players" && node.name !== "deadline_seconds") {
      var custom = $('[name=preset][value=custom]', form);
      if (custom) { custom.checked = true; }
    }
  }

  document.body && document.body.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "live-poll" && stale) { event.preventDefault(); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig;
    var elt = config && config.elt;
    if (elt && elt.id === "live-poll" && dirty) {
      event.detail.shouldSwap = false;
      showStaleBanner();
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target && event.detail.target.id === "game" || document.getElementById("game")) {
      dirty = false; stale = false;
      init(document);
      var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
      if (elt && elt.tagName === "FORM" && elt.classList.contains("act")) {
        var alert = $("#game [role=alert]") || $("#game .notes");
        if (alert) { alert.setAttribute("tabindex", "-1"); alert.focus({ preventScroll: true }); }
      }
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    window.setInterval(tick, 1000);
  });
})();
