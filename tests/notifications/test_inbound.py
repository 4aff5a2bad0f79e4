"""web/mail_moves.py and notifications/mail_in/receive.py: moves by mail through receive(), `manage.py receive_mail` and
anymail's inbound webhooks; the reply mail with the result or the exact error."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import sys
import time
from email.message import EmailMessage
from unittest import mock

import pytest
from django.core import mail
from django.core.management import call_command

from engine.board import NEIGHBOURS, territory_name
from engine.cards import find_sets
from games import service
from games.models import Event, Game
from games.store.states import load_state
from lib import publish
from notifications import delivery, links
from notifications.models import InboundMail, Notification
from tests.notifications.support import (
    conquer,
    place_setup,
    seat_of,
    seats_to_act,
    started,
    user_at,
)
from web import mail_moves


@pytest.fixture
def game(three_at_first_reinforce):
    """The game of these tests: alice, bob and charlie at the first reinforce phase."""
    return three_at_first_reinforce


def address_of(game, user) -> str:
    game.refresh_from_db()
    return links.reply_address(game.pk, seat_of(game, user), user.pk, game.turn)


def mailed(game, user, body: str, sender=None, to=None, message_id=None) -> InboundMail:
    """`user` replies to their turn mail in `game` with `body`."""
    return mail_moves.receive(
        sender if sender is not None else f"{user.username.title()} <{user.email}>",
        [to if to is not None else address_of(game, user)],
        message_id if message_id is not None else f"<{time.monotonic_ns()}@example.com>",
        body,
    )


def reply_to(received: InboundMail):
    """The reply mail the outbox sends for a received mail."""
    row = Notification.objects.get(key=f"reply:{received.pk}")
    assert delivery.send_one(row.pk) == "sent"
    return mail.outbox[-1]


def new_events(game, version) -> list[str]:
    return list(Event.objects.filter(game=game, seq__gt=version).order_by("seq")
                .values_list("type", flat=True))


def front_line(state, seat):
    """The seat's strongest border territory and its enemy neighbour with the fewest armies."""
    source = max(state.border_territories(seat), key=lambda t: state.armies[t])
    enemies = [n for n in NEIGHBOURS[source] if state.owner[n] != seat]
    return source, min(enemies, key=lambda t: state.armies[t])


def mover(game):
    return user_at(game, load_state(game).current)


# ---- every command ---------------------------------------------------------------------
def test_it_plays_a_whole_turn_from_one_mail(game, clock):
    state = load_state(game)
    seat, user = state.current, mover(game)
    source, target = front_line(state, seat)
    friend = next((n for n in NEIGHBOURS[target] if state.owner[n] == seat and n != source),
                  source)
    version = game.version
    body = (f"Place {state.reinforcements} {territory_name(source)}\n"
            f"attack {territory_name(target)} from {territory_name(source)} with 3 repeat\n"
            "occupy 5\n"
            "end attack\n"
            f"fortify 1 from {territory_name(target)} to {territory_name(friend)}\n"
            "\n-- \nAlice\n")

    received = mailed(game, user, body)

    assert received.status == InboundMail.APPLIED, received.detail
    assert received.detail == "5 command(s) applied"
    assert (received.game, received.user) == (game, user)
    happened = new_events(game, version)
    assert happened[0] == "armies_placed"
    assert {"battle", "occupied", "attack_ended", "fortified", "turn_ended"} <= set(happened)
    state = load_state(game)
    assert state.owner[target] == seat and state.current != seat
    message = reply_to(received)
    assert message.to == [user.email]
    assert message.subject == "Re: your moves in Moscow 1812"
    for line in body.splitlines()[:5]:
        assert f"Done: {line}" in message.body
    assert "Not done" not in message.body
    assert f"{territory_name(target):<24}" in message.body  # the board


def test_it_ends_a_turn(game):
    state = load_state(game)
    user = mover(game)
    version = game.version

    received = mailed(game, user, f"place {state.reinforcements} "
                                   f"{state.territories_of(state.current)[0]}\nend")

    assert received.status == InboundMail.APPLIED
    assert new_events(game, version)[-2:] == ["turn_ended", "turn_started"]


def test_it_claims_a_territory(alice, bob, charlie):
    game = started(alice, bob, charlie, setup="claim")
    state = load_state(game)
    user = user_at(game, state.current)
    free = state.territories_of(None)[0]

    received = mailed(game, user, f"claim {territory_name(free).upper()}")

    assert received.status == InboundMail.APPLIED
    assert load_state(game).owner[free] == seat_of(game, user)


def test_it_places_in_a_placement_turn(alice, bob):
    game = started(alice, bob, placement_batch=5)
    state = load_state(game)
    user = user_at(game, state.current)
    first, second = state.territories_of(state.current)[:2]

    received = mailed(game, user, f"place 3 {territory_name(first)}, 2 {second}")

    assert received.status == InboundMail.APPLIED, received.detail
    after = load_state(game)
    assert (after.armies[first], after.armies[second]) == (
        state.armies[first] + 3, state.armies[second] + 2)


def test_it_hands_in_a_simultaneous_placement(alice, bob, charlie):
    game = started(alice, bob, charlie, initial_placement="simultaneous")
    state = load_state(game)
    seat = seat_of(game, bob)

    received = mailed(game, bob, f"place {state.players[seat].setup_armies} "
                                 f"{territory_name(state.territories_of(seat)[0])}")

    assert received.status == InboundMail.APPLIED, received.detail
    assert seat not in seats_to_act(load_state(game))


def test_it_chooses_a_capital(alice, bob, charlie):
    game = started(alice, bob, charlie, objective="capitals", placement_batch=50)
    place_setup(game)
    capital = load_state(game).territories_of(seat_of(game, charlie))[-1]

    received = mailed(game, charlie, f"capital {territory_name(capital)}")

    assert received.status == InboundMail.APPLIED, received.detail
    assert load_state(game).players[seat_of(game, charlie)].capital == capital


@pytest.mark.usefixtures("neutral_by_hand")  # the rulebooks' way, chosen
def test_it_places_the_neutrals_armies(alice, bob):
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    service.submit(service.player(user_at(game, state.current)), game, {"type": "place", "placements": {
        state.territories_of(state.current)[0]: state.reinforcements}})
    state = load_state(game)
    assert state.phase == "neutral_place"
    neutral = state.territories_of("neutral")[0]

    received = mailed(game, user_at(game, state.current),
                      f"neutral {state.reinforcements} {territory_name(neutral)}")

    assert received.status == InboundMail.APPLIED, received.detail
    assert load_state(game).armies[neutral] == state.armies[neutral] + state.reinforcements


@pytest.mark.parametrize("line", ["trade", "trade {cards}"])
def test_it_trades_cards(alice, bob, line):
    game = started(alice, bob, neutral=False, placement_batch=50)
    state = conquer(game, alice, until=lambda s: s.phase == "reinforce" and find_sets(
        s.players[s.current].cards), once_a_turn=True)
    trio = find_sets(state.players[state.current].cards)[0]
    version = game.version

    received = mailed(game, user_at(game, state.current),
                      line.format(cards=" ".join(map(str, trio))))

    assert received.status == InboundMail.APPLIED, received.detail
    assert new_events(game, version)[0] == "cards_traded"


def test_it_sets_the_defense_and_resigns(game, charlie):
    version = game.version

    received = mailed(game, charlie, "defense one\nresign")

    assert received.status == InboundMail.APPLIED, received.detail
    assert new_events(game, version)[:2] == ["defense_set", "player_dropped"]


# ---- every error -----------------------------------------------------------------------
def check_refused_line(received, applied: list[str], line: str, error: str) -> None:
    assert received.status == InboundMail.FAILED
    assert received.detail == error
    message = reply_to(received)
    for done in applied:
        assert f"Done: {done}" in message.body
    assert f"Not done: {line}\n  {error}\n" in message.body
    assert f"<strong>Not done: {line}</strong>" in message.alternatives[0][0]


def test_it_stops_at_a_line_it_cannot_read_and_says_why(game):
    state = load_state(game)
    user = mover(game)
    place = f"place 1 {state.territories_of(state.current)[0]}"
    version = game.version

    received = mailed(game, user, f"{place}\nattack narnia from ukraine\nend")

    check_refused_line(received, [place], "attack narnia from ukraine",
                       "no territory called 'narnia'")
    assert new_events(game, version) == ["armies_placed"]


def test_it_says_what_the_rules_refuse(game):
    state = load_state(game)
    received = mailed(game, mover(game), "end")

    check_refused_line(received, [], "end",
                       f"Place your {state.reinforcements} armies first.")


def test_it_says_when_it_is_not_the_players_turn(game):
    waiting = next(user_at(game, s) for s in range(3) if s != game.current_seat)
    version = game.version

    received = mailed(game, waiting, "place 1 peru")

    check_refused_line(received, [], "place 1 peru", "It is another player's turn.")
    assert new_events(game, version) == []


def test_it_says_when_the_dice_are_wrong(game):
    state = load_state(game)
    source, target = front_line(state, state.current)
    lines = [f"place {state.reinforcements} {source}",
             f"attack {target} from {source} with 10"]

    received = mailed(game, mover(game), "\n".join(lines))

    check_refused_line(received, lines[:1], lines[1],
                       f"Roll 1 to 3 dice from {territory_name(source)}.")


def test_it_says_when_there_is_no_set_to_trade(game):
    received = mailed(game, mover(game), "trade")

    check_refused_line(received, [], "trade", "you hold no set of cards to trade")


def test_it_says_when_the_game_is_over(alice, bob):
    game = started(alice, bob)
    service.submit(service.player(bob), game, {"type": "resign"})

    received = mailed(game, alice, "end")

    assert received.status == InboundMail.FAILED
    assert received.detail == "the game is finished"
    message = reply_to(received)
    assert "Not done: end\n  the game is finished" in message.body
    assert message.reply_to == []
    assert "reply to this mail" not in message.body  # nowhere to reply to any more


def test_it_stops_at_a_signature_it_does_not_recognise(game):
    version = game.version

    received = mailed(game, mover(game), "Alice, on the train\nplace 1 peru")

    check_refused_line(received, [], "Alice, on the train",
                       "did not understand 'Alice, on the train'")
    assert new_events(game, version) == []


def test_it_answers_a_mail_without_commands(game):
    received = mailed(game, mover(game), "> place 3 ukraine\n\nOn Monday, Conquest wrote:\nend")

    assert received.status == InboundMail.APPLIED
    assert received.detail == "0 command(s) applied"
    assert "No command found in your mail." in reply_to(received).body


def test_it_reads_at_most_fifty_commands(game, alice):
    received = mailed(game, alice, "defense max\n" * 60)

    assert received.detail == "50 command(s) applied"
    assert Event.objects.filter(game=game, type="defense_set").count() == 50


def test_it_threads_the_reply_under_the_players_mail(game):
    received = mailed(game, mover(game), "resign", message_id="<reply-1@example.com>")

    message = reply_to(received)

    assert message.extra_headers["In-Reply-To"] == "<reply-1@example.com>"


def test_it_queues_the_reply_after_commit(game, django_capture_on_commit_callbacks):
    with mock.patch("notifications.tasks.deliver_many.apply_async") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            received = mailed(game, mover(game), "end")
        publish.wait_for_publishing()

    row = Notification.objects.get(key=f"reply:{received.pk}")
    assert any(row.pk in call.args[0][0] and call.kwargs == {"retry": False}
               for call in queued.call_args_list)


# ---- who may play ----------------------------------------------------------------------
def test_it_refuses_a_sender_who_is_not_the_seats_player(game, alice, charlie):
    version, count = game.version, Notification.objects.count()

    received = mailed(game, alice, "resign", sender=charlie.email)

    assert received.status == InboundMail.REFUSED
    assert received.detail == "the sender is not the seat's player"
    assert new_events(game, version) == []
    assert Notification.objects.count() == count  # a forged sender hears nothing


def test_it_refuses_a_player_writing_to_another_seats_address(game, alice, bob):
    received = mailed(game, bob, "resign", to=address_of(game, alice))

    assert received.status == InboundMail.REFUSED
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


@pytest.mark.parametrize("forge", [
    lambda a: a[:a.index("@") - 1] + ("0" if a[a.index("@") - 1] != "0" else "1") + a[
        a.index("@"):],
    lambda a: a.replace("play+", "play+9"),
    lambda a: "play@localhost",
    lambda a: "alice@example.com",
])
def test_it_refuses_a_bad_signature(game, alice, forge):
    version, count = game.version, Notification.objects.count()

    received = mailed(game, alice, "resign", to=forge(address_of(game, alice)))

    assert received.status == InboundMail.REFUSED
    assert received.detail == "no valid signed reply address"
    assert new_events(game, version) == []
    assert Notification.objects.count() == count


def test_it_accepts_the_senders_address_in_any_case(game, charlie):
    received = mailed(game, charlie, "resign", sender="Charlie <CHARLIE@Example.COM>")

    assert received.status == InboundMail.APPLIED


def test_it_finds_the_signed_address_among_several_recipients(game, charlie):
    received = mail_moves.receive(charlie.email, ["friends@example.com",
                                               address_of(game, charlie).upper()],
                               "<m@example.com>", "resign")

    assert received.status == InboundMail.APPLIED


def test_it_applies_a_message_once(game, charlie):
    first = mailed(game, charlie, "defense one", message_id="<same@example.com>")
    again = mailed(game, charlie, "defense one", message_id=" <same@example.com> ")

    assert (first.status, again.status) == (InboundMail.APPLIED, InboundMail.DUPLICATE)
    assert Event.objects.filter(game=game, type="defense_set").count() == 1
    assert Notification.objects.filter(kind=Notification.REPLY).count() == 1


def test_it_applies_identical_messages_without_an_id_each_time(game, charlie):
    first = mail_moves.receive(charlie.email, [address_of(game, charlie)], None, "defense one")
    again = mail_moves.receive(charlie.email, [address_of(game, charlie)], "", "defense one")

    assert first.status == again.status == InboundMail.APPLIED
    assert Event.objects.filter(game=game, type="defense_set").count() == 2


def test_it_lets_no_stranger_burn_a_players_message_id(game, alice, charlie):
    forged = mailed(game, alice, "defense one", sender=charlie.email,
                    message_id="<x@example.com>")
    real = mailed(game, alice, "defense one", message_id="<x@example.com>")

    assert (forged.status, real.status) == (InboundMail.REFUSED, InboundMail.APPLIED)
    assert Event.objects.filter(game=game, type="defense_set").count() == 1


def test_it_answers_a_number_too_long_to_read_with_a_reply(game, alice):
    reply = mailed(game, alice, "place " + "9" * 5000 + " alaska")

    assert reply.status == InboundMail.FAILED
    assert "place" in reply.detail or "armies" in reply.detail
    assert Notification.objects.filter(kind=Notification.REPLY, user=alice).exists()


def test_it_refuses_a_reply_address_with_endless_digits_before_reading_it(game, alice):
    address = address_of(game, alice).replace("+", "+" + "9" * 5000, 1)

    reply = mail_moves.receive(alice.email, [address], "<long@example.com>", "defense one")

    assert reply.status == InboundMail.REFUSED


# ---- receive_mail: an RFC 822 message on standard input --------------------------------
def rfc822(sender: str, to: str, body: str, message_id="<pipe-1@example.com>",
           html: str | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Re: Your move in Moscow 1812"
    message["Message-ID"] = message_id
    message.set_content(body, cte="quoted-printable")
    if html is not None:
        message.add_alternative(html, subtype="html")
    return message.as_bytes()


def receive_mail_from_stdin(monkeypatch, raw: bytes) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("receive_mail", stdout=out)
    return out.getvalue()


def test_it_reads_a_mail_on_standard_input(game, charlie, monkeypatch):
    raw = rfc822(f"Charlie <{charlie.email}>", address_of(game, charlie),
                 "defense one\n\n> It is your move\n")

    out = receive_mail_from_stdin(monkeypatch, raw)

    assert out.strip() == "applied: 1 command(s) applied"
    assert Event.objects.filter(game=game, type="defense_set").exists()
    assert InboundMail.objects.get().message_id == "<pipe-1@example.com>"


def test_it_reads_the_text_part_of_a_multipart_mail(game, charlie, monkeypatch):
    raw = rfc822(charlie.email, f"Conquest <{address_of(game, charlie)}>",
                 "defense one\n-- \nČeněk Dvořák, Kraków\n", html="<p>resign</p>")
    assert b"quoted-printable" in raw and b"multipart/alternative" in raw

    out = receive_mail_from_stdin(monkeypatch, raw)

    assert out.strip() == "applied: 1 command(s) applied"
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_reads_a_reply_sent_as_html_only(game, charlie, monkeypatch):
    message = EmailMessage()
    message["From"] = charlie.email
    message["To"] = address_of(game, charlie)
    message["Message-ID"] = "<html-only@example.com>"
    message.set_content(
        '<div dir="ltr">defense one</div><br><div class="gmail_quote">'
        '<div class="gmail_attr">On Sun, Nov 29, 2026 at 2:03 AM Conquest wrote:</div>'
        '<blockquote class="gmail_quote">resign</blockquote></div>', subtype="html")

    out = receive_mail_from_stdin(monkeypatch, message.as_bytes())

    assert out.strip() == "applied: 1 command(s) applied"
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_finds_the_address_in_delivered_to(game, charlie, monkeypatch):
    raw = rfc822(charlie.email, "undisclosed-recipients:;", "defense one")
    raw = f"Delivered-To: {address_of(game, charlie)}\r\n".encode() + raw

    assert receive_mail_from_stdin(monkeypatch, raw).startswith("applied")


def test_it_refuses_a_forged_mail_on_standard_input(game, alice, charlie, monkeypatch):
    raw = rfc822(alice.email, address_of(game, charlie), "resign")

    out = receive_mail_from_stdin(monkeypatch, raw)

    assert out.strip() == "refused: the sender is not the seat's player"
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_applies_a_piped_mail_once(game, charlie, monkeypatch):
    raw = rfc822(charlie.email, address_of(game, charlie), "defense one")

    receive_mail_from_stdin(monkeypatch, raw)
    receive_mail_from_stdin(monkeypatch, raw)

    assert Event.objects.filter(game=game, type="defense_set").count() == 1


# ---- anymail's inbound webhooks --------------------------------------------------------
@pytest.fixture
def webhook(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret",
                        "MAILGUN_WEBHOOK_SIGNING_KEY": "mailgun-signing-key"}
    token = base64.b64encode(b"hook:s3cret").decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def postmark(game, user, body: str, sender=None) -> dict:
    sender = sender or user.email
    to = address_of(game, user)
    return {
        "From": sender, "FromName": user.username, "FromFull": {"Email": sender, "Name": ""},
        "To": to, "ToFull": [{"Email": to, "Name": ""}], "Cc": "", "CcFull": [],
        "OriginalRecipient": to, "Subject": "Re: Your move in Moscow 1812",
        "MessageID": "7bd6c7b4-0b2e-4f5a-8d5f-000000000001", "ReplyTo": "",
        "Date": "Wed, 10 Jun 2026 10:00:00 +0000", "MailboxHash": "",
        "TextBody": body, "HtmlBody": "", "StrippedTextReply": body, "Tag": "",
        "Headers": [{"Name": "Message-ID", "Value": "<postmark-1@example.com>"}],
        "Attachments": [],
    }


def test_it_plays_a_mail_from_the_postmark_webhook(client, game, charlie, webhook):
    answer = client.post("/anymail/postmark/inbound/", json.dumps(postmark(
        game, charlie, "defense one\nresign")), content_type="application/json", **webhook)

    assert answer.status_code == 200
    received = InboundMail.objects.get()
    assert received.message_id == "<postmark-1@example.com>"
    assert received.status == InboundMail.APPLIED, received.detail
    assert Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_plays_an_html_only_mail_from_the_postmark_webhook(client, game, charlie, webhook):
    payload = {**postmark(game, charlie, ""), "StrippedTextReply": "",
               "HtmlBody": "<p>defense one</p><blockquote>resign</blockquote>"}

    answer = client.post("/anymail/postmark/inbound/", json.dumps(payload),
                         content_type="application/json", **webhook)

    assert answer.status_code == 200
    assert InboundMail.objects.get().status == InboundMail.APPLIED
    assert Event.objects.filter(game=game, type="defense_set").exists()
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_applies_a_webhook_delivered_twice_once(client, game, charlie, webhook):
    for _ in range(2):
        answer = client.post("/anymail/postmark/inbound/", json.dumps(postmark(
            game, charlie, "defense one")), content_type="application/json", **webhook)
        assert answer.status_code == 200

    assert Event.objects.filter(game=game, type="defense_set").count() == 1


def test_it_refuses_a_webhook_call_without_the_secret(client, game, charlie, webhook):
    payload = json.dumps(postmark(game, charlie, "resign"))
    wrong = {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"hook:guess").decode()}

    for credentials in ({}, wrong):
        answer = client.post("/anymail/postmark/inbound/", payload,
                             content_type="application/json", **credentials)
        assert answer.status_code in (400, 401, 403)

    assert not InboundMail.objects.exists()
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_keeps_the_webhook_closed_without_a_secret(client, game, charlie, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": None}

    answer = client.post("/anymail/postmark/inbound/", json.dumps(postmark(
        game, charlie, "resign")), content_type="application/json")

    assert answer.status_code == 403 and answer.json()["error"] == "webhook_disabled"
    assert not InboundMail.objects.exists()
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def test_it_refuses_a_forged_sender_from_the_webhook(client, game, alice, charlie, webhook):
    answer = client.post("/anymail/postmark/inbound/", json.dumps(postmark(
        game, charlie, "resign", sender=alice.email)), content_type="application/json",
        **webhook)

    assert answer.status_code == 200
    assert InboundMail.objects.get().status == InboundMail.REFUSED
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


def mailgun_signature(timestamp: str, token: str) -> str:
    return hmac.new(b"mailgun-signing-key", f"{timestamp}{token}".encode(),
                    hashlib.sha256).hexdigest()


def test_it_plays_a_raw_mime_mail_from_the_mailgun_webhook(client, game, charlie, webhook):
    timestamp, token = str(int(time.time())), "a" * 50
    raw = rfc822(f"Charlie <{charlie.email}>", address_of(game, charlie), "defense one",
                 message_id="<mailgun-1@example.com>")

    answer = client.post("/anymail/mailgun/inbound/", {
        "body-mime": raw.decode(), "recipient": address_of(game, charlie),
        "sender": charlie.email, "timestamp": timestamp, "token": token,
        "signature": mailgun_signature(timestamp, token),
    }, **webhook)

    assert answer.status_code == 200
    received = InboundMail.objects.get()
    assert received.message_id == "<mailgun-1@example.com>"
    assert received.status == InboundMail.APPLIED, received.detail
    assert Event.objects.filter(game=game, type="defense_set").exists()


def test_it_refuses_a_mailgun_call_with_a_bad_signature(client, game, charlie, webhook):
    timestamp, token = str(int(time.time())), "b" * 50
    raw = rfc822(charlie.email, address_of(game, charlie), "resign")

    answer = client.post("/anymail/mailgun/inbound/", {
        "body-mime": raw.decode(), "timestamp": timestamp, "token": token,
        "signature": "0" * 64,
    }, **webhook)

    assert answer.status_code in (400, 403)
    assert not InboundMail.objects.exists()
    assert not Event.objects.filter(game=game, type="player_dropped").exists()


# ---- reply addresses are scoped to a window of turns ----------------------------------
def test_it_refuses_an_address_from_rounds_ago_and_says_so(game, alice):
    stale = links.reply_address(game.pk, seat_of(game, alice), alice.pk, 0)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(
        turn=links.reply_window(game.players) + 1)
    version = game.version

    reply = mail_moves.receive(alice.email, [stale], "<stale@example.com>", "defense one")

    assert reply.status == InboundMail.REFUSED and "expired" in reply.detail
    game.refresh_from_db()
    assert game.version == version
    answer = Notification.objects.get(kind=Notification.REPLY, user=alice)
    assert "expired" in answer.payload["error"]


def test_it_accepts_an_address_within_its_window(game, alice):
    game.refresh_from_db()
    address = links.reply_address(game.pk, seat_of(game, alice), alice.pk, game.turn)
    Game.objects.filter(pk=game.pk).update(turn=game.turn + links.reply_window(game.players))

    reply = mail_moves.receive(alice.email, [address], "<fresh@example.com>", "defense one")

    assert reply.status == InboundMail.APPLIED


def test_a_forged_turn_breaks_the_signature(game, alice):
    game.refresh_from_db()
    address = links.reply_address(game.pk, seat_of(game, alice), alice.pk, 0)
    forged = address.replace(f"+{game.pk}-{seat_of(game, alice)}-0-",
                             f"+{game.pk}-{seat_of(game, alice)}-999-")

    assert mail_moves.receive(alice.email, [forged], "<f@example.com>", "defense one").status \
        == InboundMail.REFUSED
