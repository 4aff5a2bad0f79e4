"""games/deadlines.py (the sweep) and notifications/reminders.py: overdue decisions completed
through the one write path, and reminders before a deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from accounts.models import Preferences
from games import deadlines as game_deadlines
from games import service
from games import tasks as game_tasks
from games.models import Event, Game
from games.store.append import VersionConflict
from games.store.states import load_state
from notifications import tasks
from notifications.models import Notification, Vacation
from notifications.reminders import sweep_reminders
from tests.notifications.support import (
    act,
    place_setup,
    rows,
    seat_of,
    seats_to_act,
    send_everything,
    started,
    user_at,
)
from tests.play import play_until


@pytest.fixture
def game(three_at_first_reinforce):
    """The game of these tests: alice, bob and charlie at the first reinforce phase."""
    return three_at_first_reinforce


DAY = timedelta(days=1)


def events_since(game, version) -> list[tuple[str, dict]]:
    return list(Event.objects.filter(game=game, seq__gt=version).order_by("seq")
                .values_list("type", "data"))


def timed_out_seats(game, version) -> list[int]:
    return [data["seat"] for kind, data in events_since(game, version)
            if kind == "turn_timed_out"]


def overdue(game, clock) -> None:
    game.refresh_from_db()
    clock.set(game.deadline + timedelta(seconds=1))


def sweep(game) -> dict:
    counts = game_deadlines.sweep_deadlines()
    game.refresh_from_db()
    return counts


def nothing_due() -> dict:
    return {"timed_out": 0, "moved_on": 0, "stretched": 0, "failed": 0}


def play_a_quiet_turn(game) -> None:
    """The player whose turn it is places everything on one territory and ends the turn."""
    state = load_state(game)
    user = user_at(game, state.current)
    act(game, user, {"type": "place", "placements": {
        state.territories_of(state.current)[0]: state.reinforcements}})
    act(game, user, {"type": "end_turn"})


# ---- the deadline column -------------------------------------------------------------
def test_it_sets_a_deadline_for_each_decision(alice, bob, clock):
    game = started(alice, bob)

    assert game.deadline == clock.now + DAY
    clock.advance(hours=3)
    state = load_state(game)
    act(game, user_at(game, state.current), {"type": "place", "placements": {
        state.territories_of(state.current)[0]: 1}})
    game.refresh_from_db()
    assert game.deadline == clock.now + DAY


def test_it_keeps_the_deadline_while_the_same_turn_goes_on(game, clock):
    deadline = game.deadline
    state = load_state(game)
    clock.advance(hours=3)

    act(game, user_at(game, state.current), {"type": "place", "placements": {
        state.territories_of(state.current)[0]: 1}})

    game.refresh_from_db()
    assert game.deadline == deadline


def test_it_clears_the_deadline_of_a_finished_game(alice, bob, clock):
    game = started(alice, bob)

    act(game, bob, {"type": "resign"})

    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.deadline is None


def test_it_sweeps_nothing_before_the_deadline(game, clock):
    clock.set(game.deadline - timedelta(seconds=1))

    assert game_deadlines.sweep_deadlines() == nothing_due()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_it_sweeps_neither_paused_nor_finished_games(game, clock):
    Game.objects.filter(pk=game.pk).update(status=Game.PAUSED)
    overdue(game, clock)

    assert game_deadlines.sweep_deadlines() == nothing_due()
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)
    assert game_deadlines.sweep_deadlines() == nothing_due()
    assert Game.objects.get(pk=game.pk).version == game.version


# ---- turns -----------------------------------------------------------------------------
def test_it_completes_a_missed_reinforce_phase_and_ends_the_turn(game, clock):
    state = load_state(game)
    owing, version = state.current, game.version
    overdue(game, clock)

    assert sweep(game) == {**nothing_due(), "timed_out": 1}

    happened = events_since(game, version)
    assert happened[0] == ("turn_timed_out", {"seat": owing, "missed": 1})
    placed = [data for kind, data in happened if kind == "armies_placed"]
    assert placed[0]["seat"] == owing and placed[0]["auto"]
    assert sum(placed[0]["placements"].values()) == state.reinforcements
    assert ("turn_ended", {"seat": owing}) in happened
    assert not [kind for kind, _ in happened if kind == "battle"]
    state = load_state(game)
    assert state.phase == "reinforce" and state.current == state.next_seat(owing)
    assert state.players[owing].missed_turns == 1
    assert game.deadline == clock.now + DAY


def test_it_changes_nothing_when_the_sweep_runs_twice(game, clock):
    overdue(game, clock)
    sweep(game)
    version, deadline = game.version, game.deadline

    assert sweep(game) == nothing_due()
    assert (game.version, game.deadline) == (version, deadline)
    assert len(rows(game, kind=Notification.TIMED_OUT)) == 3


def test_it_applies_one_timeout_per_sweep_even_when_many_are_overdue(game, clock):
    overdue(game, clock)
    clock.advance(days=10)  # the clock of the next decision starts at the timeout

    sweep(game)

    assert len(timed_out_seats(game, 0)) == 1
    assert game.deadline == clock.now + DAY


def test_it_ends_a_missed_attack_phase(game, clock):
    state = load_state(game)
    owing = state.current
    act(game, user_at(game, owing), {"type": "place", "placements": {
        state.territories_of(owing)[0]: state.reinforcements}})
    assert load_state(game).phase == "attack"
    version = game.version
    overdue(game, clock)

    sweep(game)

    assert timed_out_seats(game, version) == [owing]
    assert ("turn_ended", {"seat": owing}) in events_since(game, version)
    assert load_state(game).current == state.next_seat(owing)


def test_it_ends_a_missed_fortify_phase(game, clock):
    state = load_state(game)
    owing = state.current
    user = user_at(game, owing)
    act(game, user, {"type": "place", "placements": {
        state.territories_of(owing)[0]: state.reinforcements}})
    act(game, user, {"type": "end_attack"})
    assert load_state(game).phase == "fortify"
    version = game.version
    overdue(game, clock)

    sweep(game)

    assert timed_out_seats(game, version) == [owing]
    assert load_state(game).current == state.next_seat(owing)


def test_it_occupies_with_the_minimum_when_an_occupation_is_missed(alice, bob, clock):
    game = started(alice, bob, neutral=False, placement_batch=50)
    state = play_until(game, None, lambda s: s.phase == "occupy", seed="occupy")
    owing, occupation = state.current, state.occupation
    version = game.version
    overdue(game, clock)

    sweep(game)

    happened = events_since(game, version)
    assert happened[0] == ("turn_timed_out", {"seat": owing, "missed": 1})
    assert happened[1] == ("occupied", {"from": occupation.source, "to": occupation.target,
                                        "armies": occupation.minimum})
    assert ("turn_ended", {"seat": owing}) in happened


def test_it_sweeps_the_other_games_when_one_timeout_fails(alice, bob, charlie, clock,
                                                         monkeypatch, caplog):
    broken, fine = started(alice, bob), started(bob, charlie)
    overdue(broken, clock)
    clock.advance(seconds=1)
    submit_timeout = service.submit_timeout

    def failing_for_one_game(loaded, version, *args, **kwargs):
        if loaded.game.pk == broken.pk:  # the sweep hands on the game with its seats
            raise KeyError("a corrupt event")
        return submit_timeout(loaded, version, *args, **kwargs)

    monkeypatch.setattr(service, "submit_timeout", failing_for_one_game)

    assert game_deadlines.sweep_deadlines() == {**nothing_due(), "timed_out": 1, "failed": 1}
    assert timed_out_seats(fine, 0) and not timed_out_seats(broken, 0)
    assert f"the timeout of game {broken.pk} failed" in caplog.text


def test_it_leaves_what_one_run_cannot_take_to_the_next_and_says_so(
        alice, bob, charlie, clock, settings, caplog, monkeypatch):
    games = [started(alice, bob), started(bob, charlie), started(charlie, alice)]
    for game in games:
        overdue(game, clock)
    clock.advance(seconds=1)
    settings.CONQUEST_DEADLINE_SWEEP_BATCH = 2
    queued = []
    monkeypatch.setattr(game_tasks.sweep_deadlines, "apply_async", lambda *a, **k: queued.append(a))

    first = game_tasks.sweep_deadlines()

    assert first["timed_out"] == 2 and first["backlog"] == 1
    assert "the deadline sweep is behind: 1 overdue games wait" in caplog.text
    assert len(queued) == 1  # the rest is swept at once, not a beat later
    # Whatever happens to that queued run (a worker killed, a broker restarted), the next
    # run finds the game still overdue.
    assert game_tasks.sweep_deadlines() == {**nothing_due(), "timed_out": 1}
    assert all(len(timed_out_seats(game, 0)) == 1 for game in games)


def test_it_routes_the_deadline_sweep_apart_from_mail():
    from config.celery import app

    def queue_of(name):
        return app.amqp.router.route({}, name)["queue"].name

    assert queue_of("games.tasks.sweep_deadlines") == "deadlines"
    assert {queue_of(f"notifications.tasks.{name}") for name in (
        "deliver", "deliver_many", "sweep_outbox", "sweep_reminders", "send_digests")} == {
        "mail"}
    # A computer player's move and its sweep are the clock's too: never behind the results
    # and tournament steps a burst of finished games queues on `celery`.
    assert queue_of("games.tasks.play_bots") == queue_of("games.tasks.sweep_bots") == "deadlines"


# ---- setup phases ----------------------------------------------------------------------
def test_it_claims_at_random_for_a_missed_claim(alice, bob, charlie, clock):
    game = started(alice, bob, charlie, setup="claim")
    owing, version = load_state(game).current, game.version
    overdue(game, clock)

    sweep(game)

    happened = events_since(game, version)
    assert happened[0] == ("turn_timed_out", {"seat": owing, "missed": 1})
    assert happened[1][0] == "territory_claimed"
    assert happened[1][1]["seat"] == owing and happened[1][1]["random"]
    assert load_state(game).current != owing


def test_it_places_at_random_for_a_missed_placement_turn(alice, bob, clock):
    game = started(alice, bob, placement_batch=5)
    state = load_state(game)
    owing, version = state.current, game.version
    overdue(game, clock)

    sweep(game)

    happened = events_since(game, version)
    assert happened[0] == ("turn_timed_out", {"seat": owing, "missed": 1})
    assert happened[1][0] == "armies_placed" and happened[1][1]["random"]
    assert sum(happened[1][1]["placements"].values()) == 5
    assert load_state(game).current == 1 - owing


def test_it_places_for_everyone_who_missed_a_simultaneous_placement(alice, bob, charlie,
                                                                    clock):
    game = started(alice, bob, charlie, initial_placement="simultaneous")
    state = load_state(game)
    act(game, bob, {"type": "place", "placements": {
        state.territories_of(seat_of(game, bob))[0]:
            state.players[seat_of(game, bob)].setup_armies}})
    version = game.version
    overdue(game, clock)

    sweep(game)

    missed = {seat_of(game, alice), seat_of(game, charlie)}
    assert set(timed_out_seats(game, version)) == missed
    state = load_state(game)
    assert state.phase == "reinforce"
    assert all(player.setup_armies == 0 for player in state.players)
    assert state.players[seat_of(game, bob)].missed_turns == 0
    assert sweep(game) == nothing_due()


def test_it_chooses_a_capital_for_everyone_who_missed_the_choice(alice, bob, charlie, clock):
    game = started(alice, bob, charlie, objective="capitals", placement_batch=50)
    place_setup(game)
    state = load_state(game)
    assert state.phase == "capital"
    chosen = state.territories_of(seat_of(game, alice))[0]
    act(game, alice, {"type": "choose_capital", "territory": chosen})
    version = game.version
    overdue(game, clock)

    sweep(game)

    assert set(timed_out_seats(game, version)) == {seat_of(game, bob), seat_of(game, charlie)}
    state = load_state(game)
    assert state.phase == "reinforce"
    assert state.players[seat_of(game, alice)].capital == chosen
    for user in (bob, charlie):
        capital = state.players[seat_of(game, user)].capital
        assert state.owner[capital] == seat_of(game, user)


@pytest.mark.usefixtures("neutral_by_hand")  # the rulebooks' way, chosen
def test_it_places_the_neutrals_armies_when_the_opponent_misses_it(alice, bob, clock):
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover = state.current
    act(game, user_at(game, mover), {"type": "place", "placements": {
        state.territories_of(mover)[0]: state.reinforcements}})
    state = load_state(game)
    assert state.phase == "neutral_place"
    share, version = state.reinforcements, game.version
    overdue(game, clock)

    sweep(game)

    happened = events_since(game, version)
    assert happened[0] == ("turn_timed_out", {"seat": 1 - mover, "missed": 1})
    assert happened[1][0] == "armies_placed" and happened[1][1]["seat"] == "neutral"
    assert sum(happened[1][1]["placements"].values()) == share
    state = load_state(game)
    assert state.phase == "attack" and state.current == mover
    assert game.deadline == clock.now + DAY  # the mover's clock starts again


@pytest.mark.usefixtures("neutral_by_hand")  # the rulebooks' way, chosen
def test_it_leaves_the_neutrals_half_of_a_missed_reinforcement_to_the_opponent(
        alice, bob, clock):
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover, version = state.current, game.version
    assert state.phase == "reinforce"
    overdue(game, clock)

    sweep(game)

    assert [kind for kind, _ in events_since(game, version)] == [
        "turn_timed_out", "armies_placed"]
    state = load_state(game)
    assert (state.phase, state.current) == ("neutral_place", 1 - mover)
    assert game.deadline == clock.now + DAY  # the opponent's own clock for the decision
    act(game, user_at(game, 1 - mover), {"type": "place_neutral", "placements": {
        state.territories_of("neutral")[0]: state.reinforcements}})
    state = load_state(game)
    assert (state.phase, state.turn_seat) == ("reinforce", 1 - mover)  # the missed turn ended
    assert state.players[mover].missed_turns == 1


# ---- the last second -------------------------------------------------------------------
def test_it_lets_a_move_at_the_last_second_stand(game, clock):
    clock.set(game.deadline - timedelta(seconds=1))
    play_a_quiet_turn(game)
    version = game.version
    clock.advance(seconds=2)

    assert sweep(game) == nothing_due()
    assert timed_out_seats(game, 0) == []
    assert game.version == version


def test_it_lets_a_move_made_while_the_sweep_runs_win(game, clock, monkeypatch):
    """The move lands after the sweep read the game: the timeout must not apply."""
    overdue(game, clock)
    version, owing = game.version, game.current_seat
    read_owing = game_deadlines.owing_seats

    def owing_seats_then_a_move(seats, state):
        play_a_quiet_turn(Game.objects.get(pk=game.pk))
        return read_owing(seats, state)

    monkeypatch.setattr(game_deadlines, "owing_seats", owing_seats_then_a_move)
    assert sweep(game) == {**nothing_due(), "moved_on": 1}

    assert timed_out_seats(game, version) == []
    assert ("turn_ended", {"seat": owing}) in events_since(game, version)  # the player's


def test_it_refuses_a_timeout_for_a_version_that_moved_on(game, clock):
    stale = game.version
    play_a_quiet_turn(game)

    with pytest.raises(VersionConflict):
        service.submit_timeout(Game.objects.get(pk=game.pk), stale)
    assert timed_out_seats(game, 0) == []


def test_it_lets_one_of_two_racing_sweeps_apply_the_timeout(game, clock):
    overdue(game, clock)
    version = game.version
    service.submit_timeout(Game.objects.get(pk=game.pk), version)  # the other sweep

    with pytest.raises(VersionConflict):
        service.submit_timeout(Game.objects.get(pk=game.pk), version)
    assert len(timed_out_seats(game, 0)) == 1


# ---- drops -----------------------------------------------------------------------------
def test_it_drops_a_player_after_the_allowed_misses_and_tells_everyone(alice, bob, charlie,
                                                                       clock):
    game = started(alice, bob, charlie, placement_batch=50, max_missed_turns=2)
    place_setup(game)
    absent = seat_of(game, charlie)
    for _ in range(20):
        state = load_state(game)
        if state.players[absent].dropped:
            break
        if state.current == absent:
            overdue(game, clock)
            sweep(game)
        else:
            play_a_quiet_turn(game)
    state = load_state(game)

    assert state.players[absent].dropped and state.players[absent].missed_turns == 2
    assert timed_out_seats(game, 0) == [absent, absent]
    assert all(state.owner[t] != absent for t in state.owner)
    assert not state.finished
    mails = send_everything()
    for user in (alice, bob, charlie):
        subjects = [m.subject for m in mails if m.to == [user.email]]
        assert subjects.count("A deadline passed in Moscow 1812") == 2
        assert subjects.count("A player left Moscow 1812") == 1
    dropped = [m for m in mails if m.subject == "A player left Moscow 1812"]
    assert all("Green (charlie) has left the game" in m.body for m in dropped)


def test_it_drops_the_second_to_last_player_and_ends_the_game(alice, bob, clock):
    game = started(alice, bob, neutral=False, placement_batch=50, max_missed_turns=1)
    place_setup(game)
    state = load_state(game)
    absent, present = state.current, 1 - state.current
    overdue(game, clock)

    sweep(game)

    state = load_state(game)
    assert state.players[absent].dropped
    assert state.finished and state.winner == present
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.deadline is None
    assert len(rows(game, kind=Notification.FINISHED)) == 2


# ---- vacations -------------------------------------------------------------------------
def away(user, starts, ends) -> Vacation:
    return Vacation.objects.create(user=user, starts=starts, ends=ends)


def test_it_stretches_the_deadline_of_a_player_on_vacation(game, clock):
    owing = user_at(game, load_state(game).current)
    version, was, mails = game.version, game.deadline, len(rows(game))
    vacation = away(owing, clock.now, game.deadline + timedelta(days=3))
    overdue(game, clock)

    assert sweep(game) == {**nothing_due(), "stretched": 1}

    # The log says why (an event of its own), and nobody is mailed about it.
    assert events_since(game, version) == [("deadline_stretched", {
        "seats": [seat_of(game, owing)], "until": (vacation.ends + DAY).isoformat(),
        "was": was.isoformat()})]
    assert game.version == version + 1
    assert len(rows(game)) == mails
    assert game.deadline == vacation.ends + DAY
    assert sweep(game) == nothing_due()
    clock.set(vacation.ends + timedelta(hours=23))
    assert sweep(game) == nothing_due()
    clock.set(vacation.ends + DAY + timedelta(seconds=1))
    assert sweep(game)["timed_out"] == 1
    assert len(timed_out_seats(game, version)) == 1


def test_it_pulls_a_stretched_deadline_back_when_the_vacation_is_called_off(game, clock):
    from notifications.vacations import cancel
    owing = user_at(game, load_state(game).current)
    vacation = away(owing, clock.now, clock.now + timedelta(days=21))
    overdue(game, clock)
    sweep(game)
    assert game.deadline == vacation.ends + DAY
    clock.set(clock.now + timedelta(hours=5))

    cancel(vacation)

    game.refresh_from_db()
    assert game.deadline == clock.now + DAY
    vacation.refresh_from_db()
    assert vacation.ends == clock.now  # the days taken stay counted


def test_it_pulls_back_only_a_deadline_stretched_for_the_player_back(game, clock):
    from games.moderation import moderate
    from notifications.vacations import cancel
    from tests.people import moderator
    owing = user_at(game, load_state(game).current)
    other = next(user_at(game, s) for s in range(3) if user_at(game, s) != owing)
    owing_away = away(owing, clock.now, clock.now + timedelta(days=21))
    other_away = away(other, clock.now, clock.now + timedelta(days=21))
    overdue(game, clock)
    assert sweep(game)["stretched"] == 1
    version, stretched = game.version, game.deadline
    clock.advance(hours=5)

    cancel(other_away)  # the clock never waited for them: nothing moves, nothing is told
    game.refresh_from_db()
    assert (game.version, game.deadline) == (version, stretched)

    moderate(game, moderator("maud"), "extend_deadline", "exams", until=stretched + DAY)
    cancel(owing_away)  # a moderator's extension stands
    game.refresh_from_db()
    assert game.deadline == stretched + DAY
    assert [kind for kind, _ in events_since(game, version)] == ["deadline_extended"]


def test_it_stretches_the_deadline_on_the_games_clock(alice, bob, clock):
    game = started(alice, bob, clock={"time_zone": "Europe/Prague", "quiet_from": 22,
                                      "quiet_until": 7})
    owing = user_at(game, load_state(game).current)
    back = datetime(2026, 6, 20, 19, 0, tzinfo=UTC)  # 21:00 in Prague: one hour to run
    away(owing, clock.now, back)
    overdue(game, clock)

    sweep(game)

    # 21:00 to 22:00, then 7:00 to 22:00 on the 21st, then 8 hours on the 22nd.
    assert game.deadline == datetime(2026, 6, 22, 15, 0, tzinfo=ZoneInfo("Europe/Prague"))


def test_it_does_not_stretch_for_a_player_who_owes_nothing(game, clock):
    waiting = [user for user in (game.seats.get(seat=s).user for s in range(3))
               if seat_of(game, user) not in seats_to_act(load_state(game))]
    away(waiting[0], clock.now, clock.now + timedelta(days=10))
    overdue(game, clock)

    assert sweep(game)["timed_out"] == 1


def test_it_ignores_a_vacation_that_is_over_or_not_begun(game, clock):
    owing = user_at(game, load_state(game).current)
    away(owing, clock.now - timedelta(days=5), clock.now - timedelta(days=4))
    away(owing, game.deadline + timedelta(days=1), game.deadline + timedelta(days=3))
    overdue(game, clock)

    assert sweep(game)["timed_out"] == 1


# ---- reminders -------------------------------------------------------------------------
def reminders(game) -> list[tuple[str, int]]:
    return [(row.user.username, row.payload["hours"])
            for row in rows(game, kind=Notification.REMINDER)]


def test_it_reminds_the_player_who_owes_12_hours_and_1_hour_before(alice, bob, clock):
    game = started(alice, bob)
    owing = user_at(game, load_state(game).current).username

    clock.set(game.deadline - timedelta(hours=12, seconds=1))
    assert sweep_reminders() == 0
    clock.advance(seconds=2)
    assert sweep_reminders() == 1
    assert sweep_reminders() == 0
    clock.set(game.deadline - timedelta(hours=1))
    assert sweep_reminders() == 1
    clock.advance(minutes=30)
    assert sweep_reminders() == 0

    assert reminders(game) == [(owing, 12), (owing, 1)]


def test_it_sends_only_the_nearest_reminder_when_late(alice, bob, clock):
    game = started(alice, bob)

    clock.set(game.deadline - timedelta(minutes=30))
    sweep_reminders()
    sweep_reminders()

    assert [hours for _, hours in reminders(game)] == [1]


def test_it_reminds_at_the_hours_each_player_chose(alice, bob, clock):
    Preferences.objects.create(user=alice, reminder_hours=[3])
    Preferences.objects.create(user=bob, reminder_hours=[])
    game = started(alice, bob, initial_placement="simultaneous")

    clock.set(game.deadline - timedelta(hours=12))
    sweep_reminders()
    assert reminders(game) == []
    clock.set(game.deadline - timedelta(hours=3))
    sweep_reminders()
    clock.set(game.deadline - timedelta(hours=1))
    sweep_reminders()

    assert reminders(game) == [("alice", 3)]


def test_it_reminds_only_the_players_still_owing(alice, bob, charlie, clock):
    game = started(alice, bob, charlie, initial_placement="simultaneous")
    state = load_state(game)
    act(game, bob, {"type": "place", "placements": {
        state.territories_of(seat_of(game, bob))[0]:
            state.players[seat_of(game, bob)].setup_armies}})

    clock.set(game.deadline - timedelta(hours=1))
    sweep_reminders()

    assert sorted(reminders(game)) == [("alice", 1), ("charlie", 1)]


def test_it_skips_reminders_as_long_as_the_whole_deadline(alice, bob, clock):
    game = started(alice, bob, deadline_seconds=3600)

    clock.set(game.deadline - timedelta(minutes=10))

    assert sweep_reminders() == 0


def test_it_reminds_again_for_the_next_decision(game, clock):
    first = load_state(game).current
    clock.set(game.deadline - timedelta(hours=1))
    sweep_reminders()
    play_a_quiet_turn(game)
    game.refresh_from_db()

    clock.set(game.deadline - timedelta(hours=1))
    sweep_reminders()

    owing = [username for username, _ in reminders(game)]
    assert owing == [user_at(game, first).username,
                     user_at(game, load_state(game).current).username]


def test_it_mails_the_reminder_with_the_deadline(alice, bob, clock):
    game = started(alice, bob)
    owing = user_at(game, load_state(game).current)
    clock.set(game.deadline - timedelta(minutes=50))

    assert tasks.sweep_reminders() == 1

    assert len(mail.outbox) == 1
    reminder = mail.outbox[0]
    assert reminder.to == [owing.email]
    deadline = game.deadline.strftime("%a %d %b %H:%M")
    assert reminder.subject == f"Reminder: your move in Moscow 1812 is due {deadline}"
    assert "Your move is still waiting." in reminder.body
    assert tasks.sweep_reminders() == 0 and len(mail.outbox) == 1


# ---- clocks that rest ------------------------------------------------------------------
def test_it_sets_deadlines_on_the_games_resting_clock(alice, bob, clock):
    prague = ZoneInfo("Europe/Prague")
    clock.set(datetime(2026, 6, 12, 21, 0, tzinfo=prague))  # a Friday evening
    game = started(alice, bob, deadline_seconds=2 * 3600, clock={
        "time_zone": "Europe/Prague", "quiet_from": 22, "quiet_until": 7, "weekends": True})

    assert game.deadline == datetime(2026, 6, 15, 8, 0, tzinfo=prague)
    clock.set(datetime(2026, 6, 13, 12, 0, tzinfo=prague))
    assert sweep(game) == nothing_due()
    clock.set(datetime(2026, 6, 15, 8, 0, 1, tzinfo=prague))
    assert sweep(game)["timed_out"] == 1


def test_it_sweeps_the_other_games_when_one_state_cannot_be_read(alice, bob, charlie, clock,
                                                                 monkeypatch, caplog):
    broken, fine = started(alice, bob), started(bob, charlie)
    overdue(broken, clock)
    clock.advance(seconds=1)
    load_state = game_deadlines.load_state

    def corrupt(games):
        raise KeyError("a corrupt event")

    def corrupt_for_one_game(game, *args):
        if game.pk == broken.pk:
            raise KeyError("a corrupt event")
        return load_state(game, *args)

    monkeypatch.setattr(game_deadlines, "load_states", corrupt)
    monkeypatch.setattr(game_deadlines, "load_state", corrupt_for_one_game)

    assert game_deadlines.sweep_deadlines() == {**nothing_due(), "timed_out": 1, "failed": 1}
    assert timed_out_seats(fine, 0) and not timed_out_seats(broken, 0)
    assert f"the state of game {broken.pk} cannot be read" in caplog.text
