"""The attack form's odds (web/page/odds.py): the one odds model's figures for the chosen
pair in words, the defender's standing order honoured, and nothing from a fogged count."""

from __future__ import annotations

import re
from html import escape as html_escape

from django.utils import translation

from engine import odds
from engine.board import NEIGHBOURS, territory_name
from engine.pieces import NEUTRAL
from tests.people import client_for
from tests.play import play_until
from tests.web.support import post_play, started_game
from tests.web.test_play import attack_position, two  # noqa: F401
from web.page.odds import armies, attack_odds
from words.vocabulary import percent


def view_of(defenders, fog=False, owner=1, defense="one"):
    return {
        "players": [{"seat": 0, "defense": "max"}, {"seat": 1, "defense": defense}],
        "territories": {
            "alaska": {"owner": 0, "armies": 4},
            "kamchatka": {"owner": None if fog else owner, "armies": defenders, "fog": fog},
        },
    }


def test_it_tells_the_chances_of_the_pair_under_the_defenders_order():
    told = attack_odds(view_of(2), "alaska", "kamchatka", "")

    expected = odds.summary(4, 2, 3, "one")
    assert told["figures"] == expected
    assert told["lines"][0] == (
        f"Chance to take it: {percent(expected['repeat']['conquer'])} repeating until it "
        f"falls, {percent(expected['one_roll']['conquer'])} with one roll.")
    repeat = expected["repeat"]
    assert told["lines"][1] == (
        f"Armies each side should expect to lose, repeating: you "
        f"{armies(repeat['attacker_losses'])}, the defender {armies(repeat['defender_losses'])}.")
    assert told["lines"][2].startswith(
        f"If it falls: {armies(repeat['move_in']['expected'])} armies on average")


def test_the_chosen_dice_change_the_odds():
    one_die = attack_odds(view_of(2), "alaska", "kamchatka", "1")

    assert one_die["figures"] == odds.summary(4, 2, 1, "one")


def test_the_neutral_defends_with_every_die_by_default():
    told = attack_odds(view_of(2, owner="neutral"), "alaska", "kamchatka", "")

    assert told["figures"]["defense"] == "max"


def test_a_fogged_defender_has_no_odds():
    told = attack_odds(view_of(None, fog=True), "alaska", "kamchatka", "")

    assert told == {"fog": True,
                    "lines": ["The defender's armies are hidden by fog: no odds without them."]}


def test_it_speaks_czech_and_polish():
    with translation.override("cs"):
        czech = attack_odds(view_of(2), "alaska", "kamchatka", "")["lines"][0]
    with translation.override("pl"):
        polish = attack_odds(view_of(2), "alaska", "kamchatka", "")["lines"][0]

    assert czech.startswith("Šance") and "," in czech
    assert polish.startswith("Szansa") and "," in polish


def test_the_page_shows_the_odds_of_the_pair_it_kept(two):  # noqa: F811
    game, state, seat, source, target = attack_position(two)

    response = post_play(client_for(two[seat]), game,
                         {"type": "attack", "from": source, "to": target, "dice": "4"})

    html = response.content.decode()
    owner = state.owner[target]
    defense = "max" if owner == NEUTRAL else state.players[owner].defense
    conquer = odds.summary(state.armies[source], state.armies[target], 3,
                           defense)["repeat"]["conquer"]
    assert 'id="attack-odds"' in html and 'id="odds-texts"' in html
    assert f"Chance to take it: {percent(conquer)} repeating" in html


def bordered_occupation(state) -> bool:
    """An occupation whose source still borders an enemy besides the territory taken."""
    if state.phase != "occupy" or state.armies[state.occupation.source] - 1 <= \
            state.occupation.minimum:
        return False
    source = state.occupation.source
    return any(state.owner[n] != state.current and n != state.occupation.target
               for n in NEIGHBOURS[source])


def test_the_move_in_form_says_what_the_border_keeps(two):  # noqa: F811
    # (The game's dice decide the position: wait for one with an enemy left to face.)
    game = started_game(two, setup="random")
    state = play_until(game, two, bordered_occupation)
    seat, source = state.current, state.occupation.source
    client = client_for(two[seat])
    html = client.get(f"/games/{game.pk}/").content.decode()

    value = int(re.search(r'id="occupy-armies"[^>]*value="(\d+)"', html)[1])
    kept = state.armies[source] - value
    enemies = [n for n in sorted(NEIGHBOURS[source])
               if state.owner[n] != seat and n != state.occupation.target]
    enemy = max(enemies, key=lambda n: state.armies[n])
    attackers = state.armies[enemy]
    taken = odds.assault(attackers, kept, 3, state.players[seat].defense).conquer \
        if attackers >= 2 else 0.0
    assert 'id="border-texts"' in html
    line = (f"{territory_name(source)} keeps {kept} against {territory_name(enemy)} "
            f"({attackers}), its strongest enemy neighbour: it holds {percent(1 - taken)} of "
            f"the time against an all-out attack.")
    assert html_escape(line, quote=False).replace("'", "&#x27;") in html


def test_a_chance_the_dice_can_still_lose_never_reads_certain():
    """60 against 1 read "100.0 %" where 25 against 4 read "> 99.9 %" (issue 58): a float
    rounded to 1.0 is not a certainty."""
    for language in ("en", "cs"):
        with translation.override(language):
            overwhelming = percent(odds.summary(60, 1)["repeat"]["conquer"])
            strong = percent(odds.summary(25, 4)["repeat"]["conquer"])
            hopeless = percent(odds.summary(2, 400)["repeat"]["conquer"])
            assert overwhelming == strong and overwhelming.startswith("> 99")
            assert hopeless.startswith("< 0")
    assert percent(1.0) == "100.0 %"  # a certainty (a finished game's result) still reads so
