"""Turn mails to render, for bench_notifications: games some 300 events into play, written
in bulk, and a "your move" row for each turn they reached; and a local SMTP sink."""

from __future__ import annotations

import random
import socket
import threading
import time


def games_with_turn_mails(users, games: int = 60, events_each: int = 300) -> list[int]:
    """`games` two-player games played `events_each` events in by the engine's bots, with a
    turn-mail row for each turn_started event (as the outbox would have written); their
    notification ids."""
    from django.utils import timezone

    import engine as rules
    from engine.moves import seats_to_act
    from games.models import Event, Game, Seat
    from notifications.models import Notification
    from tests.engine.players import bot_command

    now = timezone.now()
    made = Game.objects.bulk_create([
        Game(name=f"mail bench {i}", creator=users[0], players=2, rules=rules.Rules().to_dict(),
             deadline_seconds=86400, status=Game.ACTIVE, started_at=now)
        for i in range(games)])
    seats, events, rows = [], [], []
    for game in made:
        seats += [Seat(game=game, seat=0, user=users[0]), Seat(game=game, seat=1, user=users[1])]
        dice, rnd = rules.FairDice(game.seed, str(game.pk)), random.Random(game.pk)
        log = rules.decide(None, rules.StartGame(str(game.pk), 2, rules.Rules()), dice)
        state = rules.replay(log)
        while len(log) < events_each and not state.finished:
            seat = rnd.choice(seats_to_act(state))
            command = rules.parse_command(bot_command(state, seat, rnd, 0.7), seat)
            for event in rules.decide(state, command, dice):
                state = rules.evolve(state, event)
                log.append(event)
        events += [Event(game=game, seq=e.seq, type=e.type, data=e.data, actor=e.actor)
                   for e in log]
        for e in log:
            if e.type == "turn_started":
                rows.append(Notification(
                    user=users[e.data["seat"]], game=game, kind=Notification.TURN,
                    key=f"turn:{game.pk}:{e.seq}", event_seq=e.seq,
                    payload={"seat": e.data["seat"]}, sent_at=now))
        game.version, game.phase, game.current_seat, game.turn = (
            state.version, state.phase, state.current, state.turn)
        game.deadline = now + timezone.timedelta(days=1)
    Seat.objects.bulk_create(seats)
    Event.objects.bulk_create(events, batch_size=5000)
    Game.objects.bulk_update(made, ["version", "phase", "current_seat", "turn", "deadline"])
    Notification.objects.bulk_create(rows)
    return list(Notification.objects.filter(
        kind=Notification.TURN, game__in=made).values_list("pk", flat=True))


class SmtpSink:
    """An SMTP server on loopback (aiosmtpd) that counts what it is given."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        with self.lock:
            self.count += 1
        return "250 OK"

    def __enter__(self):
        from aiosmtpd.controller import Controller

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def __exit__(self, *exc):
        self.controller.stop()


def wait_for(check, seconds: float) -> bool:
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if check():
            return True
        time.sleep(0.05)
    return check()
