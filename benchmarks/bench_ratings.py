"""Ratings figures, on PostgreSQL: rebuilding every rating from 10,000 finished games'
logs, and what recording a game's end adds to the command that ends it.
CONQUEST_BENCH_RATED_GAMES sets the number of games (10,000)."""

from __future__ import annotations

import os
import random
import statistics
import time

from benchmarks import benchdb

GAMES = int(os.environ.get("CONQUEST_BENCH_RATED_GAMES", "10000"))
PLAYERS = 500
BATTLES_PER_GAME = 20


def make_finished_games(count: int, users) -> None:
    """`count` finished games of 2 to 6 human seats, written in bulk, each with a log of
    the events ratings read: two turns each played, battles, departures in some order, and
    the end."""
    from datetime import timedelta

    from django.utils import timezone

    import engine as rules
    from games.models import Event, Game, Seat

    rnd = random.Random(14)
    start = timezone.now() - timedelta(days=365)
    made = []
    for i in range(count):
        size = rnd.randint(2, 6)
        made.append(Game(name=f"rated {i}", creator=users[0], players=size,
                         rules=rules.Rules().to_dict(), status=Game.FINISHED,
                         started_at=start, finished_at=start + timedelta(minutes=i)))
    games = Game.objects.bulk_create(made, batch_size=2000)
    seats, events = [], []
    for game in games:
        seated = rnd.sample(users, game.players)
        seats += [Seat(game=game, seat=s, user=u) for s, u in enumerate(seated)]
        order = list(range(game.players))
        rnd.shuffle(order)
        seq = 0
        for turn in range(2 * game.players):  # two turns each, played by their players
            seat = turn % game.players
            events.append(Event(game=game, seq=seq + 1, type="turn_started",
                                data={"seat": seat, "turn": turn + 1}))
            events.append(Event(game=game, seq=seq + 2, type="turn_ended", data={"seat": seat},
                                actor=seat, user_id=seated[seat].pk))
            seq += 2
        for _ in range(BATTLES_PER_GAME):
            seq += 1
            a, d = rnd.sample(range(game.players), 2)
            dice_a, dice_d = rnd.randint(1, 3), rnd.randint(1, 2)
            rolled_a = [rnd.randint(1, 6) for _ in range(dice_a)]
            rolled_d = [rnd.randint(1, 6) for _ in range(dice_d)]
            lost_a, lost_d = rules.turn.losses(rolled_a, rolled_d)
            events.append(Event(game=game, seq=seq, type="battle", data={
                "seat": a, "defender": d, "from": "alaska", "to": "kamchatka",
                "attacker_dice": rolled_a, "defender_dice": rolled_d,
                "attacker_losses": lost_a, "defender_losses": lost_d, "conquered": False}))
        for seat in order[1:]:
            seq += 1
            events.append(Event(game=game, seq=seq, type="player_eliminated",
                                data={"seat": seat, "by": order[0]}))
        seq += 1
        events.append(Event(game=game, seq=seq, type="game_finished",
                            data={"winner": order[0], "reason": "domination"}))
    Seat.objects.bulk_create(seats, batch_size=5000)
    Event.objects.bulk_create(events, batch_size=5000)


def ending_times(users, games: int = 40) -> list[float]:
    """Seconds the resignation that ends a two-player game takes, one per game."""
    from django.db import transaction

    from games import service
    from lobby import open_games

    times = []
    for _ in range(games):
        game = open_games.create_game(users[0], "ending", 2, {})
        open_games.join_game(game, users[1])
        started = time.perf_counter()
        with transaction.atomic():  # so that the on-commit queueing is counted too
            service.submit(service.player(users[1]), game, {"type": "resign"})
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    benchdb.setup()
    from django.contrib.auth import get_user_model

    from ratings import recording
    from ratings.models import PlayerResult, Rating

    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"rated{i}") for i in range(PLAYERS)])
    started = time.perf_counter()
    make_finished_games(GAMES, users)
    print(f"-- wrote {GAMES} finished games in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    recording.rebuild()
    took = time.perf_counter() - started
    print(f"-- rebuild of every rating from {GAMES} finished games: {took:.2f} s "
          f"({GAMES / took:.0f} games/s; {PlayerResult.objects.count()} player results, "
          f"{Rating.objects.count()} ratings)")

    # What the game-ending command pays for ratings: only the queueing on commit.
    from lib.reactions import rewired, wired
    from ratings.reactions import queue_recording

    with_hook = ending_times(users)
    declared = wired("REACTIONS")
    with rewired(REACTIONS={**declared, "after_commit": [
            react for react in declared["after_commit"] if react is not queue_recording]}):
        without = ending_times(users)
    print(f"-- the command that ends a game, median of {len(with_hook)}: "
          f"{statistics.median(with_hook) * 1000:.2f} ms with ratings queued, "
          f"{statistics.median(without) * 1000:.2f} ms without")
