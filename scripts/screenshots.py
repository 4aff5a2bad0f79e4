"""The documentation's pictures (docs/images/), taken from a running instance: `make
screenshots` starts the whole service (`make run`, in a var/ of its own on a port of its own),
plays games on it through the API (a player against computer players, the player's moves
chosen by the project's own bots), and photographs what a player sees in Debian's chromium:
the board on each shipped map, the phone view, the end summary, a finished game's story and
the lobby on a laptop (1366×768) and a phone (390×844), and a turn mail. Each picture
is squeezed with pngquant when it is installed (`make screenshots` installs it), so the
repository keeps them small."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from email import message_from_bytes
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots import choose  # noqa: E402  (the checkout's own computer players)

IMAGES = ROOT / "docs" / "images"
PORT = int(os.environ.get("CONQUEST_SCREENSHOTS_PORT", "8765"))
BASE = f"http://127.0.0.1:{PORT}"
PASSWORD = "a-long-screenshot-password-7"
LAPTOP, PHONE = (1366, 900), (390, 844)
# The sizes the story and the lobby are shown at, by name.
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}


def call(method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(
        BASE + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Token {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        raise RuntimeError(f"{method} {path}: {refused.code} {refused.read()[:300]!r}") from None


def start_service(var: Path) -> subprocess.Popen:
    env = {**os.environ, "CONQUEST_VAR_DIR": str(var), "PORT": str(PORT), "DEBUG": "1",
           "CONQUEST_BOT_DELAY_SECONDS": "0",
           # The turn mail goes out at once, though the player was on the site a moment ago.
           "CONQUEST_ON_SITE_SECONDS": "0", "CONQUEST_COMPUTER_GAME_AWAY_SECONDS": "0",
           "CONQUEST_PRESENCE_SECONDS": "0",
           # The finished game's win chance within a minute (its margin says how rough).
           "CONQUEST_ANALYSIS_PLAYOUTS": "96"}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "EMAIL_HOST", "CACHE_URL"):
        env.pop(name, None)
    service = subprocess.Popen(["make", "--no-print-directory", "run"], cwd=ROOT, env=env,
                               start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(BASE + "/healthz", timeout=2)
            return service
        except OSError:
            if service.poll() is not None:
                raise SystemExit("make run ended before the site answered") from None
            time.sleep(1)
    stop_service(service)
    raise SystemExit("the site did not answer within 5 minutes")


def stop_service(service: subprocess.Popen) -> None:
    """Stop make run's whole process group, and wait until none of it is left (its files are
    removed next)."""
    os.killpg(service.pid, signal.SIGTERM)
    service.wait(timeout=60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            os.killpg(service.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.5)
    os.killpg(service.pid, signal.SIGKILL)


def sign_up(name: str) -> str:
    return call("POST", "/api/v1/accounts/",
                {"username": name, "email": f"{name}@example.com", "password": PASSWORD})["token"]


def play(token: str, game_id: int, decisions: int, until_turn: int = 10 ** 9) -> dict:
    """Play up to `decisions` of the player's decisions with the `hard` bot's choices,
    waiting for the computer players between them, until the game reaches `until_turn`."""
    rnd = random.Random(game_id)
    view = call("GET", f"/api/v1/games/{game_id}/", token=token)
    for _ in range(decisions):
        waited = time.monotonic()
        while view["status"] == "active" and not owed(view):
            if time.monotonic() - waited > 60:
                raise RuntimeError(f"game {game_id}: the computer players did not move")
            time.sleep(0.5)
            view = call("GET", f"/api/v1/games/{game_id}/", token=token)
        if view["status"] != "active" or view["turn"] >= until_turn:
            break
        command = choose(view, view["rules"], "hard", rnd)
        view = call("POST", f"/api/v1/games/{game_id}/commands/",
                    {**command, "expected_version": view["version"]}, token)["game"]
    return view


def owed(view: dict) -> list[str]:
    """The decisions the player owes now (none while others are to move): what the seat may
    send besides the standing ones, a defence policy and resigning."""
    may = ((view.get("you") or {}).get("may") or {}).get("commands") or []
    return [command for command in may if command not in ("set_defense", "resign")]


def new_game(token: str, map_id: str, bots: list[str], **rules) -> int:
    return call("POST", "/api/v1/games/", {
        "name": f"A game on {map_id}", "players": 1 + len(bots), "map": map_id, "bots": bots,
        "rules": {"setup": "random", **rules}}, token)["id"]


def squeeze(path: Path) -> None:
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--strip", "--quality",
                        "60-90", "--output", str(path), str(path)], check=False)


def shoot(page, name: str, full_page: bool = False) -> None:
    """`page` (the window, or with `full_page` all of it), or one element (a locator)."""
    path = IMAGES / f"{name}.png"
    if hasattr(page, "viewport_size"):
        page.screenshot(path=str(path), full_page=full_page)
    else:
        page.screenshot(path=str(path))
    squeeze(path)
    print(f"screenshots: {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)")


def signed_in_page(browser, name: str, size: tuple[int, int]):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  device_scale_factor=1)
    page = context.new_page()
    page.goto(f"{BASE}/accounts/login/?next=/games/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{BASE}/games/")
    return page


def mails_to(var: Path, username: str) -> list:
    """Every mail to `username` written under var/mail/, oldest first."""
    found = []
    for path in sorted((var / "mail").glob("*"), key=lambda p: p.stat().st_mtime):
        for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            message = message_from_bytes(raw.strip())
            if f"{username}@example.com" in str(message.get("To", "")):
                found.append(message)
    return found


def html_of(message) -> str:
    """A mail as the HTML a mail program shows: its HTML part, else its text in a <pre>."""
    parts = list(message.walk())
    html = [p for p in parts if p.get_content_type() == "text/html"]
    if html:
        return html[0].get_payload(decode=True).decode()
    body = next(p for p in parts if p.get_content_type() == "text/plain")
    text = f"Subject: {message['Subject']}\n\n{body.get_payload(decode=True).decode()}"
    escaped = text.replace("&", "&amp;").replace("<", "&lt;")
    return ("<body style='margin:0;padding:16px;font:15px/1.45 sans-serif'>"
            f"<pre style='white-space:pre-wrap;font:inherit'>{escaped}</pre></body>")


# Run in the site's own environment once the games are played: the newest "your move"
# notification the games made for the player, rendered by the site's mail renderer as it is
# sent (the address confirmed first, as the player would have).
TURN_MAIL = """
from accounts import email as addresses
from notifications.mail import render
from notifications.models import Notification
turn = Notification.objects.filter(user__username=USERNAME, kind=Notification.TURN).latest("id")
if not addresses.confirmed(turn.user):
    addresses.confirm(turn.user, turn.user.email)
print(render(turn).message().as_string())
"""


def turn_mail(var: Path, username: str):
    """The turn mail the site makes for `username`'s newest "your move"."""
    env = {**os.environ, "CONQUEST_VAR_DIR": str(var)}
    for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
        env.pop(name, None)
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "--verbosity", "0", "-c",
         f"USERNAME = {username!r}\n" + TURN_MAIL],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return message_from_bytes(made.stdout.encode())


def confirm_address(page, var: Path, username: str) -> None:
    """Follow the confirmation mail's link and press its button: mail for games comes next."""
    link = re.search(r'href="([^"]*/accounts/confirm/[^"]+)"', html_of(mails_to(var, username)[0]))
    page.goto(link[1])
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def story_and_lobby(browser, ended: int) -> None:
    """The finished game's story (its win chance, once the worker has worked it out) and
    the lobby, at each of SIZES."""
    for size_name, size in SIZES.items():
        page = signed_in_page(browser, "ada", size)
        page.goto(f"{BASE}/games/{ended}/")
        deadline = time.monotonic() + 300
        while not page.locator("#story .story-win").count():
            if time.monotonic() > deadline:
                raise RuntimeError(f"game {ended}: no win chance after 5 minutes")
            time.sleep(3)
            page.reload()
        shoot(page.locator("#story"), f"story-{size_name}")
        page.goto(f"{BASE}/games/")
        shoot(page, f"lobby-{size_name}")


def main() -> None:
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    var = Path(tempfile.mkdtemp(prefix="conquest-screenshots-"))
    service = start_service(var)
    try:
        token = sign_up("ada")
        maps = [m["id"] for m in call("GET", "/api/v1/maps/")]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"))
            page = signed_in_page(browser, "ada", LAPTOP)
            confirm_address(page, var, "ada")
            games = {}
            for map_id in maps:
                games[map_id] = new_game(token, map_id, ["normal", "hard"])
                play(token, games[map_id], decisions=40, until_turn=4)
            mail = turn_mail(var, "ada")
            # A two-player game played a little, then resigned: the end summary.
            ended = new_game(token, "classic", ["normal"])
            play(token, ended, decisions=30, until_turn=5)
            call("POST", f"/api/v1/games/{ended}/commands/", {"type": "resign"}, token)
            for map_id, game_id in games.items():
                page.goto(f"{BASE}/games/{game_id}/")
                page.wait_for_selector("[data-territory]")
                shoot(page, f"game-{map_id}")
            page.goto(f"{BASE}/games/{ended}/")
            shoot(page, "end-summary")
            # The top of the mail, as a mail program's window shows it (the board it lists
            # below runs on for pages).
            page.set_viewport_size({"width": 760, "height": 1000})
            page.set_content(html_of(mail))
            shoot(page, "mail")
            phone = signed_in_page(browser, "ada", PHONE)
            phone.goto(f"{BASE}/games/{games['classic']}/")
            phone.wait_for_selector("[data-territory]")
            shoot(phone, "phone-game")
            phone.goto(f"{BASE}/games/{games['world']}/")
            phone.wait_for_selector("[data-territory]")
            shoot(phone, "phone-game-world")
            story_and_lobby(browser, ended)
            browser.close()
    finally:
        stop_service(service)
        shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    main()
