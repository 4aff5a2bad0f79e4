"""The deadline is a projection of the log: after every step of play, vacations, their early
end, a moderator's extension, a pause and the sweep's timeouts, replaying each game's events
gives the deadline its row shows; and the record of such a game still verifies."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from engine import verify
from engine.board import NEUTRAL
from games import deadlines, seat_views
from games.clock import replayed_deadline
from games.models import Event, Game
from games.moderation import moderate
from games.store.log import stored_events_with_times
from games.store.seats import read_seats
from games.store.states import load_state
from notifications.vacations import cancel, declare
from tests.notifications.support import act, place_setup, started, user_at
from tests.people import moderator

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_record.py"


def replays_every_deadline() -> int:
    """Replay every started game's log; its deadline must be the row's. How many games."""
    games = list(Game.objects.exclude(version=0))
    for game in games:
        assert replayed_deadline(game, stored_events_with_times(game)) == game.deadline, (
            f"game {game.pk} at version {game.version}")
    return len(games)


def last_event(game) -> Event:
    return Event.objects.filter(game=game).order_by("-seq").first()


def owing(game):
    return user_at(game, load_state(game).current)


def quiet_turn(game, clock, tick=True) -> None:
    """The player to move places everything on one territory and ends the turn; with
    `tick` a second passes between the two commits, as it does for people."""
    state = load_state(game)
    user = user_at(game, state.current)
    act(game, user, {"type": "place", "placements": {
        state.territories_of(state.current)[0]: state.reinforcements}})
    if tick:
        clock.advance(seconds=1)
    act(game, user, {"type": "end_turn"})


def sweep(game, clock) -> dict:
    game.refresh_from_db()
    clock.set(game.deadline + timedelta(seconds=1))
    counts = deadlines.sweep_deadlines()
    game.refresh_from_db()
    return counts


def test_replaying_the_log_gives_the_deadline_at_every_step(alice, bob, charlie, clock):
    maud = moderator("maud")
    game = started(alice, bob, charlie, placement_batch=50)
    place_setup(game)
    game.refresh_from_db()
    assert replays_every_deadline() == 1
    steps = []

    def step(what) -> None:
        game.refresh_from_db()
        steps.append((what, last_event(game).type, game.deadline))
        assert replays_every_deadline() == 1, what

    clock.advance(hours=2)
    quiet_turn(game, clock)
    step("an ordinary turn")
    # The player to move goes away for five days; the sweep finds them away.
    away = owing(game)
    vacation = declare(away, clock.now, clock.now + timedelta(days=5))
    assert sweep(game, clock)["stretched"] == 1
    step("the sweep stretches the deadline")
    assert game.deadline == vacation.ends + timedelta(days=1)
    # Back after two days: the vacation ends early and the deadline is a normal one again.
    clock.advance(days=2)
    cancel(vacation)
    step("the vacation ends early")
    assert game.deadline == clock.now + timedelta(days=1)
    assert last_event(game).data["seat"] == load_state(game).current
    clock.advance(hours=1)
    moderate(game, maud, "extend_deadline", "a long weekend",
             until=game.deadline + timedelta(days=2))
    step("a moderator's extension")
    clock.advance(hours=1)
    moderate(game, maud, "pause", "a dispute")
    step("a pause")
    assert game.deadline is None
    clock.advance(hours=1)
    moderate(game, maud, "resume", "settled")
    step("the game resumed")
    clock.advance(hours=1)
    quiet_turn(game, clock, tick=False)  # two commits at one moment, as tests freeze time
    step("an ordinary turn")
    assert sweep(game, clock)["timed_out"] == 1
    step("the sweep times a turn out")
    clock.advance(minutes=5)
    quiet_turn(game, clock)
    step("an ordinary turn")

    assert [kind for _, kind, _ in steps] == [
        "turn_started", "deadline_stretched", "deadline_pulled_back", "deadline_extended",
        "game_paused", "game_resumed", "turn_started", "turn_started", "turn_started"]
    # Each step moved the deadline (a replay that ignored any of them would disagree).
    deadlines_seen = [deadline for _, _, deadline in steps]
    assert all(a != b for a, b in zip(deadlines_seen, deadlines_seen[1:], strict=False))


def test_a_decision_that_closes_and_opens_in_one_commit_keeps_its_deadline(alice, bob, clock):
    # Two players: placing the reinforcements hands the neutral's half to the rules
    # (`auto`), and the same turn goes on: its deadline must not start again.
    game = started(alice, bob, setup="random", neutral_reinforcement="auto")
    game.refresh_from_db()
    first, version = game.deadline, game.version
    clock.advance(hours=3)
    state = load_state(game)
    act(game, user_at(game, state.current), {"type": "place", "placements": {
        state.territories_of(state.current)[0]: state.reinforcements}})
    game.refresh_from_db()

    placed = list(Event.objects.filter(game=game, seq__gt=version).values_list("type", "data"))
    assert [(kind, data["seat"]) for kind, data in placed] == [
        ("armies_placed", state.current), ("armies_placed", NEUTRAL)]
    assert load_state(game).phase == "attack"
    assert game.deadline == first
    assert replays_every_deadline() == 1


def test_the_record_of_a_game_with_deadline_changes_verifies(alice, bob, charlie, clock,
                                                            tmp_path):
    game = started(alice, bob, charlie, placement_batch=50)
    place_setup(game)
    vacation = declare(owing(game), clock.now, clock.now + timedelta(days=3))
    sweep(game, clock)
    clock.advance(hours=5)
    cancel(vacation)
    for seat in (1, 2):
        act(game, user_at(game, seat), {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.deadline is None
    assert replays_every_deadline() == 1

    record = json.loads(json.dumps(seat_views.record(game, read_seats(game), 0)))

    kinds = [event["type"] for event in record["events"]]
    assert "deadline_stretched" in kinds and "deadline_pulled_back" in kinds
    checked = verify(record)
    assert checked.ok, checked.problems
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = subprocess.run([sys.executable, "-S", "-I", str(SCRIPT), str(path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
