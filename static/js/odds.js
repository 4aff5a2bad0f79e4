/* Exact battle odds in the browser: games/odds.py's Markov chain over the dice, line for
   line, so that the attack form answers as the player changes the pair or the dice with no
   round trip. The tests run both and hold their tables equal. */
(function (root) {
  "use strict";

  // Highest against highest, second against second; ties go to the defender.
  function losses(attack, defend) {
    var a = attack.slice().sort(function (x, y) { return y - x; });
    var d = defend.slice().sort(function (x, y) { return y - x; });
    var lost = [0, 0];
    for (var i = 0; i < Math.min(a.length, d.length); i++) {
      if (a[i] > d[i]) { lost[1] += 1; } else { lost[0] += 1; }
    }
    return lost;
  }

  var battles = {};
  // [[attacker losses, defender losses, probability], ...] sorted as engine.odds.battle.
  function battle(attackerDice, defenderDice) {
    var key = attackerDice + "," + defenderDice;
    if (battles[key]) { return battles[key]; }
    var count = attackerDice + defenderDice, rolls = Math.pow(6, count), counts = {};
    for (var n = 0; n < rolls; n++) {
      var dice = [], rest = n;
      for (var i = 0; i < count; i++) { dice.unshift(rest % 6 + 1); rest = Math.floor(rest / 6); }
      var lost = losses(dice.slice(0, attackerDice), dice.slice(attackerDice));
      var k = lost[0] + "," + lost[1];
      counts[k] = (counts[k] || 0) + 1;
    }
    var outcomes = Object.keys(counts).map(function (k) {
      var parts = k.split(",");
      return [parseInt(parts[0], 10), parseInt(parts[1], 10), counts[k]];
    });
    outcomes.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
    battles[key] = outcomes.map(function (o) { return [o[0], o[1], o[2] / rolls]; });
    return battles[key];
  }

  // The most dice a battle rolls ({attack, defence}), as the page gives them (engine.pieces
  // names them once; web/page/odds.py hands them over): set before the first summary.
  var api = { caps: null };
  function attackerDice(armies, dice) { return Math.min(dice, api.caps.attack, armies - 1); }
  function defenderDice(defenders, defense) {
    return defense === "one" ? 1 : Math.min(api.caps.defence, defenders);
  }

  // {taken: [chance the territory falls with a armies on the source], held: [chance the
  // source is down to one army with d defenders left]}, carried forward battle by battle.
  function assault(attackers, defenders, dice, defense) {
    var chance = [];
    for (var a = 0; a <= attackers; a++) { chance.push(new Float64Array(defenders + 1)); }
    chance[attackers][defenders] = 1.0;
    var first = defense === "one" ? 1 : api.caps.defence;
    for (a = attackers; a > 1; a--) {
      var row = chance[a], rolled = attackerDice(a, dice);
      var spans = [[first, defenders]];
      for (var n = first - 1; n >= 1; n--) { spans.push([n, n]); }
      for (var s = 0; s < spans.length; s++) {
        var low = spans[s][0], high = spans[s][1];
        if (low > high) { continue; }
        var outcomes = battle(rolled, defenderDice(low, defense));
        for (var d = high; d >= low; d--) {
          var here = row[d];
          if (here) {
            for (var o = 0; o < outcomes.length; o++) {
              chance[a - outcomes[o][0]][d - outcomes[o][1]] += here * outcomes[o][2];
            }
          }
        }
      }
    }
    var taken = [], held = [];
    for (a = 0; a <= attackers; a++) { taken.push(chance[a][0]); }
    for (d = 0; d <= defenders; d++) { held.push(chance[1][d]); }
    return { taken: taken, held: held };
  }

  function sum(list) { return list.reduce(function (t, x) { return t + x; }, 0); }

  // The same JSON as engine.odds.summary (GET /api/v1/odds/).
  function summary(attackers, defenders, dice, defense) {
    dice = dice || api.caps.attack;
    defense = defense || "max";
    var result = assault(attackers, defenders, dice, defense);
    var conquer = sum(result.taken);
    var kept = sum(result.taken.map(function (p, a) { return a * p; })) + sum(result.held);
    var chances = [];
    if (conquer > 0) {
      result.taken.forEach(function (p, a) { if (p > 0) { chances.push([a - 1, p / conquer]); } });
    }
    var median = 0, reached = 0;
    for (var i = chances.length - 1; i >= 0; i--) {
      reached += chances[i][1];
      if (reached >= 0.5) { median = chances[i][0]; break; }
    }
    var roll = battle(attackerDice(attackers, dice), defenderDice(defenders, defense));
    return {
      attackers: attackers, defenders: defenders, dice: dice, defense: defense,
      repeat: {
        conquer: conquer,
        attacker_losses: attackers - kept,
        defender_losses: defenders - sum(result.held.map(function (p, d) { return d * p; })),
        move_in: {
          expected: sum(chances.map(function (c) { return c[0] * c[1]; })),
          median: median, chances: chances
        }
      },
      one_roll: {
        conquer: sum(roll.filter(function (o) { return o[1] >= defenders; }).map(function (o) { return o[2]; })),
        attacker_losses: sum(roll.map(function (o) { return o[0] * o[2]; })),
        defender_losses: sum(roll.map(function (o) { return o[1] * o[2]; })),
        outcomes: roll.map(function (o) {
          return { attacker_losses: o[0], defender_losses: o[1], chance: o[2] };
        })
      }
    };
  }

  api.battle = battle;
  api.assault = assault;
  api.summary = summary;
  if (typeof module === "object" && module.exports) { module.exports = api; } else { root.ConquestOdds = api; }
})(this);
