"""Every play form of the game page: what it does, and every refusal leaving the game as it
was (no event appended)."""

from __future__ import annotations

import re

import pytest

from engine.board import NEIGHBOURS, NEUTRAL, TERRITORIES
from engine.cards import find_sets
from engine.turn import connected
from games import seat_views, service
from games.store.states import load_state
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.play import play_until
from tests.web.support import events, post_play, started_game


def refused(client, game, fields, expected_text, status=400, version=None):
    """Post a form that must be refused: the page says why and nothing was appended."""
    before = events(game)
    response = post_play(client, game, fields, version=version)
    html = response.content.decode()
    assert response.status_code == status, html[:500]
    assert expected_text in html
    assert 'role="alert"' in html
    assert events(game) == before
    return response


def accepted(client, game, fields):
    before = events(game)
    response = post_play(client, game, fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert events(game) > before
    return response


def mover(state, users):
    return client_for(users[state.current])


def own(state, seat, armies_at_least=1):
    return [t for t in TERRITORIES if state.owner[t] == seat and state.armies[t] >= armies_at_least]


@pytest.fixture
def two(alice, bob):
    return [alice, bob]


# ---- setup -----------------------------------------------------------------------------
def test_it_claims_a_territory(two):
    game = started_game(two, setup="claim")
    state = load_state(game)
    free = [t for t in TERRITORIES if state.owner[t] is None]

    accepted(mover(state, two), game, {"type": "claim", "territory": free[0]})

    assert load_state(game).owner[free[0]] == state.current


def test_it_refuses_bad_claims(two):
    game = started_game(two, setup="claim")
    state = load_state(game)
    client = mover(state, two)
    taken = next(t for t in TERRITORIES if state.owner[t] is not None)
    free = next(t for t in TERRITORIES if state.owner[t] is None)
    other = client_for(two[1 - state.current])

    refused(client, game, {"type": "claim", "territory": taken}, "is already taken")
    refused(client, game, {"type": "claim", "territory": "atlantis"}, "There is no such territory")
    refused(other, game, {"type": "claim", "territory": free}, "It is not your move", 403)
    refused(client, game, {"type": "claim", "territory": free}, "The game moved on", 409,
            version=0)


def test_it_places_starting_armies_in_turns(two):
    game = started_game(two, setup="deal", placement_batch=3)
    state = load_state(game)
    mine = own(state, state.current)

    accepted(mover(state, two), game, {"type": "place", f"place-{mine[0]}": "2",
                                       f"place-{mine[1]}": "1"})

    after = load_state(game)
    assert after.armies[mine[0]] == state.armies[mine[0]] + 2


def test_it_refuses_bad_starting_placements(two):
    game = started_game(two, setup="deal", placement_batch=3)
    state = load_state(game)
    client = mover(state, two)
    mine = own(state, state.current)[0]
    theirs = own(state, 1 - state.current)[0]

    refused(client, game, {"type": "place", f"place-{theirs}": "1"}, "is not yours")
    refused(client, game, {"type": "place", f"place-{mine}": "4"},
            "You have 3 armies to place, not 4.")
    refused(client, game, {"type": "place"}, "Put at least one army on a territory")
    refused(client, game, {"type": "place", f"place-{mine}": "two"}, "is not a whole number")
    refused(client, game, {"type": "place", f"place-{mine}": "-1"}, "cannot be negative")
    refused(client, game, {"type": "place", f"place-{mine}": "1"}, "The game moved on", 409,
            version=1)


def test_an_opponents_policy_change_does_not_make_the_form_stale(two):
    """An opponent changing their defence dice cannot change the mover's decision: the
    half-filled reinforcement goes through. A real move in between still bounces it."""
    game = started_game(two, setup="deal", placement_batch=3)
    state = load_state(game)
    seen = state.version
    mine = own(state, state.current)[0]
    service.submit(service.player(two[1 - state.current]), game, {"type": "set_defense", "policy": "one"})
    service.submit(service.player(two[1 - state.current]), game, {"type": "set_defense", "policy": "max"})

    accepted_at = post_play(mover(state, two), game, {"type": "place", f"place-{mine}": "1"},
                            version=seen)
    assert accepted_at.status_code == 302
    assert load_state(game).armies[mine] == state.armies[mine] + 1

    # The mover's own placement moved the game on: a form from before it is stale.
    refused(mover(load_state(game), two), game, {"type": "place", f"place-{mine}": "1"},
            "The game moved on", 409, version=seen)


def test_it_takes_a_whole_simultaneous_placement_and_hides_it(two):
    game = started_game(two, initial_placement="simultaneous")
    state = load_state(game)
    seat = 0
    mine = own(state, seat)
    count = state.players[seat].setup_armies

    client = client_for(two[seat])
    refused(client, game, {"type": "place", f"place-{mine[0]}": str(count - 1)},
            "Place all your remaining")
    accepted(client, game, {"type": "place", f"place-{mine[0]}": str(count)})

    html = client_for(two[1]).get(f"/games/{game.pk}/").content.decode()
    assert "handed in their starting placement" in html
    # docs/bots/contract.md: [data-territory] selects the board's territories and nothing else, even
    # on a page full of placement inputs.
    tagged = re.findall(r"<[^>]*\sdata-territory=[^>]*>", html)
    assert len(tagged) == 42 and all("data-owner=" in t and "data-armies=" in t for t in tagged)
    assert f'data-territory="{mine[0]}" data-owner="0" data-armies="{state.armies[mine[0]]}"' in html


def test_it_chooses_a_capital(two):
    game = started_game(two, setup="random", objective="capitals")
    state = load_state(game)
    assert state.phase == "capital"
    client = client_for(two[0])

    refused(client, game, {"type": "choose_capital", "territory": own(state, 1)[0]},
            "is not yours")
    accepted(client, game, {"type": "choose_capital", "territory": own(state, 0)[0]})

    capital = own(state, 0)[0]
    assert load_state(game).players[0].capital == capital
    mine = client_for(two[0]).get(f"/games/{game.pk}/").content.decode()
    theirs = client_for(two[1]).get(f"/games/{game.pk}/").content.decode()
    assert "as capital" in mine and "★" in mine
    assert "chose a capital in secret" in theirs and "★" not in theirs


# ---- reinforce -------------------------------------------------------------------------
def test_it_places_reinforcements_on_several_territories(two):
    game = started_game(two, setup="random")
    state = load_state(game)
    mine = own(state, state.current)

    accepted(mover(state, two), game, {"type": "place", f"place-{mine[0]}": "1",
                                       f"place-{mine[1]}": "1"})

    assert load_state(game).reinforcements == state.reinforcements - 2


def test_it_refuses_bad_reinforcements(two):
    game = started_game(two, setup="random")
    state = load_state(game)
    client = mover(state, two)
    mine = own(state, state.current)[0]
    theirs = own(state, 1 - state.current)[0]
    too_many = str(state.reinforcements + 1)

    refused(client, game, {"type": "place", f"place-{theirs}": "1"}, "is not yours")
    refused(client, game, {"type": "place", f"place-{mine}": too_many}, "armies to place")
    refused(client_for(two[1 - state.current]), game, {"type": "place", f"place-{mine}": "1"},
            "It is not your move", 403)


def test_it_trades_a_set_of_cards(two):
    game = started_game(two, setup="random")
    state = play_until(game, two, lambda s: s.phase == "reinforce"
                       and find_sets(s.players[s.current].cards))
    seat = state.current
    trio = find_sets(state.players[seat].cards)[0]
    client = client_for(two[seat])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Trade for" in page

    accepted(client, game, {"type": "trade", "set": ",".join(str(c) for c in trio)})

    after = load_state(game)
    assert after.sets_traded == state.sets_traded + 1
    assert not set(trio) & set(after.players[seat].cards)


def test_it_refuses_bad_trades(two):
    game = started_game(two, setup="random")
    state = play_until(game, two, lambda s: s.phase == "reinforce"
                       and len(s.players[s.current].cards) >= 2)
    client = mover(state, two)
    hand = state.players[state.current].cards
    not_mine = next(c for c in range(44) if c not in hand)

    refused(client, game, {"type": "trade", "card": [str(hand[0]), str(hand[1]), str(not_mine)]},
            "Those cards cannot be traded")
    refused(client, game, {"type": "trade", "card": [str(hand[0])]}, "Pick exactly three cards")
    refused(client, game, {"type": "trade", "card": ["x", "y", "z"]}, "is not a whole number")


# ---- attack and occupy -----------------------------------------------------------------
def attack_position(two, **rules):
    game = started_game(two, setup="random", **rules)
    state = play_until(game, two, lambda s: s.phase == "attack" and any(
        s.armies[t] >= 4 and any(s.owner[n] != s.current for n in NEIGHBOURS[t])
        for t in own(s, s.current)))
    seat = state.current
    source = next(t for t in own(state, seat, 4)
                  if any(state.owner[n] != seat for n in NEIGHBOURS[t]))
    target = next(n for n in NEIGHBOURS[source] if state.owner[n] != seat)
    return game, state, seat, source, target


def test_it_attacks_with_chosen_dice(two):
    game, state, seat, source, target = attack_position(two)

    response = accepted(client_for(two[seat]), game,
                        {"type": "attack", "from": source, "to": target, "dice": "2"})

    battle = [e for e in seat_views.event_dicts(game, seat) if e["type"] == "battle"][-1]
    assert len(battle["data"]["attacker_dice"]) == 2
    assert response["Location"].endswith("#play")


def test_it_attacks_repeatedly_until_done(two):
    game, state, seat, source, target = attack_position(two)

    accepted(client_for(two[seat]), game,
             {"type": "attack", "from": source, "to": target, "repeat": "on"})

    after = load_state(game)
    assert after.owner[target] == seat or after.armies[source] == 1


def test_it_tells_the_battle_in_words_after_an_attack(two):
    game, state, seat, source, target = attack_position(two)
    client = client_for(two[seat])

    response = post_play(client, game, {"type": "attack", "from": source, "to": target},
                         HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200 and html.startswith('<div id="game"')
    assert "attacked" in html and " against " in html


def test_it_refuses_bad_attacks(two):
    game, state, seat, source, target = attack_position(two)
    client = client_for(two[seat])
    far = next(t for t in TERRITORIES if state.owner[t] != seat and t not in NEIGHBOURS[source])
    mine = next(n for n in TERRITORIES if state.owner[n] == seat and n != source)
    theirs = next(t for t in TERRITORIES if state.owner[t] not in (seat,))

    refused(client, game, {"type": "attack", "from": source, "to": far}, "do not border")
    refused(client, game, {"type": "attack", "from": source, "to": mine}, "cannot attack your own")
    refused(client, game, {"type": "attack", "from": source, "to": target, "dice": "4"},
            "That number of dice is not allowed")
    refused(client, game, {"type": "attack", "from": source, "to": target, "dice": "0"},
            "That number of dice is not allowed")
    refused(client, game, {"type": "attack", "from": theirs, "to": source}, "is not yours")
    refused(client, game, {"type": "attack", "from": source, "to": ""},
            "Choose the territory to attack.")
    refused(client_for(two[1 - seat]), game, {"type": "attack", "from": source, "to": target},
            "It is not your move", 403)


def occupy_position(two, **rules):
    game = started_game(two, setup="random", **rules)
    state = play_until(game, two, lambda s: s.phase == "occupy"
                       and s.armies[s.occupation.source] - 1 > s.occupation.minimum)
    return game, state


def test_it_moves_into_a_conquered_territory(two):
    game, state = occupy_position(two)
    occupation = state.occupation
    client = mover(state, two)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'min="{occupation.minimum}"' in page

    accepted(client, game, {"type": "occupy", "armies": str(occupation.minimum + 1)})

    after = load_state(game)
    assert after.armies[occupation.target] == state.armies[occupation.target] + occupation.minimum + 1


def test_it_refuses_bad_occupations(two):
    game, state = occupy_position(two)
    occupation = state.occupation
    client = mover(state, two)
    most = state.armies[occupation.source] - 1

    if occupation.minimum > 1:
        refused(client, game, {"type": "occupy", "armies": str(occupation.minimum - 1)},
                "Not enough armies")
    refused(client, game, {"type": "occupy", "armies": str(most + 1)}, "Not enough armies")
    refused(client, game, {"type": "occupy", "armies": ""}, "Enter a number")
    refused(client, game, {"type": "attack", "from": occupation.source, "to": occupation.target},
            "That cannot be done in this phase")


def test_it_ends_the_attack_and_the_turn(two):
    game, state, seat, source, target = attack_position(two)
    client = client_for(two[seat])

    accepted(client, game, {"type": "end_attack"})
    assert load_state(game).phase == "fortify"
    refused(client, game, {"type": "end_attack"}, "That cannot be done in this phase")
    accepted(client, game, {"type": "end_turn"})

    assert load_state(game).turn_seat != seat


def test_it_refuses_to_end_before_the_reinforcements_are_placed(two):
    game = started_game(two, setup="random")
    state = load_state(game)
    client = mover(state, two)

    refused(client, game, {"type": "end_attack"}, "Place all your reinforcements first")
    refused(client, game, {"type": "end_turn"}, "Place all your reinforcements first")
    refused(client, game, {"type": "fortify", "from": own(state, state.current)[0],
                           "to": own(state, state.current)[1], "armies": "1"},
            "Place all your reinforcements first")


# ---- fortify ---------------------------------------------------------------------------
def fortify_position(two, mode, wanted=None):
    game = started_game(two, setup="random", fortify=mode)

    def ready(s):
        if s.phase != "attack":
            return False
        pairs = [(a, b) for a in own(s, s.current, 2) for b in own(s, s.current)
                 if a != b and (b in NEIGHBOURS[a])]
        return bool(pairs) and (wanted is None or wanted(s))
    state = play_until(game, two, ready)
    return game, state, state.current


def test_it_fortifies_to_a_neighbour(two):
    game, state, seat = fortify_position(two, "adjacent")
    source = next(a for a in own(state, seat, 2) if any(state.owner[n] == seat for n in NEIGHBOURS[a]))
    target = next(n for n in NEIGHBOURS[source] if state.owner[n] == seat)
    client = client_for(two[seat])

    far = next((t for t in own(state, seat) if t != source and t not in NEIGHBOURS[source]), None)
    if far:
        refused(client, game, {"type": "fortify", "from": source, "to": far, "armies": "1"},
                "do not border")
    refused(client, game, {"type": "fortify", "from": source, "to": target,
                           "armies": str(state.armies[source])}, "Not enough armies")
    refused(client, game, {"type": "fortify", "from": source, "to": target, "armies": ""},
            "Enter a number")
    accepted(client, game, {"type": "fortify", "from": source, "to": target, "armies": "1"})

    after = load_state(game)
    assert after.armies[target] == state.armies[target] + 1 and after.turn_seat != seat


def test_it_fortifies_along_a_chain_under_connected(two):
    def chain(s):
        seat = s.current
        return any(connected(s, seat, a, b) and b not in NEIGHBOURS[a]
                   for a in own(s, seat, 2) for b in own(s, seat) if a != b)
    game, state, seat = fortify_position(two, "connected", chain)
    source, target = next((a, b) for a in own(state, seat, 2) for b in own(state, seat)
                          if a != b and b not in NEIGHBOURS[a] and connected(state, seat, a, b))
    client = client_for(two[seat])
    cut_off = next((b for b in own(state, seat) if b != source
                    and not connected(state, seat, source, b)), None)

    if cut_off:
        refused(client, game, {"type": "fortify", "from": source, "to": cut_off, "armies": "1"},
                "No chain of your territories")
    accepted(client, game, {"type": "fortify", "from": source, "to": target, "armies": "1"})

    assert load_state(game).armies[target] == state.armies[target] + 1


def test_it_spreads_armies_to_several_neighbours(two):
    game, state, seat = fortify_position(two, "spread", lambda s: any(
        s.armies[a] >= 3 and sum(s.owner[n] == s.current for n in NEIGHBOURS[a]) >= 2
        for a in own(s, s.current)))
    source = next(a for a in own(state, seat, 3)
                  if sum(state.owner[n] == seat for n in NEIGHBOURS[a]) >= 2)
    first, second = [n for n in NEIGHBOURS[source] if state.owner[n] == seat][:2]
    client = client_for(two[seat])
    far = next((t for t in own(state, seat) if t != source and t not in NEIGHBOURS[source]), None)

    if far:
        refused(client, game, {"type": "fortify", "mode": "spread", "from": source,
                               f"move-{far}": "1"}, "do not border")
    refused(client, game, {"type": "fortify", "mode": "spread", "from": source},
            "Move at least one army")
    accepted(client, game, {"type": "fortify", "mode": "spread", "from": source,
                            f"move-{first}": "1", f"move-{second}": "1"})

    after = load_state(game)
    assert after.armies[first] == state.armies[first] + 1
    assert after.armies[second] == state.armies[second] + 1


# ---- the neutral, defence, resigning ---------------------------------------------------
@pytest.mark.usefixtures("neutral_by_hand")  # the rulebooks' way, chosen
def test_it_places_the_neutrals_reinforcements(two):
    game = started_game(two, setup="random", neutral=True, neutral_reinforcement="opponent")
    state = play_until(game, two, lambda s: s.phase == "neutral_place")
    client = client_for(two[state.current])
    neutral = [t for t in TERRITORIES if state.owner[t] == NEUTRAL]
    mine = own(state, state.current)[0]

    refused(client, game, {"type": "place_neutral", f"place-{mine}": "1"}, "is not neutral")
    refused(client_for(two[state.turn_seat]), game,
            {"type": "place_neutral", f"place-{neutral[0]}": "1"}, "It is not your move", 403)
    accepted(client, game, {"type": "place_neutral",
                            f"place-{neutral[0]}": str(state.reinforcements)})

    assert load_state(game).phase == "attack"


def test_it_sets_the_defence_policy(two):
    game = started_game(two, setup="random")
    client = client_for(two[0])

    refused(client, game, {"type": "set_defense", "policy": "all"}, "was not understood")
    accepted(client, game, {"type": "set_defense", "policy": "one"})

    assert load_state(game).players[0].defense == "one"


def test_it_sets_the_neutrals_defence_when_the_opponent_decides_it(two):
    game = started_game(two, setup="random", neutral_dice="opponent")
    client = client_for(two[0])
    assert 'id="form-neutral_defense"' in client.get(f"/games/{game.pk}/").content.decode()

    accepted(client, game, {"type": "set_defense", "policy": "one", "neutral": "yes"})

    player = load_state(game).players[0]
    assert (player.neutral_defense, player.defense) == ("one", "max")


def test_it_offers_no_neutral_defence_when_the_neutral_always_defends_with_most(two):
    game = started_game(two, setup="random")
    client = client_for(two[0])

    assert 'id="form-neutral_defense"' not in client.get(f"/games/{game.pk}/").content.decode()
    refused(client, game, {"type": "set_defense", "policy": "one", "neutral": "yes"},
            "most dice")


def test_it_resigns_only_when_confirmed(two):
    game = started_game(two, setup="random")
    client = client_for(two[1])

    refused(client, game, {"type": "resign"}, "Tick the box")
    accepted(client, game, {"type": "resign", "confirm": "yes"})

    game.refresh_from_db()
    assert game.status == "finished" and game.winner == 0


# ---- who may post ----------------------------------------------------------------------
def test_it_sends_a_signed_out_visitor_to_sign_in(two, client):
    game = started_game(two, setup="random")

    response = post_play(client, game, {"type": "end_turn"})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_refuses_a_spectator(two, as_charlie):
    game = started_game(two, setup="random")

    refused(as_charlie, game, {"type": "set_defense", "policy": "one"},
            "You do not play in this game", 403)


def test_it_refuses_a_form_without_the_version_or_type(two):
    game = started_game(two, setup="random")
    client = client_for(two[0])
    before = events(game)

    no_version = client.post(f"/games/{game.pk}/play/", {"type": "set_defense", "policy": "one"})
    unknown = post_play(client, game, {"type": "teleport"})

    assert no_version.status_code == 400 and unknown.status_code == 400
    assert "Unknown move" in unknown.content.decode()
    assert events(game) == before


def test_it_shows_a_stale_page_the_new_state(two):
    game = started_game(two, setup="random")
    state = load_state(game)
    client = mover(state, two)
    mine = own(state, state.current)[0]
    seen = game.version
    # The same player, in another tab, places an army: the page's form is stale.
    service.submit(service.player(two[state.current]), game, {"type": "place", "placements": {mine: 1}})
    game.refresh_from_db()
    now = game.version

    response = refused(client, game, {"type": "place", f"place-{mine}": "1"},
                       "The game moved on while you were deciding", 409, version=seen)

    assert now > seen and f'data-version="{now}"' in response.content.decode()


def test_it_answers_an_htmx_refusal_with_the_game_area(two):
    game = started_game(two, setup="random")
    state = load_state(game)
    client = mover(state, two)
    theirs = own(state, 1 - state.current)[0]
    before = events(game)

    response = post_play(client, game, {"type": "place", f"place-{theirs}": "1"},
                         HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 400 and html.startswith('<div id="game"')
    assert "That territory is not yours" in html
    assert events(game) == before


def test_it_keeps_a_refused_forms_input(two):
    game = started_game(two, setup="random")
    state = load_state(game)
    client = mover(state, two)
    mine = own(state, state.current)[0]
    too_many = str(state.reinforcements + 5)

    response = refused(client, game, {"type": "place", f"place-{mine}": too_many}, "armies to place")

    assert f'name="place-{mine}" id="place-{mine}" value="{too_many}"' in response.content.decode()


def test_it_joins_and_starts_a_game_from_its_page(alice, bob, as_bob, as_alice):
    game = open_game(alice, 3, "Table")

    joined = as_bob.post(f"/games/{game.pk}/join/")
    again = as_bob.post(f"/games/{game.pk}/join/", follow=True)
    not_creator = as_bob.post(f"/games/{game.pk}/start/", follow=True)
    started = as_alice.post(f"/games/{game.pk}/start/")

    game.refresh_from_db()
    assert joined.status_code == 302 and started.status_code == 302
    assert "You already play in this game" in again.content.decode()
    assert "Only the game&#x27;s creator can start it" in not_creator.content.decode()
    assert game.status == "active" and game.players == 2


def test_it_refuses_to_start_alone(alice, as_alice):
    game = open_game(alice, 3, "Table")

    response = as_alice.post(f"/games/{game.pk}/start/", follow=True)

    assert "At least two players must be seated" in response.content.decode()
    game.refresh_from_db()
    assert game.status == "open"


def test_user_helper_is_idempotent(db):
    assert with_password("zed") == with_password("zed")
