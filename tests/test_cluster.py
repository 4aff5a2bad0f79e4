"""The topology of deploy/Procfile as separate processes on PostgreSQL and Redis: two web
instances, two sets of workers and one beat. Twenty games are played at once through both
web instances for most of a minute while a set of workers is killed (SIGKILL) and started
again; afterwards every accepted command's events are stored once, every game replays and
verifies, every timeout fell due, every mail is delivered or accounted for, and no answer
was a 5xx but the documented 503."""

from __future__ import annotations

import os
import random
import shutil
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count
from django.utils import timezone

import bots
import engine as rules
from accounts.models import Account
from accounts.tokens import issue
from engine.moves import clock_key
from games.management.commands.verify_game import check_game
from games.models import Event, Game
from games.store.log import stored_events_with_times
from notifications.models import Notification
from tests.cluster import Client, Topology
from tests.notifications.real_parts import RedisServer, smtp_server, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAMES = 20
PLAYERS = 8
DEADLINE_SECONDS = 10  # the shortest a game may have
DRIVE_SECONDS = 24
KILL_AT, RESTART_AT = 7, 9  # seconds into the drive


@pytest.fixture
def cluster(tmp_path):
    if connection.vendor != "postgresql" or not os.environ.get(
            "CELERY_BROKER_URL", "").startswith("redis://"):
        pytest.skip("the cluster runs on the PostgreSQL + Redis pass")
    if not shutil.which("redis-server") and not os.path.exists("/usr/bin/redis-server"):
        pytest.skip("redis-server is not installed")
    # A Redis of its own: the suite's other tests publish to the shared one, and these
    # workers must take no task of theirs.
    redis = RedisServer()
    redis.start()
    try:
        with smtp_server() as (mailbox, smtp_port):
            topology = Topology(tmp_path, redis, smtp_port)
            try:
                yield topology, mailbox
            finally:
                topology.stop()
    finally:
        redis.stop()


def sign_up(client: Client, name: str) -> str:
    status, answer = client.call("POST", "/api/v1/accounts/", {
        "username": name, "email": f"{name}@example.com", "password": "correct horse battery"})
    assert status == 201, (status, answer)
    return answer["token"]


class Table:
    """One game and how its seats are played: by the test through the API (`driven`), by
    nobody (an absent player whose every decision times out) or by a computer player."""

    def __init__(self, client: Client, number: int, tokens: list[str]):
        self.client, self.number = client, number
        self.kind = ("absent", "bot", "driven", "driven")[number % 4]
        creator = tokens[number % PLAYERS]
        body = {"name": f"cluster {number}", "players": 2,
                "deadline_seconds": DEADLINE_SECONDS}
        if self.kind == "bot":
            body["bots"] = ["easy"]
        status, game = client.call("POST", "/api/v1/games/", body, creator)
        assert status == 201, (status, game)
        self.id = game["id"]
        self.tokens = {0: creator}
        if self.kind != "bot":
            joiner = tokens[(number + 1 + number // PLAYERS) % PLAYERS]
            status, game = client.call("POST", f"/api/v1/games/{self.id}/join/", None, joiner)
            assert status == 200, (status, game)
            self.tokens[1] = joiner
        self.driven = {0: creator} if self.kind != "driven" else dict(self.tokens)
        self.accepted: list[tuple[int, str]] = []  # (seq, type) of every 201's events
        self.races = Counter()  # version -> commands accepted at it (must stay <= 1)

    def step(self, rnd: random.Random) -> bool:
        """Play one command if a driven seat is due; False when the game is over."""
        for seat, token in self.driven.items():
            status, view = self.client.call("GET", f"/api/v1/games/{self.id}/", None, token)
            if status != 200:
                continue
            if view["status"] != "active":
                return view["status"] in ("open", "paused")
            if seat != view["current_seat"] and view["current_seat"] is not None:
                continue
            if not view["you"]["may"]["commands"]:
                continue
            command = bots.choose(view, view["rules"], "easy", rnd)
            command["expected_version"] = view["version"]
            # Sometimes the same command twice at once, through both web instances: one
            # wins, the other is refused (409) and changes nothing.
            copies = 2 if self.kind == "driven" and rnd.random() < 0.2 else 1
            path = f"/api/v1/games/{self.id}/commands/"
            ports = self.client.ports if copies == 2 else [None]
            with ThreadPoolExecutor(copies) as pool:
                answers = list(pool.map(
                    lambda port, c=command, t=token, p=path: self.client.call("POST", p, c, t, port),
                    ports))
            for status, answer in answers:
                if status == 201:
                    self.races[view["version"]] += 1
                    self.accepted.extend((e["seq"], e["type"]) for e in answer["events"])
        return True


def drive(table: Table, until: float, seed: int):
    rnd = random.Random(seed)
    while time.monotonic() < until and table.step(rnd):
        time.sleep(0.1)


def decisions_timed_out_early(game: Game) -> list[str]:
    """Each turn_timed_out against the start of the decision it ended: one applied twice,
    or before its deadline, would end a decision younger than the deadline."""
    early, state, began, key = [], None, None, None
    for event, stored_at in stored_events_with_times(game):
        if event.type == "turn_timed_out":
            waited = (stored_at - began).total_seconds()
            if waited < DEADLINE_SECONDS - 1:
                early.append(f"game {game.pk} event {event.seq}: after {waited:.1f} s")
        state = rules.evolve(state, event)
        if clock_key(state) != key:
            key, began = clock_key(state), stored_at
    return early


def row_story(message_id: str) -> dict:
    """What the outbox says of a mail the sink received more than once."""
    pk = int(message_id.split("-", 1)[1].split("@", 1)[0])
    row = Notification.objects.filter(pk=pk).first()
    return {"message_id": message_id, **({} if row is None else {
        f: getattr(row, f) for f in ("kind", "attempts", "claimed_by", "claimed_at", "sent_at",
                                     "maybe_sent", "skipped", "last_error")})}


def test_the_cluster_keeps_every_game_whole_through_a_killed_worker(cluster):
    topology, mailbox = cluster
    begun = time.monotonic()
    topology.start_all()
    client = Client(topology.web_ports)
    assert wait_until(lambda: all(client.call("GET", "/healthz", port=p)[0] == 200
                                  for p in topology.web_ports), 60), topology.logs()
    print(f"serving after {time.monotonic() - begun:.0f} s")

    # Two sign up through the API, one through each instance; the others are made here (a
    # sign-up hashes a password, seconds of the cluster's start on a busy machine).
    with ThreadPoolExecutor(2) as pool:
        tokens = list(pool.map(lambda n: sign_up(client, f"player{n}"), range(2)))
    for n in range(2, PLAYERS):
        user = get_user_model().objects.create_user(f"player{n}", f"player{n}@example.com")
        Account.objects.create(user=user)
        tokens.append(issue(user))
    print(f"signed up after {time.monotonic() - begun:.0f} s")
    # Their addresses confirmed, so that the games' mails go out (not only the sign-ups').
    Account.objects.update(email_confirmed=True)
    with ThreadPoolExecutor(8) as pool:
        tables = list(pool.map(lambda n: Table(client, n, tokens), range(GAMES)))

    started = time.monotonic()
    print(f"set up after {started - begun:.0f} s")
    until = started + DRIVE_SECONDS
    with ThreadPoolExecutor(GAMES) as pool:
        drivers = [pool.submit(drive, table, until, n) for n, table in enumerate(tables)]
        time.sleep(KILL_AT)
        # The next SMTP session that had a mail accepted hangs at its end (QUIT): its worker
        # sent mails it has not recorded yet (a batch is stamped once its session closes),
        # the moment a kill hurts most. If that worker is in the set killed, the kill finds
        # it there; if not, it stays stuck to the end, as good as dead to its mails.
        mailbox.stall_quit_after = lambda message: True
        assert wait_until(mailbox.stalled.is_set, 10)
        killed = topology.kill("worker-deadlines-1", "worker-mail-1")
        killed_at = timezone.now()
        time.sleep(RESTART_AT - KILL_AT)
        topology.start("worker-deadlines-1")
        topology.start("worker-mail-1")
        for driver in drivers:
            driver.result()
    assert all(len(pids) > 1 for pids in killed.values()), killed  # each with its pool
    for name in killed:  # started again, and took up its queues (slow on a busy machine)
        assert wait_until(lambda n=name: topology.logs_of(n).count(" ready.") == 2, 60), (
            topology.logs_of(name))

    print(f"drove for {time.monotonic() - started:.0f} s")
    # Whatever was owed when the play stopped settles: deadlines then due, mail then queued.
    # (Computer players and timeouts play on meanwhile.)
    cutoff = timezone.now()

    def settled():
        overdue = Game.objects.filter(status=Game.ACTIVE, deadline__lt=cutoff)
        unsent = Notification.objects.filter(sent_at__isnull=True, digest=False,
                                             created_at__lt=cutoff)
        return not overdue.exists() and not unsent.exists()
    assert wait_until(settled, 30, every=0.5), topology.logs()
    print(f"settled in {time.monotonic() - until:.0f} s")
    topology.freeze()  # what is checked below no longer moves

    games = list(Game.objects.filter(pk__in=[t.id for t in tables]))
    assert len(games) == GAMES
    # Every accepted command's events are stored, as the answer gave them.
    for table in tables:
        stored = dict(Event.objects.filter(game_id=table.id).values_list("seq", "type"))
        assert all(stored.get(seq) == kind for seq, kind in table.accepted), table.id
        assert all(n <= 1 for n in table.races.values()), table.races
    assert sum(len(t.accepted) for t in tables) > 100
    # No sequence number twice, none missing; each game replays to its row and verifies.
    assert not Event.objects.values("game_id", "seq").annotate(n=Count("id")).filter(n__gt=1)
    for game in games:
        assert check_game(game) == [], game.pk
        record = {"id": game.game_id, "server_seed": game.seed, "seed": game.dice_seed,
                  "seed_hash": game.seed_hash, "contributions": game.contributions or [],
                  "events": [e for e, _ in stored_events_with_times(game)]}
        result = rules.verify(record)
        assert result.ok, (game.pk, result.problems)
    # Every timeout fell due once: the absent players' games saw several each.
    absent = [t.id for t in tables if t.kind == "absent"]
    assert Event.objects.filter(game_id__in=absent, type="turn_timed_out").count() >= \
        len(absent) * 2
    for game in games:
        assert decisions_timed_out_early(game) == []
    # The computer players moved before and after the kill; timeouts went on after it.
    bot_games = [t.id for t in tables if t.kind == "bot"]
    bots_moved = Event.objects.filter(game_id__in=bot_games, actor=1)
    assert bots_moved.filter(created_at__lt=killed_at).exists()
    assert bots_moved.filter(created_at__gt=killed_at).exists()
    assert Event.objects.filter(type="turn_timed_out", created_at__gt=killed_at).exists()
    # Every mail was sent once, skipped, or is "sent or unknown" (a killed worker may have
    # sent it); none is lost or doubled.
    rows = Notification.objects.filter(digest=False, created_at__lt=cutoff)
    assert rows.filter(sent_at__isnull=False).count() > GAMES
    assert not rows.filter(sent_at__isnull=True)
    print(f"mails: {len(mailbox.messages)} received, "
          f"{rows.filter(maybe_sent=True).count()} sent or unknown")
    # The stalled session's mails went out unrecorded: taken over, they are sent or unknown.
    assert rows.filter(maybe_sent=True).exists()
    message_ids = [m["Message-ID"].strip() for m in mailbox.messages]
    doubled = [pk for pk, n in Counter(message_ids).items() if n > 1]
    assert not doubled, [row_story(message_id) for message_id in doubled]
    sent = set(rows.filter(sent_at__isnull=False, maybe_sent=False).exclude(message_id="")
               .values_list("message_id", flat=True))
    assert sent <= set(message_ids)
    # No server error but the documented 503s (a JSON body saying "unavailable").
    assert client.server_errors() == []
