"""The world map in the middle of a game, at a laptop's window (1366 by 768) and a phone's
(390 by 844): every territory in sight is reached in at most two taps (a crowded tap offers
the territories under the finger), the enemies' biggest stacks are drawn first (or told of
by a "+" badge on the disc that covers them), and a territory chosen to attack from shows
its targets around it. Prints `figure` lines: what a tap cannot reach, where the three
biggest enemy stacks show. Screenshots go to var/screenshots/world-touch-*."""

from __future__ import annotations

import pytest

from tests.play import play_until
from tests.web.e2e.test_phone_pages import SIZES, page_for
from tests.web.e2e.world_measure import BIGGEST_ENEMIES, REACH, mid_game_on_the_world

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 15_000  # ms
WINDOWS = {"laptop": (1366, 768), "phone": (390, 844)}

# A territory of the viewer's whose count is left out where counts crowd, with another
# territory (or its disc) under its count's place on the screen: that place, and the "+"
# badge that tells of it.
HIDDEN_MINE = """() => {
  const svg = document.querySelector('svg.board'), area = svg.getBoundingClientRect();
  for (const c of svg.querySelectorAll('.count.lod-out')) {
    const id = c.getAttribute('data-for'), t = svg.querySelector('[data-territory="' + id + '"]');
    const r = c.querySelector('.disc').getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
    const under = document.elementFromPoint(x, y), at = under && (under.closest('.count[data-for]') || under.closest('[data-territory]'));
    const mine = at && (at.getAttribute('data-for') || at.getAttribute('data-territory')) === id;
    if (t.classList.contains('mine') && !mine && x > area.left + 30 && x < area.right - 30
        && y > area.top + 30 && y < area.bottom - 30) {
      const badge = Array.from(svg.querySelectorAll('.cluster')).find(b => b.getAttribute('data-hidden').split(' ').indexOf(id) >= 0);
      const b = badge && badge.querySelector('rect').getBoundingClientRect();
      return {id: id, x: x, y: y, badge: b ? [b.x + b.width / 2, b.y + b.height / 2] : null};
    }
  }
  return null;
}"""


def opened(browser, live_server, contexts, size, game, alice):
    page = page_for(browser, live_server, alice, size, contexts)
    page.set_viewport_size({"width": WINDOWS[size][0], "height": WINDOWS[size][1]})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])", timeout=WAIT)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_it_reaches_every_territory_in_two_taps_and_shows_the_biggest_enemies(
        browser, live_server, contexts, screenshot, size):
    game, alice = mid_game_on_the_world(version=120)
    page = opened(browser, live_server, contexts, size, game, alice)
    reach = page.evaluate(REACH)
    biggest = page.evaluate(BIGGEST_ENEMIES)
    width = WINDOWS[size][0]
    print(f"figure world_{width}_out_of_sight {len(reach['out_of_sight'])}")
    print(f"figure world_{width}_no_tap {len(reach['no_tap'])}")
    print(f"figure world_{width}_two_taps {len(reach['two_taps'])}")
    for stack in biggest:
        where = "shown" if stack["shown"] else f"in the + badge of {stack['in_cluster_of']}" \
            if stack["in_cluster_of"] else "hidden"
        print(f"figure world_{width}_enemy_stack {stack['id']} {stack['armies']} {where}")
    screenshot(page, f"world-touch-{width}", full_page=False)
    assert reach["territories"] == 175
    assert reach["out_of_sight"] == [] and reach["no_tap"] == [], reach
    assert biggest[0]["shown"], biggest
    assert all(s["shown"] or s["in_cluster_of"] for s in biggest), biggest
    # a badge says how many armies its disc covers
    badge = page.locator("svg.board .cluster").first
    hidden = badge.get_attribute("data-hidden").split()
    armies = sum(int(page.get_attribute(f'svg.board [data-territory="{t}"]', "data-armies") or 0)
                 for t in hidden)
    assert badge.locator("text").text_content() == f"+{armies}"
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_a_crowded_tap_offers_the_territories_under_it_and_a_choice_places(
        browser, live_server, contexts, screenshot, size):
    game, alice = mid_game_on_the_world(version=120)
    page = opened(browser, live_server, contexts, size, game, alice)
    page.wait_for_selector("#form-place", timeout=WAIT)
    hidden = page.evaluate(HIDDEN_MINE)
    assert hidden, "no count of alice's left out at the opening view"
    if size == "phone":  # a finger where its count is
        page.touchscreen.tap(hidden["x"], hidden["y"])
    else:  # a mouse, which points precisely, on the badge of the disc covering it
        page.mouse.click(*hidden["badge"])
    option = page.locator(f'.tap-choice.choice [data-choose="{hidden["id"]}"]')
    option.wait_for(timeout=WAIT)
    assert page.locator(".tap-choice.choice [data-choose]").count() >= 2
    screenshot(page, f"world-choice-{WINDOWS[size][0]}", full_page=False)
    option.click()
    assert page.locator(".tap-choice").count() == 0
    assert page.locator(f'#place-{hidden["id"]}').input_value() == "1"
    assert page.problems == []


def test_a_territory_chosen_by_touch_to_attack_from_shows_its_targets_around_it(
        browser, live_server, contexts, screenshot):
    game, alice = mid_game_on_the_world(version=120)
    play_until(game, None, lambda state: state.phase == "attack" and state.current == 0)
    page = opened(browser, live_server, contexts, "phone", game, alice)
    page.wait_for_selector("#form-attack", timeout=WAIT)
    source = page.locator("#form-attack [name=from] option[value]:not([value=''])").first
    source_id = source.get_attribute("value")
    # at the opening view (the whole map): a tap where its count is, drawn or left out
    box = page.locator(f'svg.board .count[data-for="{source_id}"] .disc').bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    choice = page.locator(f'.tap-choice.choice [data-choose="{source_id}"]')
    if choice.count():
        choice.tap()
    fan = page.locator(".tap-choice.targets [data-choose]")
    fan.first.wait_for(timeout=WAIT)
    targets = sorted(fan.evaluate_all("bs => bs.map(b => b.getAttribute('data-choose'))"))
    highlighted = sorted(page.locator("svg.board .territory.target").evaluate_all(
        "ts => ts.map(t => t.getAttribute('data-territory'))"))
    assert targets == highlighted and targets
    assert page.get_attribute(f'svg.board [data-territory="{source_id}"]', "aria-current") == "true"
    screenshot(page, "world-targets-390", full_page=False)
    first = fan.first.get_attribute("data-choose")
    fan.first.tap()
    assert page.input_value("#form-attack [name=to]") == first
    assert page.problems == []
