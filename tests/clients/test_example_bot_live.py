"""The reference client's example bot (clients/python/) against a live service: gunicorn
serving the site as make run does (its ASGI worker, the streams included) and a real Celery worker playing the computer player, on the test's
database; on the PostgreSQL + Redis pass with a Redis of its own, else the embedded broker.

The bot runs as its own process on the standard library alone (`python -S`: no site
packages), signs in with its bot account's token, follows its user stream (or polls where
the service has none yet) and plays a whole game to the end: against a computer player, and
two of them against each other at a table that allows bots."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from games.management.commands.verify_game import check_game
from games.models import Event, Game
from tests.notifications.real_parts import (
    ROOT,
    Celery,
    RedisServer,
    publishing_to,
    wait_until,
)
from tests.ports import free_port

pytestmark = pytest.mark.django_db(transaction=True)
CLIENT = ROOT / "clients" / "python"
# A whole game, kept short: every army placed at once, and at most five rounds (then the
# player holding most territories wins: docs/players/rules.md).
RULES = {"placement_batch": 100, "round_limit": 5}


def call(port: int, method: str, path: str, body=None, token=None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Token {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


@pytest.fixture
def broker():
    """A Redis of the test's own on the server pass (the suite's other tests publish to
    the shared one), else the embedded broker."""
    if connection.vendor == "postgresql" and os.environ.get(
            "CELERY_BROKER_URL", "").startswith("redis://"):
        if not shutil.which("redis-server") and not os.path.exists("/usr/bin/redis-server"):
            pytest.skip("redis-server is not installed")
        server = RedisServer()
        server.start()
        try:
            with publishing_to(server.url):
                yield server.url
        finally:
            server.stop()
    else:
        yield "filesystem://"


@pytest.fixture
def service(broker, tmp_path):
    """gunicorn and a Celery worker on the test database, sharing the worker's var/ (the
    embedded broker's folder); the port the site answers on."""
    celery = Celery(broker, free_port(), CONQUEST_BOT_DELAY_SECONDS=0,
                    CONQUEST_THROTTLE_SIGNUP_IP="1000/hour",
                    CONQUEST_THROTTLE_CREATE_GAME_USER="1000/hour",
                    # Two bots play whole games in seconds, from one address.
                    CONQUEST_THROTTLE_COMMAND_USER="100000/minute",
                    CONQUEST_THROTTLE_COMMAND_IP="100000/minute")
    port = free_port()
    log = open(tmp_path / "gunicorn.log", "ab")
    web = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "config.asgi:application", "-k", "asgi",
         "-c", "python:config.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
         "--no-control-socket"],
        cwd=ROOT, env={**celery.env, "WEB_CONCURRENCY": "2"}, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True)
    try:
        celery.start_worker()
        up = wait_until(lambda: _answers(port), 60)
        assert up, (tmp_path / "gunicorn.log").read_text(errors="replace")
        yield port, celery
    finally:
        if web.poll() is None:
            os.killpg(web.pid, signal.SIGTERM)
            try:
                web.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(web.pid, signal.SIGKILL)
                web.wait(5)
        log.close()
        celery.stop()


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def test_the_example_bot_plays_a_whole_game_against_a_computer_player(service, tmp_path):
    port, celery = service
    status, owner = call(port, "POST", "/api/v1/accounts/", {
        "username": "ada", "email": "ada@example.com", "password": "ada-long-secret-1"})
    assert status == 201, owner
    status, robo = call(port, "POST", "/api/v1/accounts/", {
        "username": "robo", "email": "robo@example.com", "password": "robo-long-secret-1"})
    assert status == 201, robo
    status, made = call(port, "POST", "/api/v1/account/bot/",
                        {"owner": "ada", "owner_token": owner["token"]}, robo["token"])
    assert status == 200 and made["owner"] == "ada", made
    # Ada makes the table; her bot account and a computer player take its two seats...
    status, view = call(port, "POST", "/api/v1/games/", {
        "name": "Robo against the machine", "players": 3, "rules": RULES,
        "bots": ["easy"]}, owner["token"])
    assert status == 201, view
    game_id = view["id"]
    status, view = call(port, "POST", f"/api/v1/games/{game_id}/bots/",
                        {"account": "robo"}, owner["token"])
    assert status == 200 and view["status"] == "active", view
    assert [p.get("bot") for p in view["players"]] == [None, "easy", "account"]
    # ... and she walks away: her seat goes neutral, the bot plays the computer to the end.
    status, _ = call(port, "POST", f"/api/v1/games/{game_id}/commands/", {"type": "resign"},
                     owner["token"])
    assert status == 201

    bot_log = tmp_path / "bot.log"
    with open(bot_log, "wb") as out:
        bot = subprocess.run(
            [sys.executable, "-S", "-E", "-s", str(CLIENT / "example_bot.py"),
             "--url", f"http://127.0.0.1:{port}", "--token", robo["token"],
             "--game", str(game_id), "--until-over", "--poll", "0.5", "--seed", "7"],
            cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, timeout=600)
    printed = bot_log.read_text(errors="replace")
    assert bot.returncode == 0, printed + celery.log("worker")[-3000:]

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED, printed
    assert f"game {game_id}: finished" in printed
    assert "polling" not in printed  # it followed its user stream, served as make run does
    # It played through the API as its own seat (commands signed by its account), and the
    # log of the whole game replays and checks out.
    status, profile = call(port, "GET", "/api/v1/players/robo/")
    assert profile["bot"] is True and profile["owner"] == "ada"
    seat = next(p["seat"] for p in view["players"] if p["username"] == "robo")
    assert Event.objects.filter(game=game, actor=seat, user_id=robo["id"]).count() > 3
    assert Event.objects.filter(game=game, actor=1).exists()  # the computer player moved
    assert check_game(game) == []


def sign_up_bot(port: int, name: str) -> str:
    status, made = call(port, "POST", "/api/v1/accounts/", {
        "username": name, "email": f"{name}@example.com", "password": f"{name}-long-secret-1"})
    assert status == 201, made
    status, bot = call(port, "POST", "/api/v1/account/bot/", {}, made["token"])
    assert status == 200 and bot["owner"] == name, bot
    return made["token"]


def test_two_example_bots_find_a_game_that_allows_bots_and_play_it_out(service, tmp_path):
    port, celery = service
    first, second = sign_up_bot(port, "robo"), sign_up_bot(port, "marvin")
    # One bot account opens a table for bots; the other finds it in the list and joins.
    status, view = call(port, "POST", "/api/v1/games/", {
        "name": "Bots only", "players": 2, "rules": RULES, "bots_allowed": True}, first)
    assert status == 201, view
    status, found = call(port, "GET", "/api/v1/games/?status=open&bots_allowed=yes",
                         token=second)
    assert [g["id"] for g in found] == [view["id"]]
    status, view = call(port, "POST", f"/api/v1/games/{view['id']}/join/", {}, second)
    assert status == 200 and view["status"] == "active", view
    assert [p["bot"] for p in view["players"]] == ["account", "account"]

    logs = [tmp_path / "robo.log", tmp_path / "marvin.log"]
    outs = [open(log, "wb") for log in logs]
    bots = [subprocess.Popen(
        [sys.executable, "-S", "-E", "-s", str(CLIENT / "example_bot.py"),
         "--url", f"http://127.0.0.1:{port}", "--token", token, "--game", str(view["id"]),
         "--until-over", "--poll", "0.5", "--seed", str(n)],
        cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
        for n, (token, out) in enumerate(zip((first, second), outs, strict=True))]
    try:
        codes = [bot.wait(600) for bot in bots]
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        for out in outs:
            out.close()
    printed = "\n".join(log.read_text(errors="replace") for log in logs)
    assert codes == [0, 0], printed

    game = Game.objects.get(pk=view["id"])
    assert game.status == Game.FINISHED, printed
    assert printed.count(f"game {game.pk}: finished") == 2
    assert check_game(game) == []
