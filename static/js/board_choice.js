/* The game's forms, filled in from the board (board.js first): clicking (or Enter on) a
   territory chooses it in the form that takes one (a claim, a capital, a placement, an
   attack's or a move's ends), highlights the legal targets and asks a placement's number
   of armies; the forms count the armies left to place and show a picked card set's value.
   Every form works without it. */
(function () {
  "use strict";

  var B = window.conquestBoard;
  var $ = B.$, $all = B.$all, game = B.game, neighbours = B.neighbours, territory = B.territory;
  var ownerOf = B.ownerOf, armiesOf = B.armiesOf, nameOf = B.nameOf, say = B.say;

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
    B.dirty = true;
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
    B.dirty = true;
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
          B.dirty = true;
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

  document.addEventListener("input", function (event) {
    if (event.target.id === "place-count") {
      var id = event.target.closest(".place-count").getAttribute("data-for");
      var placing = document.getElementById("form-place") || document.getElementById("form-place_neutral");
      var into = placing && $('input[data-for-territory="' + id + '"]', placing);
      if (into) {
        into.value = event.target.value;
        updateRemaining(placing); B.dirty = true;
        say(nameOf(id) + ": " + (into.value || 0));
      }
      return;
    }
    var form = event.target.closest && event.target.closest("form");
    if (!form) { return; }
    if (form.classList.contains("act")) { B.dirty = true; }
    if (form.classList.contains("placement")) { updateRemaining(form); }
    if (form.id === "form-trade") { updateSetValue(form); }
    if (event.target.id === "history-at") {
      var out = document.getElementById("history-out");
      if (out) { out.textContent = event.target.value; }
    }
  });

  document.addEventListener("change", function (event) {
    var node = event.target;
    if (node.hasAttribute && node.hasAttribute("data-autosubmit")) { return; }  // forms.js
    var form = node.closest && node.closest("form");
    if (!form) { return; }
    if (form.classList.contains("act")) { B.dirty = true; }
    if (form.id === "form-trade") { updateSetValue(form); }
    if (node.name === "from" && node.value) {
      if (form.id === "form-attack") { chooseAttackSource(node.value); }
      if (form.id === "form-fortify") { chooseFortifySource(node.value); }
    }
  });

  B.onTerritory = onTerritory;
  B.updateRemaining = updateRemaining;
  B.updateSetValue = updateSetValue;
  B.chooseFortifySource = chooseFortifySource;
})();
