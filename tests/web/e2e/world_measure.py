"""The world map as a player meets it in the middle of a game, measured in a real browser:
which territories a tap cannot reach at the opening view, and whether the biggest enemy
stacks are drawn (tests/web/e2e/test_world_touch.py prints the figures and holds them)."""

from __future__ import annotations

from lobby import open_games
from tests.games_in_states import open_game
from tests.people import with_password
from tests.play import play_until

# Points of the board's box, 8 px apart, under a finger: the territories a tap reaches
# in one tap (the element under it, or the page's tap chooser offering it alone:
# window.conquestTaps.offered), in two (one of the chooser's list), not at all, and those
# out of sight. The grid only finds each territory a few points of its own; the chooser is
# asked at its count's place and at the middle one of those points, until one tap is found
# to reach it, and at two more while none reaches it: what a tap there offers is what
# matters. (A finger covers some 40 px, and a territory the grid misses is still asked at
# its count's place. Each hit test costs about 0.5 ms on the world map: a 2 px grid and
# every try took 100 s of a loaded CI worker at 1366 px.)
REACH = """() => {
  const svg = document.querySelector('svg.board'), box = svg.getBoundingClientRect();
  const [vx, vy, vw, vh] = svg.getAttribute('viewBox').split(/[ ,]+/).map(parseFloat);
  const all = Array.from(svg.querySelectorAll('[data-territory]')).map(t => t.getAttribute('data-territory'));
  const points = {}, one = new Set(), two = new Set();
  const offered = window.conquestTaps && window.conquestTaps.offered;
  for (let x = box.left + 1; x < box.right - 1; x += 8) {
    for (let y = box.top + 1; y < box.bottom - 1; y += 8) {
      const hit = document.elementFromPoint(x, y);
      const at = hit && (hit.closest('.count[data-for]') || hit.closest('[data-territory]'));
      const id = at && (at.getAttribute('data-for') || at.getAttribute('data-territory'));
      if (!id) continue;
      if (!offered) { one.add(id); continue; }
      (points[id] = points[id] || []).push([x, y]);
    }
  }
  const ctm = svg.getScreenCTM();
  const labelAt = id => { const c = svg.querySelector('.count[data-for="' + id + '"]');
    const m = /translate\\(([-\\d.]+)[ ,]+([-\\d.]+)\\)/.exec(c.getAttribute('transform'));
    return [parseFloat(m[1]), parseFloat(m[2])]; };
  const inSight = id => { const [px, py] = labelAt(id);
    return px >= vx && px <= vx + vw && py >= vy && py <= vy + vh; };
  if (offered) {
    all.filter(inSight).forEach(id => {
      const [px, py] = labelAt(id), own = points[id] || [];
      const tries = [[ctm.a * px + ctm.e, ctm.d * py + ctm.f]].concat(
        own.length ? [own[Math.floor(own.length / 2)], own[0], own[own.length - 1]] : []);
      for (const [k, [x, y]] of tries.entries()) {
        if (one.has(id) || (k >= 2 && two.has(id))) break;
        const list = offered(x, y);
        if (list.length === 1) { one.add(list[0]); } else { list.forEach(t => two.add(t)); }
      }
    });
  }
  return {territories: all.length,
          out_of_sight: all.filter(id => !inSight(id)),
          no_tap: all.filter(id => inSight(id) && !one.has(id) && !two.has(id)),
          two_taps: all.filter(id => !one.has(id) && two.has(id))};
}"""

# The three biggest stacks of the viewer's enemies: where, how big, and whether their count
# shows (drawn, inside the view) or is left out (and whether a cluster badge tells of it).
BIGGEST_ENEMIES = """() => {
  const svg = document.querySelector('svg.board'), me = document.getElementById('game').getAttribute('data-seat');
  const area = svg.getBoundingClientRect();
  return Array.from(svg.querySelectorAll('[data-territory]'))
    .filter(t => t.getAttribute('data-owner') !== '' && t.getAttribute('data-owner') !== me
                 && t.getAttribute('data-owner') !== 'neutral')
    .map(t => ({id: t.getAttribute('data-territory'), armies: parseInt(t.getAttribute('data-armies'), 10) || 0}))
    .sort((a, b) => b.armies - a.armies).slice(0, 3).map(s => {
      const c = svg.querySelector('.count[data-for="' + s.id + '"]'), d = c.querySelector('.disc').getBoundingClientRect();
      const inside = d.right > area.left && d.left < area.right && d.bottom > area.top && d.top < area.bottom;
      const cluster = Array.from(svg.querySelectorAll('.count .cluster')).find(b =>
        (b.getAttribute('data-hidden') || '').split(' ').indexOf(s.id) >= 0);
      return {id: s.id, armies: s.armies, shown: inside && !c.classList.contains('lod-out'),
              in_cluster_of: cluster ? cluster.closest('.count').getAttribute('data-for') : null};
    });
}"""


def mid_game_on_the_world(players=("alice", "bob", "carol"), version: int = 260):
    """A three-player game on the world map, played on by the bots until `version` and
    alice's reinforcement: stacks of every size, the biggest ones on the enemies' borders."""
    users = [with_password(name) for name in players]
    game = open_game(users[0], len(users), "Evening on the world", rules={"setup": "random"},
                     map_id="world")
    for user in users[1:]:
        open_games.join_game(game, user)
    play_until(game, None, lambda state: state.version >= version
               and state.phase == "reinforce" and state.current == 0, limit=8000)
    return game, users[0]
