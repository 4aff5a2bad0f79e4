"""Who reads a team's chat line, walked over every surface with every kind of reader.

In a four-seat team game alice (seat 0) and carol (seat 2) are team 0, bob (1) and dave (3)
team 1; bob is also a moderator. charlie plays nothing, an anonymous visitor watches, and
maud moderates without playing. alice writes to her team and carol reports the line.

Where players read (the chat API, the chat box and its page, the game page, the report form
and the report API, turn mail) only alice's team reads the line. Where moderators work (the
queue, the moderation page of the game, the audit, the admin with its search and filters)
only a moderator with no stake in the game does: bob never, on any surface."""

from __future__ import annotations

import pytest

from moderation.mail import chat_for_mails
from moderation.models import ChatMessage, Report
from moderation.reports import close_report
from notifications.mail import Reader
from notifications.models import Notification
from tests.moderation.support import started_game
from tests.people import client_for, moderator, token_client_for, user

SECRET = "RED-PLAN-flank-through-siam"
REASON = "REASON-carol-worries"
READERS = ["teammate", "opponent", "spectator", "stranger", "moderator_in_game",
           "moderator_outside"]


@pytest.fixture
def table(db):
    """The game, its team line and carol's report on it, and every kind of reader."""
    alice, bob, carol, dave = user("alice"), moderator("bob"), user("carol"), user("dave")
    game = started_game([alice, bob, carol, dave], team_size=2)
    answer = token_client_for(alice).post(f"/api/v1/games/{game.pk}/chat/", {"text": SECRET, "team": True},
                             format="json")
    assert answer.status_code == 201, answer.content
    token_client_for(bob).post(f"/api/v1/games/{game.pk}/chat/", {"text": "good luck all"}, format="json")
    line = ChatMessage.objects.get(text=SECRET)
    answer = token_client_for(carol).post("/api/v1/reports/", {"game": game.pk, "message": line.pk,
                                                  "reason": REASON}, format="json")
    assert answer.status_code == 201, answer.content
    readers = {"teammate": carol, "opponent": dave, "spectator": None,
               "stranger": user("charlie"), "moderator_in_game": bob,
               "moderator_outside": moderator("maud")}
    return game, line, readers


def player_surfaces(game, line, who) -> dict:
    """Every answer a player's surface gives `who` about the game's chat."""
    chat = f"/games/{game.pk}/chat/"
    return {
        "chat API": token_client_for(who).get(f"/api/v1/games/{game.pk}/chat/"),
        "chat API after": token_client_for(who).get(f"/api/v1/games/{game.pk}/chat/?after={line.pk - 1}"),
        "game page": client_for(who).get(f"/games/{game.pk}/"),
        "chat page": client_for(who).get(chat),
        "chat lines": client_for(who).get(chat, headers={"X-Chat-Fragment": "lines"}),
        "chat box": client_for(who).get(chat, headers={"X-Chat-Fragment": "box"}),
        "htmx lines": client_for(who).get(f"{chat}?part=lines", headers={"HX-Request": "true"}),
        "report form": client_for(who).get(f"/reports/new/?game={game.pk}&message={line.pk}"),
    }


def moderation_surfaces(game, line, who) -> dict:
    report = Report.objects.get(message=line, reason=REASON)
    admin_lines, admin_reports = "/admin/moderation/chatmessage/", "/admin/moderation/report/"
    return {
        "queue": client_for(who).get("/moderation/"),
        "game": client_for(who).get(f"/moderation/games/{game.pk}/"),
        "audit": client_for(who).get("/moderation/audit/?moderator=otto"),
        "admin lines": client_for(who).get(admin_lines),
        "admin line search": client_for(who).get(f"{admin_lines}?q={SECRET[:8]}"),
        "admin line filters": client_for(who).get(f"{admin_lines}?game={game.pk}&hidden__exact=0"),
        "admin line": client_for(who).get(f"{admin_lines}{line.pk}/change/", follow=True),
        "admin reports": client_for(who).get(admin_reports),
        "admin report search": client_for(who).get(f"{admin_reports}?q={REASON[:10]}"),
        "admin report filters": client_for(who).get(f"{admin_reports}?game={game.pk}&status=open"),
        "admin report": client_for(who).get(f"{admin_reports}{report.pk}/change/", follow=True),
    }


def shown(answer) -> str:
    return answer.content.decode()


@pytest.mark.parametrize("kind", READERS)
def test_only_the_team_reads_its_line_where_players_read(table, kind):
    game, line, readers = table
    reads = kind == "teammate"

    for surface, answer in player_surfaces(game, line, readers[kind]).items():
        assert (SECRET in shown(answer)) == reads, (surface, kind)
        if surface.startswith("chat"):
            assert "good luck all" in shown(answer), (surface, kind)
    report_form = player_surfaces(game, line, readers[kind])["report form"]
    assert report_form.status_code == (200 if reads else 302 if kind == "spectator" else 404)


# Where a moderator free to moderate the game finds the line's text, and the report's reason.
SHOWS_LINE = {"queue", "game", "admin lines", "admin line search", "admin line filters",
              "admin line", "admin report"}
SHOWS_REASON = {"queue", "game", "admin reports", "admin report search",
                "admin report filters", "admin report"}


@pytest.mark.parametrize("kind", READERS)
def test_only_a_moderator_without_a_stake_reads_it_where_moderators_work(table, kind):
    game, line, readers = table
    otto = moderator("otto")
    other = Report.objects.create(reporter=readers["teammate"], game=game, message=line,
                                  reason="carol again")
    close_report(other, otto, "seen it")  # the audit lists otto's closing, naming carol
    reads = kind == "moderator_outside"

    for surface, answer in moderation_surfaces(game, line, readers[kind]).items():
        assert (SECRET in shown(answer)) == (reads and surface in SHOWS_LINE), (surface, kind)
        assert (REASON in shown(answer)) == (reads and surface in SHOWS_REASON), (
            surface, kind)
        if surface == "audit":
            assert ("from carol" in shown(answer)) == reads, kind
    if kind in ("moderator_in_game", "moderator_outside"):
        client = client_for(readers[kind])
        for url in (f"/admin/moderation/chatmessage/{line.pk}/change/",
                    f"/admin/moderation/chatmessage/{line.pk}/history/",
                    f"/admin/moderation/report/{other.pk}/change/"):
            # Django's admin sends an object its list does not hold back to the index.
            assert client.get(url).status_code == (200 if reads else 302), (url, kind)


def test_the_admin_search_and_filters_count_no_line_a_moderator_may_not_read(table):
    game, line, readers = table
    lines, reports = "/admin/moderation/chatmessage/", "/admin/moderation/report/"
    for who, expected in ((readers["moderator_outside"], 1), (readers["moderator_in_game"], 0)):
        client = client_for(who)
        for url in (f"{lines}?q={SECRET[:8]}", f"{lines}?q=alice&game={game.pk}",
                    f"{lines}?q={SECRET[:8]}&game={game.pk}&hidden__exact=0",
                    f"{reports}?q={REASON[:10]}", f"{reports}?game={game.pk}",
                    f"{reports}?q=carol"):
            assert client.get(url).context["cl"].result_count == expected, (url, who)
        # A lookup the filters do not offer answers no question about the text.
        assert client.get(f"{lines}?text__startswith=RED").status_code == 400
        assert client.get(f"{lines}?team__exact=0").status_code == 400
        assert client.get(f"{reports}?message__text__startswith=RED").status_code == 400


@pytest.mark.parametrize("kind", READERS)
def test_only_the_team_may_report_the_line(table, kind):
    game, line, readers = table
    who = readers[kind]
    Report.objects.all().delete()  # carol's own report aside
    before = 0
    form = client_for(who).post("/reports/new/", {"game": game.pk, "message": line.pk,
                                           "reason": "seen it"})
    answer = token_client_for(who).post("/api/v1/reports/", {"game": game.pk, "message": line.pk,
                                                "reason": "seen it too"}, format="json")

    if kind == "teammate":
        assert form.status_code == 302 and answer.status_code == 400  # already reported
        assert Report.objects.count() == before + 1
    else:
        assert form.status_code == (302 if who is None else 404), kind
        assert answer.status_code == (401 if who is None else 404), kind
        assert SECRET not in shown(form) + shown(answer)
        assert Report.objects.count() == before


def test_a_line_that_is_not_readable_answers_as_one_that_does_not_exist(table):
    game, line, readers = table
    dave = readers["opponent"]
    missing = ChatMessage.objects.order_by("-pk").first().pk + 1000
    for message in (line.pk, missing):
        page = client_for(dave).get(f"/reports/new/?game={game.pk}&message={message}")
        answer = token_client_for(dave).post("/api/v1/reports/", {"game": game.pk, "message": message,
                                                     "reason": "probe"}, format="json")
        assert page.status_code == 404 and answer.status_code == 404
        assert answer.json() == {"error": "not_found", "detail": "no such message in this game"}


@pytest.mark.parametrize("kind", ["teammate", "opponent", "stranger", "moderator_in_game",
                                  "moderator_outside"])
def test_turn_mail_quotes_the_line_only_to_the_team(table, kind):
    game, line, readers = table
    who = readers[kind]
    note = Notification.objects.create(user=who, game=game, kind=Notification.TURN,
                                       event_seq=game.version)
    seats = {(game.pk, seat.user_id): seat.seat for seat in game.seats.all()}
    one = Reader().chat(note, {}).get("chat", [])
    many = chat_for_mails([note], seats).get(note.pk, {}).get("chat", [])

    assert one == many
    assert any("good luck all" in text for text in one)
    assert any(SECRET in text for text in one) == (kind == "teammate")
