"""The game page around the board: the attack kept chosen after a roll, the dice paired as
they were compared, the last rolls one per line, the neutral in the legend and the table."""

from __future__ import annotations

import re

from django.utils import translation

from engine.board import NEIGHBOURS, NEUTRAL
from games.store.states import load_state
from tests.people import client_for
from tests.play import play_until
from tests.web.support import post_play, started_game
from web.game_log import duels, last_battles
from words.narrator import describe


def selected_value(html: str, select_id: str) -> str | None:
    select = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', html, re.S)
    chosen = re.search(r'<option value="([^"]*)"[^>]*\sselected', select.group(1))
    return chosen.group(1) if chosen else None


def attack_with_a_strong_source(users):
    """The mover's territory with the most armies, against its strongest enemy neighbour:
    one die at a time, the attack can go on after a roll."""
    game = started_game(users, setup="random")

    def ready(state):
        return state.phase == "attack" and any(
            state.owner[t] == state.current and state.armies[t] >= 5
            and any(state.owner[n] != state.current and state.armies[n] >= 2
                    for n in NEIGHBOURS[t]) for t in NEIGHBOURS)
    state = play_until(game, users, ready)
    seat = state.current
    source = max((t for t in NEIGHBOURS if state.owner[t] == seat and any(
        state.owner[n] != seat and state.armies[n] >= 2 for n in NEIGHBOURS[t])),
        key=lambda t: state.armies[t])
    target = max((n for n in NEIGHBOURS[source] if state.owner[n] != seat),
                 key=lambda n: state.armies[n])
    return game, seat, source, target


def test_it_keeps_the_attack_chosen_after_a_roll(alice, bob):
    game, seat, source, target = attack_with_a_strong_source([alice, bob])
    client = client_for([alice, bob][seat])

    response = post_play(client, game, {"type": "attack", "from": source, "to": target,
                                        "dice": "1"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert load_state(game).phase == "attack"  # one die against two armies: no conquest
    assert selected_value(html, "attack-from") == source
    assert selected_value(html, "attack-to") == target
    assert selected_value(html, "attack-dice") == "1"
    assert re.search(rf'class="territory selected[^"]*" id="t-{source}"', html)


def test_it_keeps_the_attack_chosen_without_javascript(alice, bob):
    game, seat, source, target = attack_with_a_strong_source([alice, bob])
    client = client_for([alice, bob][seat])

    response = post_play(client, game, {"type": "attack", "from": source, "to": target,
                                        "dice": "1"})

    assert response.status_code == 302
    assert f"sel={source}" in response["Location"] and f"to={target}" in response["Location"]
    html = client.get(response["Location"]).content.decode()
    assert selected_value(html, "attack-to") == target
    assert selected_value(html, "attack-dice") == "1"


def test_it_forgets_a_choice_of_dice_the_source_can_no_longer_roll(alice, bob):
    game, seat, source, target = attack_with_a_strong_source([alice, bob])
    armies = load_state(game).armies[source]
    client = client_for([alice, bob][seat])

    html = client.get(f"/games/{game.pk}/?sel={source}&to={target}&dice={armies}") \
        .content.decode()

    assert selected_value(html, "attack-dice") == ""
    assert selected_value(html, "attack-to") == target


def test_it_shows_the_last_roll_with_its_dice_paired(alice, bob):
    game, seat, source, target = attack_with_a_strong_source([alice, bob])
    client = client_for([alice, bob][seat])

    html = post_play(client, game, {"type": "attack", "from": source, "to": target,
                                    "dice": "1"}, HTTP_HX_REQUEST="true").content.decode()

    roll = html[html.index('class="last-roll"'):html.index("</section>",
                                                          html.index('class="last-roll"'))]
    assert roll.count('<li class="battle">') == 1
    assert re.search(r'class="duel (attacker|defender)"><span class="die attack">\d</span> '
                     r'(&lt;|=|&gt;) <span class="die defence">\d</span>', roll)


def test_it_pairs_the_dice_high_to_low_and_a_tie_goes_to_the_defender():
    paired = duels({"attacker_dice": [3, 6, 1], "defender_dice": [2, 6]})

    assert [(d["attack"], d["sign"], d["defence"], d["winner"]) for d in paired["duels"]] == [
        (6, "=", 6, "defender"), (3, ">", 2, "attacker")]
    assert paired["unpaired_attack"] == [1] and paired["unpaired_defence"] == []


def test_it_tells_the_dice_high_to_low():
    battle = {"seq": 3, "type": "battle", "actor": 0, "data": {
        "seat": 0, "defender": 1, "from": "peru", "to": "brazil", "attacker_dice": [2, 6, 5],
        "defender_dice": [1, 4], "attacker_losses": 0, "defender_losses": 2}}

    with translation.override("en"):
        assert ": 6 5 2 against 4 1," in describe(battle)


def test_the_last_battles_are_those_since_anything_else_happened_newest_first():
    def battle(seq):
        return {"seq": seq, "type": "battle", "duels": []}
    entries = [battle(1), {"seq": 2, "type": "occupied"}, battle(3), battle(4), battle(5)]

    assert [e["seq"] for e in last_battles(entries)] == [5, 4, 3]
    assert [e["seq"] for e in last_battles(entries, most=2)] == [5, 4]
    assert last_battles(entries[:2]) == []


def test_it_shows_the_neutral_in_the_legend_and_the_players_table(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    state = load_state(game)
    held = [t for t, owner in state.owner.items() if owner == NEUTRAL]

    html = client.get(f"/games/{game.pk}/").content.decode()

    legend = html[html.index('id="legend"'):html.index('class="continents"')]
    assert "Neutral" in legend
    row = re.search(r'<tr class="[^"]*neutral"[^>]*>(.*?)</tr>', html, re.S).group(1)
    assert "Neutral" in row
    assert f"<td>{len(held)}</td><td>{sum(state.armies[t] for t in held)}</td>" in row


def test_it_draws_continents_in_no_players_colour(alice, bob, client):
    game = started_game([alice, bob], setup="random")

    html = client.get(f"/games/{game.pk}/").content.decode()

    outlines = re.findall(r'<path class="continent-outline c-(\w+)"', html)
    assert sorted(outlines) == ["africa", "asia", "australia", "europe", "north_america",
                                "south_america"]
    assert 'class="continent-outline c-europe" d=' in html
    assert not re.search(r'continent-outline[^>]*(stroke|fill)="#', html)


def test_it_lets_go_of_an_attack_that_cannot_go_on(alice, bob):
    users = [alice, bob]
    game = started_game(users, setup="random")

    def weak_against_strong(state):
        return state.phase == "attack" and any(
            state.owner[t] == state.current and state.armies[t] == 2
            and any(state.owner[n] != state.current and state.armies[n] >= 4
                    for n in NEIGHBOURS[t]) for t in NEIGHBOURS)
    # Two armies win every roll against four about once in 250 attacks and move in: then
    # the game plays on to the next such attack.
    for _ in range(10):
        state = play_until(game, users, weak_against_strong)
        seat = state.current
        source = next(t for t in NEIGHBOURS if state.owner[t] == seat and state.armies[t] == 2
                      and any(state.owner[n] != seat and state.armies[n] >= 4
                              for n in NEIGHBOURS[t]))
        target = next(n for n in NEIGHBOURS[source] if state.owner[n] != seat
                      and state.armies[n] >= 4)

        html = post_play(client_for(users[seat]), game, {
            "type": "attack", "from": source, "to": target, "repeat": "on"},
            HTTP_HX_REQUEST="true").content.decode()
        if load_state(game).owner[target] != seat:
            break
    else:
        raise AssertionError("ten attacks of two armies against four all conquered")

    assert load_state(game).armies[source] == 1
    assert selected_value(html, "attack-from") is None
    assert selected_value(html, "attack-to") is None
    assert "territory selected" not in html
