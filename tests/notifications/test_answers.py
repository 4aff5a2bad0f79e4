"""notifications/mail_in/answers.py: the turn mail's examples made from the reader's position, and
a reply's answer telling what each command did (dice, losses, the territory after)."""

from __future__ import annotations

import html
import re

import pytest
from django.core import mail
from django.utils import translation

from engine import odds
from engine.board import NEIGHBOURS, NEUTRAL, territory_name
from games import seat_views
from games.store.seats import read_seats
from games.store.states import load_state
from notifications import delivery
from notifications.mail_in import answers
from notifications.mail_in.commands import parse_line
from notifications.models import Notification
from tests.notifications.support import rows, started, user_at
from tests.notifications.test_inbound import mailed, reply_to
from words import vocabulary


@pytest.fixture
def game(three_at_first_reinforce):
    """The game of these tests: alice, bob and charlie at the first reinforce phase."""
    return three_at_first_reinforce


def examples_in(body: str) -> list[str]:
    lines = body.splitlines()
    start = lines.index("For example, from where you stand now:") + 1
    return [line.strip() for line in lines[start:] if line.startswith("  ")][:2]


def test_the_turn_mail_shows_two_commands_from_the_players_own_position(game):
    state = load_state(game)
    seat = state.current
    player = user_at(game, seat)
    row = rows(game, kind=Notification.TURN, user=player)[-1]

    assert delivery.send_one(row.pk) == "sent"
    body = mail.outbox[-1].body

    assert "Commands, one per line:" in body
    examples = examples_in(body)
    assert len(examples) == 2
    placed = parse_line(examples[0], state, seat)
    assert placed["type"] == "place"
    assert sum(placed["placements"].values()) == state.reinforcements
    assert all(state.owner[t] == seat for t in placed["placements"])
    attack = parse_line(examples[1], state, seat)
    assert attack["type"] == "attack"
    assert state.owner[attack["from"]] == seat and state.owner[attack["to"]] != seat
    assert attack["to"] in NEIGHBOURS[attack["from"]]
    assert re.search(r"<pre[^>]*>place \d", mail.outbox[-1].alternatives[0][0])


def test_the_examples_are_the_commands_the_player_may_give_in_setup(alice, bob, clock):
    game = started(alice, bob, initial_placement="simultaneous")
    state = load_state(game)
    view = seat_views.game_view(game, read_seats(game), state, 0)

    found = answers.examples(view)

    assert found and all(parse_line(line, state, 0)["type"] == "place" for line in found)
    assert answers.examples(seat_views.game_view(game, read_seats(game), state, None)) == []  # a spectator


def test_a_replys_answer_tells_the_dice_the_losses_and_the_territory_after(game):
    state = load_state(game)
    seat, player = state.current, user_at(game, state.current)
    source = max(state.border_territories(seat), key=lambda t: state.armies[t])
    target = min((n for n in NEIGHBOURS[source] if state.owner[n] != seat),
                 key=lambda t: state.armies[t])
    body = (f"place {state.reinforcements} {territory_name(source)}\n"
            f"attack {territory_name(target)} from {territory_name(source)} with 3\n")

    message = reply_to(mailed(game, player, body))

    text = message.body
    assert f"Done: attack {territory_name(target)}" in text
    told = text.split(f"Done: attack {territory_name(target)}", 1)[1]
    battle = re.search(rf"  .+ attacked {territory_name(target)} from {territory_name(source)}: "
                        r"([\d ]+) against ([\d ]+), (.+)", told)
    assert battle, told
    assert "lost" in battle[3]
    after = load_state(game)
    owner = ("Red", "Blue", "Green")[after.owner[target]]
    assert re.search(rf"  {territory_name(target)} now: {owner} \(\w+\), "
                     rf"{after.armies[target]} arm", told), told
    assert ("conquered" in battle[3]) == (after.owner[target] == seat)


def test_a_replys_answer_is_in_the_readers_language(game):
    state = load_state(game)
    player = user_at(game, state.current)
    own = state.territories_of(state.current)[0]
    reply = mailed(game, player, f"place {state.reinforcements} {territory_name(own)}")
    row = Notification.objects.get(key=f"reply:{reply.pk}")
    seats = read_seats(game)
    view = seat_views.game_view(game, seats, load_state(game), state.current)

    with translation.override("cs"):
        found = answers.answer(game, state.current, row.payload, view, seats.usernames())
        czech_name = vocabulary.territory_name(own)
    with translation.override("en"):
        english = answers.answer(game, state.current, row.payload, view, seats.usernames())

    assert found[0]["line"].startswith("place")
    # (Some territories, Alberta among them, are called the same in Czech: the sentence is not.)
    assert found[0]["told"] and czech_name in found[0]["told"][0]
    assert found[0]["told"][0] != english[0]["told"][0]


def test_the_turn_mail_gives_the_chance_of_its_attack(game):
    state = load_state(game)
    seat = state.current
    player = user_at(game, seat)
    row = rows(game, kind=Notification.TURN, user=player)[-1]

    assert delivery.send_one(row.pk) == "sent"
    body = mail.outbox[-1].body

    attack = parse_line(examples_in(body)[1], state, seat)
    source, target = attack["from"], attack["to"]
    armies = state.armies[source] + state.reinforcements
    owner = state.owner[target]
    defense = "max" if owner == NEUTRAL else state.players[owner].defense
    chance = odds.summary(armies, state.armies[target], min(3, armies - 1), defense)
    line = (f"Chance that the attack above takes {territory_name(target)} from "
            f"{territory_name(source)}: {vocabulary.percent(chance['repeat']['conquer'])} "
            f"repeating until it falls")
    assert line in body
    assert html.escape(line, quote=False) in mail.outbox[-1].alternatives[0][0]
    # The commands stay as the reply reads them: the chance is a line of its own.
    assert all(parse_line(example, state, seat) for example in examples_in(body))
