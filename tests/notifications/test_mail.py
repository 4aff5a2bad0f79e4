"""notifications/mail.py and templates/mail/: what each mail says, its headers, the
recipient's language and time zone, and that no mail shows another seat's secrets."""

from __future__ import annotations

import itertools
import random
import re
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone, translation

from accounts import tokens
from accounts.models import Preferences
from engine.board import CARDS, NEIGHBOURS, TERRITORIES, territory_name
from engine.missions import describe, effective_mission
from games.models import Game, Seat
from games.store.states import load_state
from notifications import delivery, links
from notifications import mail as mails
from notifications.kinds import KINDS as DECLARED_KINDS
from notifications.models import Notification
from ratings import recording
from tests.engine.players import bot_command
from tests.games_in_states import open_game
from tests.notifications.support import (
    SEED,
    act,
    conquer,
    conquering,
    place_setup,
    rows,
    seat_of,
    seats_to_act,
    send_everything,
    started,
    user_at,
)
from tests.play import play_until
from words import narrator


@pytest.fixture
def game(three_at_first_reinforce):
    """The game of these tests: alice, bob and charlie at the first reinforce phase."""
    return three_at_first_reinforce


# Mentions are shown on the site only (moderation.mentions), never mailed.
KINDS = [kind for kind in DECLARED_KINDS
         if kind not in (Notification.CONFIRM_EMAIL, Notification.MENTION)]


def only(found: list):
    assert len(found) == 1, found
    return found[0]


def sent(row: Notification):
    recording.record_pending()  # the worker records a finished game's ratings at once
    assert delivery.send_one(row.pk) == "sent"
    return mail.outbox[-1]


def html_of(message) -> str:
    (html, mimetype), = message.alternatives
    assert mimetype == "text/html"
    return html


def open_links(text: str) -> set:
    """(user, game) of each signed-in link, (None, game) of each link that signs nobody in."""
    return {links.read_open_token(t)[:2] for t in re.findall(r"/mail/open/([^/\s\"]+)/", text)
            } | {(None, int(g)) for g in re.findall(r"/mail/game/(\d+)/", text)}


def board_of(text: str) -> dict[str, tuple[str, int]]:
    """The board a text mail shows: territory id -> (owner as written, armies)."""
    names = {territory_name(t): t for t in TERRITORIES}
    board = {}
    for line in text.splitlines():
        match = re.fullmatch(r"  (.+?) {2,}(.+?) +(\d+)", line)
        if match and match[1].strip() in names:
            board[names[match[1].strip()]] = (match[2].strip(), int(match[3]))
    return board


ROW_KEYS = itertools.count()


def any_kind(game, user, kind: str, **payload) -> Notification:
    """A row of `kind` for `user` as the game stands now (made only to be rendered)."""
    defaults = {"seat": 1, "by": 0, "winner": 0, "applied": ["end attack"],
                "failed": "end", "error": "the turn cannot end now", "games": []}
    return Notification.objects.create(  # marked sent: the outbox leaves it alone
        user=user, game=game, kind=kind, key=f"{kind}:test:{next(ROW_KEYS)}",
        event_seq=game.version, payload={**defaults, **payload}, sent_at=timezone.now())


# ---- the turn mail ---------------------------------------------------------------------
def test_it_names_the_game_the_turn_and_the_deadline(game, clock):
    row = rows(game, kind=Notification.TURN)[-1]
    state = load_state(game, row.event_seq)
    player = row.user

    message = sent(row)

    assert message.subject == f"Your move in Moscow 1812 (turn {state.turn})"
    assert message.to == [player.email]
    assert message.from_email == "Conquest <conquest@localhost>"
    assert message.body.startswith(f"Moscow 1812 · turn {state.turn}\n")
    colour = ("Red", "Blue", "Green")[seat_of(game, player)]
    assert f"It is your move, {colour} ({player.username})." in message.body
    assert "Deadline: Thursday 11 June 2026, 10:00 (UTC)" in message.body
    assert f"Armies to place: {state.reinforcements}" in message.body
    assert "Deadline: Thursday 11 June 2026, 10:00 (UTC)" in html_of(message)


def test_it_links_to_the_game_without_signing_in_by_default(game):
    row = rows(game, kind=Notification.TURN)[-1]

    message = sent(row)

    assert open_links(message.body) == {(None, game.pk)}
    assert open_links(html_of(message)) == {(None, game.pk)}
    assert "/mail/open/" not in message.body + html_of(message)
    assert "Or reply to this mail with your moves." in message.body


def test_its_html_offers_the_reply_by_mail_after_the_button_it_is_the_other_way_to(game):
    row = rows(game, kind=Notification.TURN)[-1]

    html = html_of(sent(row))

    assert "Or reply to this mail with your moves." in html
    assert html.index("Open the game</a>") < html.index("Or reply to this mail"), \
        "the mail's sentence beginning with 'Or' comes before the button it refers to"


def test_it_links_straight_to_the_game_signed_in_for_who_chose_so(game):
    row = rows(game, kind=Notification.TURN)[-1]
    Preferences.objects.update_or_create(user_id=row.user_id,
                                         defaults={"mail_link_sign_in": True})

    message = sent(row)

    assert open_links(message.body) == {(row.user_id, game.pk)}
    assert open_links(html_of(message)) == {(row.user_id, game.pk)}


def test_it_carries_the_unsubscribe_and_reply_headers(game):
    row = rows(game, kind=Notification.TURN)[-1]

    message = sent(row)

    unsubscribe = message.extra_headers["List-Unsubscribe"]
    assert re.fullmatch(r"<http://127\.0\.0\.1:8000/mail/unsubscribe/[^>]+/>", unsubscribe)
    assert links.read_unsubscribe_token(unsubscribe.rstrip("/>").split("/")[-1]) == row.user_id
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["Message-ID"] == f"<notification-{row.pk}@localhost>"
    reply_to = only(message.reply_to)
    def holder(game_id, seat):  # who holds the seat now
        return Seat.objects.get(game_id=game_id, seat=seat).user_id

    assert links.read_reply_address(reply_to, holder) == (
        game.pk, seat_of(game, row.user), row.user_id, game.turn)
    # They survive into the message as sent.
    sent_message = message.message()
    assert sent_message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert sent_message["Reply-To"] == reply_to
    assert sent_message["Message-ID"] == f"<notification-{row.pk}@localhost>"


def test_it_shows_the_board_as_text(game):
    row = rows(game, kind=Notification.TURN)[-1]
    state = load_state(game, row.event_seq)

    board = board_of(sent(row).body)

    assert set(board) == set(TERRITORIES)
    for territory, (owner, armies) in board.items():
        assert armies == state.armies[territory]
        owner_seat = state.owner[territory]
        expected = "Neutral" if owner_seat == "neutral" else (
            f"{('Red', 'Blue', 'Green')[owner_seat]} "
            f"({user_at(game, owner_seat).username})")
        assert owner == expected


def test_it_says_setup_while_the_game_is_set_up(alice, bob):
    game = started(alice, bob, placement_batch=5)

    message = sent(rows(game, kind=Notification.TURN)[-1])

    assert message.subject == "Your move in Moscow 1812 (setup)"
    assert "Armies to place: 5" in message.body


def test_it_tells_what_happened_to_the_player_since_their_last_turn(alice, bob, clock):
    game = started(alice, bob, neutral=False, placement_batch=50)
    state = load_state(game)
    # Every seat stacks its armies on one territory that borders the other seat.
    while state.phase == "setup_place":
        seat = state.current
        front = next(t for t in state.territories_of(seat)
                     if any(state.owner[n] == 1 - seat for n in NEIGHBOURS[t]))
        act(game, user_at(game, seat), {"type": "place", "placements": {
            front: state.reinforcements}})
        state = load_state(game)
    first, second = state.current, 1 - state.current
    first_user, second_user = user_at(game, first), user_at(game, second)
    act(game, first_user, {"type": "place", "placements": {
        state.territories_of(first)[0]: state.reinforcements}})
    act(game, first_user, {"type": "end_turn"})
    state = load_state(game)
    act(game, second_user, {"type": "place", "placements": {
        state.territories_of(second)[0]: state.reinforcements}})
    source = max(state.territories_of(second), key=lambda t: state.armies[t])
    target = next(n for n in NEIGHBOURS[source] if state.owner[n] == first)
    act(game, second_user, {"type": "attack", "from": source, "to": target, "dice": 1})
    state = load_state(game)
    if state.phase == "occupy":  # the dice (they follow the game's id) took the territory
        act(game, second_user, {"type": "occupy", "armies": state.occupation.minimum})
    act(game, second_user, {"type": "end_turn"})

    message = sent(rows(game, kind=Notification.TURN, user=first_user)[-1])

    body = message.body
    assert "Since your last turn:" in body
    attacker = f"{('Red', 'Blue')[second]} ({second_user.username})"
    line = f"- {attacker} attacked {territory_name(target)} from {territory_name(source)}:"
    assert line in body
    assert only([ln for ln in body.splitlines() if ln.startswith("- ")]).startswith(line)
    assert "Since your last turn:" in html_of(message)


def test_it_shows_the_players_own_cards_and_mission(alice, bob, charlie):
    game = started(alice, bob, charlie, objective="missions", placement_batch=50)
    state = play_until(game, None, lambda s: s.phase == "reinforce"
                       and s.players[s.current].cards, seed="cards")
    seat = state.current
    user = user_at(game, seat)

    body = mails.render(any_kind(game, user, Notification.TURN)).body

    mission = describe(effective_mission(state, seat))
    assert f"Your mission: {mission}" in body
    for card in state.players[seat].cards:
        # by its id (a mailed trade names it) and its names, never the territory's id
        assert f"#{card} {narrator.card_text(card)}" in body


# ---- the other mails -------------------------------------------------------------------
def test_it_tells_everyone_the_game_started(alice, bob):
    game = started(alice, bob)

    for row in rows(game, kind=Notification.STARTED):
        message = sent(row)
        assert message.subject == "Moscow 1812 has started"
        assert "The game has started: the territories are dealt." in message.body
        assert open_links(message.body) == {(None, game.pk)}


def test_a_two_player_games_start_says_who_places_the_neutrals_armies(alice, bob, charlie):
    """The standing order that places the neutral's armies is offered as the game starts,
    in one sentence: on by default for whoever never chose (alice), the question with its
    two answers for a program's account that never chose (bob holds an API token), the way
    back for whoever chose to place them (and nothing in a game without the neutral)."""
    tokens.issue(bob)
    game = started(alice, bob)
    by_user = {row.user_id: sent(row).body for row in rows(game, kind=Notification.STARTED)}

    assert "the neutral's armies are placed for you, at once" in by_user[alice.pk]
    assert "/accounts/profile/" in by_user[alice.pk]
    assert "you place the neutral's armies: the game waits for you" in by_user[bob.pk]
    assert "Automatically from now on: http" in by_user[bob.pk]
    Preferences.objects.update_or_create(user=charlie, defaults={
        "neutral_placement": Preferences.ASK_ME, "neutral_question_answered": True})
    chose = started(charlie, alice)
    (row,) = rows(chose, kind=Notification.STARTED, user=charlie)
    body = mails.render(row).body
    assert "you place the neutral's armies" in body and "Automatically from now on" not in body
    assert "Your profile can have them placed for you automatically" in body
    Preferences.objects.filter(user=charlie).update(language="cs")
    assert "rozmisťujete armády neutrála vy" in mails.render(row).body
    three = started(alice, bob, charlie)
    assert all("neutral" not in sent(row).body
               for row in rows(three, kind=Notification.STARTED))


def test_it_tells_the_loser_who_eliminated_them_and_everyone_the_winner_and_seed(alice, bob):
    game = started(alice, bob, neutral=False, placement_batch=50)
    state = conquer(game, bob)
    winner, loser = user_at(game, state.winner), user_at(game, 1 - state.winner)
    winner_name = f"{('Red', 'Blue')[state.winner]} ({winner.username})"

    # The last elimination ends the game: the end mail tells it, no mail of its own.
    assert rows(game, kind=Notification.ELIMINATED) == []
    loser_colour = ("Red", "Blue")[1 - state.winner]
    for row in rows(game, kind=Notification.FINISHED):
        message = sent(row)
        assert f"{winner_name} eliminated {loser_colour} ({loser.username})" in message.body
        assert ("You won." if row.user == winner else "You lost (2nd of 2).") in message.body
        assert message.subject == "Moscow 1812 is over"
        assert f"The game is over. The winner is {winner_name}." in message.body
        assert f"The game's secret seed was {SEED}" in message.body
        assert SEED in html_of(message)
        assert message.reply_to == []  # no moves by mail in a game that is over
        assert open_links(message.body) == {(None, game.pk)}


def test_the_end_mail_names_the_dice_seed_made_with_the_players_entropy(alice, bob):
    from engine.fair import game_seed, seed_hash
    from games.models import Seat
    from lobby import open_games

    game = open_game(alice, 2, "Moscow 1812", rules={"neutral": False,
                                                          "placement_batch": 50})
    Game.objects.filter(pk=game.pk).update(seed=SEED, seed_hash=seed_hash(SEED))
    game.refresh_from_db()
    Seat.objects.filter(game=game, seat=0).update(entropy="alice-dice")
    open_games.join_game(game, bob, entropy="bob-dice")
    game.refresh_from_db()
    conquer(game, bob)
    dice_seed = game_seed(SEED, ["alice-dice", "bob-dice"])
    assert dice_seed != SEED

    for row in rows(game, kind=Notification.FINISHED):
        message = sent(row)
        assert f"The game's secret seed was {SEED}" in message.body
        assert f"the dice were drawn with {dice_seed}" in message.body
        assert dice_seed in html_of(message)


def test_it_names_who_missed_a_deadline_and_who_left(game, alice, bob, charlie):
    from games import service

    owing = user_at(game, game.current_seat)
    service.submit_timeout(game, game.version)
    act(game, charlie, {"type": "resign"})

    for row in rows(game, kind=Notification.TIMED_OUT):
        message = sent(row)
        assert message.subject == "A deadline passed in Moscow 1812"
        colour = ("Red", "Blue", "Green")[seat_of(game, owing)]
        assert (f"{colour} ({owing.username}) missed a deadline; the owed move was made "
                "for them.") in message.body
    for row in rows(game, kind=Notification.DROPPED):
        message = sent(row)
        assert message.subject == "A player left Moscow 1812"
        assert "Green (charlie) has left the game; their territories are now neutral." \
            in message.body


def test_it_answers_a_mailed_move_with_what_was_done_and_what_not(game):
    user = user_at(game, game.current_seat)
    row = Notification.objects.create(
        user=user, game=game, kind=Notification.REPLY, key="reply:1", event_seq=game.version,
        payload={"applied": ["place 3 ukraine"], "failed": "end",
                 "error": "the turn cannot end now", "in_reply_to": "<m1@example.com>"})

    message = sent(row)

    assert message.subject == "Re: your moves in Moscow 1812"
    assert message.extra_headers["In-Reply-To"] == "<m1@example.com>"
    assert "Done: place 3 ukraine\nNot done: end\n  the turn cannot end now" in message.body
    assert set(board_of(message.body)) == set(TERRITORIES)
    assert "Not done: end" in html_of(message)


def test_it_escapes_what_the_player_wrote_in_the_html_reply(game):
    user = user_at(game, game.current_seat)
    row = Notification.objects.create(
        user=user, game=game, kind=Notification.REPLY, key="reply:1", event_seq=game.version,
        payload={"applied": ["<b>place</b>"], "failed": "<script>alert(1)</script>",
                 "error": "did not understand '<script>alert(1)</script>'"})

    html = html_of(sent(row))

    assert "<script>" not in html and "<b>place</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_it_says_when_a_mailed_reply_held_no_command(game):
    user = user_at(game, game.current_seat)
    row = Notification.objects.create(
        user=user, game=game, kind=Notification.REPLY, key="reply:1", event_seq=game.version,
        payload={"applied": [], "failed": None, "error": None})

    assert "No command found in your mail." in sent(row).body


def test_it_renders_a_digest_without_a_game(alice):
    row = Notification.objects.create(
        user=alice, kind=Notification.DIGEST, key="digest:2026-06-10",
        payload={"games": [{"id": 4, "name": "Moscow 1812",
                            "url": links.open_game_url(alice, 4, sign_in=True)}]})

    message = sent(row)

    assert message.subject == "Your games waiting for you"
    assert open_links(message.body) == {(alice.pk, 4)}
    assert message.reply_to == []
    assert "Moscow 1812" in html_of(message)


def test_it_links_every_mail_to_the_game(game):
    for user in (user_at(game, s) for s in range(3)):
        for kind in KINDS:
            if kind == Notification.DIGEST:
                continue
            message = mails.render(any_kind(game, user, kind))
            assert open_links(message.body) == {(None, game.pk)}, kind
            assert open_links(html_of(message)) == {(None, game.pk)}, kind


# ---- narration -------------------------------------------------------------------------
NAMES = {0: "alice", 1: "bob", 2: "charlie"}


def event(kind: str, **data) -> dict:
    return {"seq": 1, "type": kind, "actor": None, "at": "", "data": data}


def battle(seat, defender, conquered=False) -> dict:
    return event("battle", seat=seat, defender=defender, **{"from": "ukraine"}, to="ural",
                 attacker_dice=[6, 3], defender_dice=[2], attacker_losses=0,
                 defender_losses=1, conquered=conquered)


def test_it_tells_only_what_happened_to_the_reader():
    events = [
        battle(1, 0), battle(1, 2), battle(2, "neutral"),
        event("turn_timed_out", seat=0, missed=1), event("turn_timed_out", seat=2, missed=1),
        event("player_eliminated", seat=2, by=1, cards=3),
        event("player_dropped", seat=1, reason="resigned"),
        event("card_drawn", seat=1), event("armies_placed", seat=1, placements={"ural": 3}),
    ]

    told = narrator.happened_to(events, 0, NAMES)

    assert told == [
        "Blue (bob) attacked Ural from Ukraine: 6 3 against 2, Red (alice) lost 1",
        "Red (alice) ran out of time (missed turns in a row: 1).",
        "Blue (bob) eliminated Green (charlie) and took their 3 cards.",
        "Blue (bob) resigned; their territories turn neutral.",
    ]


def test_it_tells_a_conquest_and_losses_on_both_sides():
    line = narrator.describe(dict(battle(1, 0, conquered=True), data={
        **battle(1, 0)["data"], "attacker_losses": 1, "defender_losses": 1,
        "conquered": True}), NAMES)

    assert line == ("Blue (bob) attacked Ural from Ukraine: 6 3 against 2, Blue (bob) lost 1, "
                    "Red (alice) lost 1 — Ural conquered!")


def test_it_tells_hidden_events_without_their_secret():
    # As redact_event leaves them for another seat: no card, no capital, no placement.
    assert narrator.describe(event("card_drawn", seat=1), NAMES) == "Blue (bob) drew a card."
    assert narrator.describe(event("capital_chosen", seat=1), NAMES) == \
        "Blue (bob) chose a capital in secret."
    assert narrator.describe(event("placement_submitted", seat=2), NAMES) == \
        "Green (charlie) handed in their starting placement."
    assert narrator.describe(event("player_dropped", seat=2, reason="timeout"), NAMES) == (
        "Green (charlie) missed too many turns and was dropped; their territories turn "
        "neutral.")
    assert narrator.describe(event("turn_ended", seat=2), NAMES) == "Green (charlie) ended the turn."


# ---- language and time zone ------------------------------------------------------------
@pytest.mark.parametrize("language, time_zone, local", [
    ("cs", "Europe/Prague", "12:00"),
    ("pl", "Europe/Warsaw", "12:00"),
    ("en", "America/New_York", "06:00"),
    ("cs", "Asia/Tokyo", "19:00"),
])
def test_it_writes_in_the_players_language_and_time_zone(game, language, time_zone, local):
    for user in (user_at(game, s) for s in range(3)):
        Preferences.objects.update_or_create(
            user=user, defaults={"language": language, "time_zone": time_zone})

    for kind in KINDS:
        message = mails.render(any_kind(game, user_at(game, game.current_seat), kind))
        assert message.subject and message.body
        if kind in (Notification.TURN, Notification.REMINDER):
            deadline = game.deadline.astimezone(ZoneInfo(time_zone))
            assert deadline.strftime("%H:%M") == local
            assert f"{local} ({time_zone})" in message.body
            assert f"{local} ({time_zone})" in html_of(message)


def test_it_gives_the_reminder_subject_in_the_players_time_zone(game):
    user = user_at(game, game.current_seat)
    Preferences.objects.create(user=user, time_zone="Asia/Tokyo")

    message = mails.render(any_kind(game, user, Notification.REMINDER))

    assert message.subject == "Reminder: your move in Moscow 1812 is due Thu 11 Jun 19:00"


def test_it_falls_back_to_utc_for_an_unknown_time_zone(game):
    user = user_at(game, game.current_seat)
    Preferences.objects.create(user=user, time_zone="Atlantis/Capital")

    message = mails.render(any_kind(game, user, Notification.TURN))

    assert "Deadline: Thursday 11 June 2026, 10:00" in message.body


# ---- hidden information ----------------------------------------------------------------
def secrets_of_others(state, seat: int) -> list[str]:
    """Strings a mail to `seat` must not contain while the game runs."""
    own = state.players[seat]
    own_missions = set()
    if own.mission:
        own_missions = {describe(own.mission), describe(effective_mission(state, seat))}
    found = []
    for other in state.players:
        if other.seat == seat:
            continue
        if other.mission:
            found += [text for text in (describe(other.mission),
                                        describe(effective_mission(state, other.seat)))
                      if text not in own_missions]
        found += [f"{CARDS[c][0]} ({CARDS[c][1]})" for c in other.cards if CARDS[c][0]]
    return found


def check_no_secrets(text: str, state, seat: int | None, game: Game) -> None:
    if state.finished:
        return  # everything is revealed at the end
    assert SEED not in text
    if seat is None:
        return
    for secret in secrets_of_others(state, seat):
        assert secret not in text
    for other in state.players:
        if other.seat == seat:
            continue
        if other.capital and other.capital not in state.revealed_capitals:
            for line in text.splitlines():
                if "capital" in line.lower():
                    assert territory_name(other.capital) not in line
                    assert other.capital not in line
        if other.hidden_placement:
            board = board_of(text)
            for territory in other.hidden_placement:
                if territory in board:
                    assert board[territory][1] == state.armies[territory]
            assert f"({user_at(game, other.seat).username}) placed" not in text


def check_mail(message, game: Game) -> None:
    row = Notification.objects.select_related("user").get(
        pk=int(message.extra_headers["X-Conquest-Notification"]))
    state = load_state(game, row.event_seq)
    seat = seat_of(game, row.user)
    for text in (message.subject, message.body, html_of(message)):
        check_no_secrets(text, state, seat, game)


def check_every_kind(game: Game, users) -> int:
    state = load_state(game)
    checked = 0
    for user in users:
        seat = seat_of(game, user)
        for kind in KINDS:
            message = mails.render(any_kind(game, user, kind, seat=(seat + 1) % len(users)))
            for text in (message.subject, message.body, html_of(message)):
                check_no_secrets(text, state, seat, game)
            checked += 1
    return checked


def play_and_check(game: Game, users, moments: set, seed: str, stop, winner=None) -> int:
    """Bots (or `winner` conquering) play until `stop(state)`; every mail is sent as it is
    caused and checked, and every kind of mail is rendered for every seat at the `moments`
    (command counts). Returns how many mails were checked."""
    rnd = random.Random(seed)
    checked = 0
    for count in range(3000):
        game.refresh_from_db()
        state = load_state(game)
        # A game may end before the wanted moment (a mission fulfilled early: the seed of
        # each game is new): its mails are checked all the same.
        over = stop(state) or state.finished
        if count in moments or over:
            checked += check_every_kind(game, users)
        for message in send_everything():
            check_mail(message, game)
            checked += 1
        if over:
            return checked
        if winner is not None:
            act(game, *conquering(game, winner, state))
            continue
        seat = rnd.choice(seats_to_act(state))
        try:
            act(game, user_at(game, seat), bot_command(state, seat, rnd))
        except ValueError:
            pass  # the bots sometimes ask for something the rules refuse
    raise AssertionError("the game never reached the wanted moment")


def test_it_never_shows_another_seats_mission_or_cards(alice, bob, charlie):
    game = started(alice, bob, charlie, objective="missions", placement_batch=50)

    checked = play_and_check(game, [alice, bob, charlie], {0, 60}, "missions",
                             lambda s: s.turn >= 10 and sum(len(p.cards) for p in s.players) >= 4)

    # Every kind for every seat at the start and at the end (a mission may be fulfilled
    # early: each game has a new seed), and at least the start mail of each seat.
    assert checked > 2 * 3 * len(KINDS) + 3


def test_it_never_shows_a_simultaneous_placement_before_all_are_in(alice, bob, charlie):
    game = started(alice, bob, charlie, initial_placement="simultaneous", objective="missions")
    state = load_state(game)
    stack = state.territories_of(seat_of(game, alice))[0]
    act(game, alice, {"type": "place", "placements": {
        stack: state.players[seat_of(game, alice)].setup_armies}})
    state = load_state(game)
    assert state.players[seat_of(game, alice)].hidden_placement

    for user in (bob, charlie):
        for kind in KINDS:
            message = mails.render(any_kind(game, user, kind))
            assert board_of(message.body).get(stack, (None, 1))[1] == 1
            check_no_secrets(message.body, state, seat_of(game, user), game)
    own = mails.render(any_kind(game, alice, Notification.TURN))
    check_no_secrets(own.body, state, seat_of(game, alice), game)

    checked = play_and_check(game, [alice, bob, charlie], {1}, "simultaneous",
                             lambda s: s.turn >= 3)
    assert checked > 20


def test_it_never_shows_another_seats_capital(alice, bob, charlie):
    game = started(alice, bob, charlie, objective="capitals", placement_batch=50)
    place_setup(game)
    state = load_state(game)
    capital = state.territories_of(seat_of(game, alice))[0]
    act(game, alice, {"type": "choose_capital", "territory": capital})
    state = load_state(game)

    for user in (bob, charlie):
        for kind in KINDS:
            body = mails.render(any_kind(game, user, kind)).body
            check_no_secrets(body, state, seat_of(game, user), game)
            assert not [line for line in body.splitlines()
                        if "capital" in line.lower() and territory_name(capital) in line]

    checked = play_and_check(game, [alice, bob, charlie], {2, 40}, "capitals",
                             lambda s: s.turn >= 8 or s.finished)
    assert checked > 2 * 3 * len(KINDS) + 3


def test_it_shows_the_seed_only_once_the_game_is_over(alice, bob):
    game = started(alice, bob, neutral=False, placement_batch=50)

    checked = play_and_check(game, [alice, bob], {30}, "seed", lambda s: s.finished,
                             winner=alice)

    assert checked > 20
    finished = [m for m in mail.outbox if m.subject == "Moscow 1812 is over"]
    assert len(finished) == 2
    assert all(SEED in message.body for message in finished)
    assert all(SEED not in message.body for message in mail.outbox if message not in finished)


def test_a_czech_turn_mail_names_the_board_in_czech(game):
    user = user_at(game, game.current_seat)
    Preferences.objects.update_or_create(user=user, defaults={"language": "cs"})
    row = any_kind(game, user, Notification.TURN)

    body = mails.render(row).body

    assert "Severní Evropa" in body and "Northern Europe" not in body


@pytest.mark.parametrize("language, month, card_symbols", [
    ("cs", "června", ("pěchota", "jízda", "dělostřelectvo", "žolík")),
    ("pl", "czerwca", ("piechota", "kawaleria", "artyleria", "dżoker")),
])
def test_a_czech_or_polish_turn_mail_is_in_that_language_throughout(
        alice, bob, charlie, clock, language, month, card_symbols):
    game = started(alice, bob, charlie, placement_batch=50)
    state = play_until(game, None, lambda s: s.phase == "reinforce"
                       and s.players[s.current].cards, seed="cards")
    user = user_at(game, state.current)
    Preferences.objects.update_or_create(user=user, defaults={"language": language})

    message = mails.render(any_kind(game, user, Notification.TURN))
    reminder = mails.render(any_kind(game, user, Notification.REMINDER))

    assert "Your move" not in message.subject and "turn" not in message.subject
    assert "Your move" not in reminder.subject
    assert re.search(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|"
                     r"Oct|Nov|Dec)\b", reminder.subject) is None
    deadline_line = next(line for line in message.body.splitlines() if "2026" in line)
    assert month in deadline_line  # the month's genitive: "11. června", "11 czerwca"
    for card in state.players[state.current].cards:
        territory, symbol = CARDS[card]
        assert f"#{card} {territory} ({symbol})" not in message.body
        with translation.override(language):
            assert f"#{card} {narrator.card_text(card)}" in message.body
    assert any(word in message.body for word in card_symbols)


# ---- many at once ----------------------------------------------------------------------
def comparable(message) -> tuple:
    """A mail's parts, its signed links (stamped with the second they were made) left
    out."""
    def plain(text):
        return re.sub(r"/mail/(open|unsubscribe)/[^/\s\"]+/", r"/mail/\1/…/", text)

    return (message.subject, plain(message.body), plain(html_of(message)), message.to,
            message.reply_to, {k: plain(v) for k, v in message.extra_headers.items()})


@pytest.mark.parametrize("fog", [False, True], ids=["open", "fog"])
def test_it_renders_the_same_mails_many_at_once_as_one_at_a_time(alice, bob, charlie, fog):
    from moderation.chat import post_message

    game = started(alice, bob, charlie, placement_batch=50, fog=fog)
    Preferences.objects.create(user=bob, language="cs", time_zone="Europe/Prague")
    rnd = random.Random("many")
    for count in range(120):
        game.refresh_from_db()
        state = load_state(game)
        if state.finished:
            break
        seat = rnd.choice(seats_to_act(state))
        if count % 25 == 10 and state.phase not in ("setup_place", "claim"):
            post_message(game, user_at(game, seat), f"move {count}, <b>friend</b>")
        try:
            act(game, user_at(game, seat), bot_command(state, seat, rnd))
        except ValueError:
            pass
    for user in (alice, bob, charlie):
        for kind in KINDS:
            any_kind(game, user, kind, seat=seat_of(game, user))
    ids = list(Notification.objects.filter(game=game).order_by("pk").values_list(
        "pk", flat=True))
    assert len(rows(game, kind=Notification.TURN)) > 10

    together = mails.render_many(ids)

    alone = [mails.render(Notification.objects.select_related("user", "game").get(pk=pk))
             for pk in ids]
    assert [m and comparable(m) for m in together] == [m and comparable(m) for m in alone]
    assert any("Table talk:" in m.body for m in together if m is not None)
