"""Each moderator action through the moderation page's forms: who may, the event written
(with who and why), its effect on the replayed state, and refusals where it makes no sense
(with nothing changed)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import engine as rules
from games import service
from games.models import Game, Seat
from games.store.log import stored_events
from games.store.states import load_state
from lobby import bot_accounts
from moderation.views import ACTION_LABELS, ACTIONS_BY_STATUS
from notifications.models import Notification
from tests.games_in_states import open_game
from tests.moderation.support import event_count, last_event, page_messages, started_game
from tests.people import client_for, token_client_for, user


def act(client, game, action, reason="absent for a week", version=None, **fields):
    game.refresh_from_db()
    data = {"action_name": action, f"{action}-action": action,
            f"{action}-version": game.version if version is None else version,
            f"{action}-reason": reason}
    data.update({f"{action}-{k}": v for k, v in fields.items()})
    return client.post(f"/moderation/games/{game.pk}/act/", data, follow=True)


def replayed(game):
    """The state replayed from the whole log, no snapshot: must agree with load_state."""
    state = rules.replay(stored_events(game))
    assert state.to_dict() == load_state(game).to_dict()
    return state


def refused(answer, game, before: int, words: str) -> None:
    assert answer.status_code == 200
    said = " ".join(page_messages(answer))
    assert "Nothing was done" in said and words in said, said
    assert event_count(game) == before


# ---- pause and resume ------------------------------------------------------------------
def test_it_pauses_a_game_and_stops_its_clock(game, maud, alice):
    assert game.deadline is not None
    answer = act(client_for(maud), game, "pause", reason="players asked for a break")
    assert answer.status_code == 200
    event = last_event(game)
    assert event.type == "game_paused" and event.user_id == maud.pk
    assert event.data == {"by": "maud", "reason": "players asked for a break"}
    game.refresh_from_db()
    assert game.status == Game.PAUSED and game.deadline is None
    assert replayed(game).paused
    moved = token_client_for(alice).post(f"/api/v1/games/{game.pk}/commands/", {"type": "set_defense",
                                                                     "policy": "one"},
                            format="json")
    assert moved.status_code == 400 and moved.json()["error"] == "game_not_active"
    assert Notification.objects.filter(game=game, kind=Notification.MODERATED).count() == 2


def test_it_resumes_a_paused_game_and_restarts_its_clock(game, maud):
    act(client_for(maud), game, "pause")
    answer = act(client_for(maud), game, "resume", reason="break over")
    assert "resumed" in " ".join(page_messages(answer))
    event = last_event(game)
    assert event.type == "game_resumed" and event.data["by"] == "maud"
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert game.deadline > timezone.now() + timedelta(hours=23)
    assert not replayed(game).paused


def test_it_refuses_to_resume_a_running_game(game, maud):
    refused(act(client_for(maud), game, "resume"), game, event_count(game), "not paused")


def test_it_refuses_to_pause_a_paused_game(game, maud):
    act(client_for(maud), game, "pause")
    refused(act(client_for(maud), game, "pause"), game, event_count(game), "already paused")


def test_it_refuses_to_pause_a_finished_game(game, maud, alice):
    assert token_client_for(alice).post(f"/api/v1/games/{game.pk}/commands/", {"type": "resign"},
                           format="json").status_code == 201
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    before = event_count(game)
    refused(act(client_for(maud), game, "pause"), game, before, "over")


def test_it_refuses_to_act_on_a_game_not_started(alice, maud):

    game = open_game(alice, 3, "Lobby")
    refused(act(client_for(maud), game, "pause"), game, 0, "not started")
    assert Game.objects.get(pk=game.pk).status == Game.OPEN


# ---- abort -----------------------------------------------------------------------------
def test_it_aborts_a_game_without_a_winner(game, maud):
    act(client_for(maud), game, "abort", reason="cheating by both", confirm="on")
    event = last_event(game)
    assert event.type == "game_aborted" and event.data["reason"] == "cheating by both"
    game.refresh_from_db()
    assert game.status == Game.ABORTED and game.winner is None and game.deadline is None
    state = replayed(game)
    assert state.finished and state.finish_reason == "aborted"


def test_it_asks_to_confirm_an_abort(game, maud):
    refused(act(client_for(maud), game, "abort"), game, event_count(game), "confirm")


def test_it_refuses_to_abort_an_aborted_game(game, maud):
    act(client_for(maud), game, "abort", confirm="on")
    refused(act(client_for(maud), game, "abort", confirm="on"), game, event_count(game), "over")


# ---- end the turn of an absent player --------------------------------------------------
@pytest.mark.usefixtures("neutral_by_hand")  # the rulebooks' way, chosen
def test_it_ends_the_turn_of_an_absent_player_without_counting_a_miss(game, maud):
    before = load_state(game)
    absent = before.turn_seat
    act(client_for(maud), game, "end_turn", reason="away, asked us to")
    events = [e for e in stored_events(game) if e.seq > before.version]
    assert events[0].type == "moderator_ended_turn"
    assert events[0].data == {"by": "maud", "reason": "away, asked us to"}
    assert not any(e.type == "turn_timed_out" for e in events)
    state = replayed(game)
    # The absent player's reinforcement only: the neutral's half is the opponent's to place
    # (docs/players/rules.md), and placing it ends the turn.
    assert (state.phase, state.current) == ("neutral_place", 1 - absent)
    opponent = Seat.objects.get(game=game, seat=1 - absent).user
    service.submit(service.player(opponent), game, {"type": "place_neutral", "placements": {
        state.territories_of(rules.NEUTRAL)[0]: state.reinforcements}})
    state = replayed(game)
    assert state.turn_seat != absent and state.turn == before.turn + 1
    assert state.players[absent].missed_turns == 0


def test_it_refuses_to_end_a_turn_while_paused(game, maud):
    act(client_for(maud), game, "pause")
    refused(act(client_for(maud), game, "end_turn"), game, event_count(game), "resume")


# ---- drop ------------------------------------------------------------------------------
def test_it_drops_a_player(alice, bob, charlie, maud):
    game = started_game([alice, bob, charlie])
    act(client_for(maud), game, "drop", reason="abusive", seat=2)
    dropped = next(e for e in stored_events(game) if e.type == "player_dropped")
    assert dropped.data["seat"] == 2 and dropped.data["by"] == "maud"
    assert dropped.data["reason"] == "abusive"
    state = replayed(game)
    assert state.players[2].dropped and not state.finished
    assert state.territory_count(2) == 0


def test_it_refuses_to_drop_a_player_already_out(alice, bob, charlie, maud):
    game = started_game([alice, bob, charlie])
    act(client_for(maud), game, "drop", seat=2)
    refused(act(client_for(maud), game, "drop", seat=2), game, event_count(game), "already out")


def test_it_ends_a_two_player_game_when_one_is_dropped(game, maud):
    act(client_for(maud), game, "drop", seat=1)
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.winner == 0


# ---- extend the deadline ---------------------------------------------------------------
def test_it_extends_the_current_deadline(game, maud):
    was = game.deadline
    until = (was + timedelta(days=2)).replace(second=0, microsecond=0)
    act(client_for(maud), game, "extend_deadline", reason="holiday", until=until.strftime(
        "%Y-%m-%dT%H:%M"))
    event = last_event(game)
    assert event.type == "deadline_extended" and event.data["by"] == "maud"
    assert event.data["until"] == until.isoformat()
    game.refresh_from_db()
    assert game.deadline == until
    # The rules ignore it: the replayed game is where it was, one version on.
    assert replayed(game).phase == load_state(game, event.seq - 1).phase


def test_it_refuses_to_extend_to_an_earlier_time(game, maud):
    earlier = game.deadline - timedelta(hours=2)
    refused(act(client_for(maud), game, "extend_deadline", until=earlier.strftime("%Y-%m-%dT%H:%M")),
            game, event_count(game), "later")


def test_it_refuses_to_extend_a_paused_clock(game, maud):
    act(client_for(maud), game, "pause")
    later = timezone.now() + timedelta(days=3)
    refused(act(client_for(maud), game, "extend_deadline", until=later.strftime("%Y-%m-%dT%H:%M")),
            game, event_count(game), "running clock")


# ---- replace a player ------------------------------------------------------------------
def test_it_hands_a_seat_with_its_secrets_to_another_user(alice, bob, maud):
    game = started_game([alice, bob], objective="missions", neutral=False)
    bob_saw = token_client_for(bob).get(f"/api/v1/games/{game.pk}/").json()["you"]
    erin = user("erin")
    act(client_for(maud), game, "replace_player", reason="bob left the site", seat=1,
        username="erin")
    event = last_event(game)
    assert event.type == "player_replaced"
    assert event.data == {"by": "maud", "reason": "bob left the site", "seat": 1,
                               "from": "bob", "to": "erin", "to_user_id": erin.pk}
    assert Seat.objects.get(game=game, seat=1).user == erin
    erin_sees = token_client_for(erin).get(f"/api/v1/games/{game.pk}/").json()["you"]
    assert erin_sees["seat"] == 1 and erin_sees["cards"] == bob_saw["cards"]
    assert erin_sees["mission"] == bob_saw["mission"] is not None
    assert token_client_for(bob).get(f"/api/v1/games/{game.pk}/").json()["you"] is None
    told = Notification.objects.get(game=game, user=erin, kind=Notification.REPLACED)
    assert told.payload["reason"] == "bob left the site"
    replayed(game)


def test_it_refuses_to_replace_with_someone_already_playing(game, maud):
    refused(act(client_for(maud), game, "replace_player", seat=1, username="alice"), game,
            event_count(game), "already plays")


def test_it_refuses_to_replace_with_an_unknown_user(game, maud):
    refused(act(client_for(maud), game, "replace_player", seat=1, username="nobody"), game,
            event_count(game), "no such user")


def test_it_refuses_to_hand_a_seat_to_a_bot_account(game, maud):
    # A bot account plays only where its owner allowed it: nobody puts it in a game.
    bot_accounts.convert(user("robo"))
    refused(act(client_for(maud), game, "replace_player", seat=1, username="robo"), game,
            event_count(game), "bot account")
    assert not Seat.objects.filter(game=game, user__username="robo").exists()


def test_it_refuses_to_hand_a_seat_to_the_moderator_acting(game, maud):
    # Taking a seat would make it their own game, decided by themselves.
    refused(act(client_for(maud), game, "replace_player", seat=1, username="maud"), game,
            event_count(game), "yourself")
    assert not Seat.objects.filter(game=game, user=maud).exists()


def test_it_refuses_to_replace_a_player_already_out(alice, bob, charlie, maud):
    game = started_game([alice, bob, charlie])
    act(client_for(maud), game, "drop", seat=2)
    user("erin")
    refused(act(client_for(maud), game, "replace_player", seat=2, username="erin"), game,
            event_count(game), "already out")


# ---- every action: who may, and the form's own checks ----------------------------------
def test_it_refuses_players_and_changes_nothing(game, alice):
    before = event_count(game)
    answer = act(client_for(alice), game, "pause")
    assert answer.status_code == 403
    assert event_count(game) == before and Game.objects.get(pk=game.pk).status == Game.ACTIVE


def test_it_requires_a_reason(game, maud):
    refused(act(client_for(maud), game, "pause", reason=""), game, event_count(game), "Reason")


def test_it_refuses_an_action_on_a_game_that_moved_on(game, maud):
    stale = game.version
    act(client_for(maud), game, "pause")
    refused(act(client_for(maud), game, "resume", version=stale), game, event_count(game),
            "moved on")


def test_it_shows_only_the_actions_that_make_sense(game, maud):
    page = client_for(maud).get(f"/moderation/games/{game.pk}/").content.decode()
    assert 'id="act-pause"' in page and 'id="act-resume"' not in page
    act(client_for(maud), game, "pause")
    page = client_for(maud).get(f"/moderation/games/{game.pk}/").content.decode()
    assert 'id="act-resume"' in page and 'id="act-pause"' not in page


def test_it_offers_no_action_before_the_start_or_after_the_end(alice, bob, maud):

    waiting = open_game(alice, 3, "Lobby")
    page = client_for(maud).get(f"/moderation/games/{waiting.pk}/").content.decode()
    assert "has not started" in page and 'class="moderate' not in page
    game = started_game([alice, bob])
    act(client_for(maud), game, "abort", confirm="on")
    page = client_for(maud).get(f"/moderation/games/{game.pk}/").content.decode()
    assert "game is over" in page and 'class="moderate' not in page


def test_the_page_offers_each_status_the_declared_actions_each_with_its_words():
    assert ACTIONS_BY_STATUS == {
        Game.ACTIVE: ["pause", "end_turn", "extend_deadline", "drop", "replace_player", "abort"],
        Game.PAUSED: ["resume", "replace_player", "abort"],
    }
    assert set(ACTION_LABELS) == {a for offered in ACTIONS_BY_STATUS.values() for a in offered}
