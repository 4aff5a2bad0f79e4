"""A moderator handles no report about themselves: on their own chat line, or on a game they
play in. They may not close it (403 own_game) on the queue, the admin or through the
service, and they do not see its details (who reported, why, a hidden line's text) on any
moderation page; another moderator does both."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from games.errors import ServiceError
from games.moderation import moderate
from moderation.chat import hide_message, post_message
from moderation.models import Report
from moderation.reports import close_report
from tests.moderation.support import page_messages, started_game
from tests.people import client_for, moderator, user

REASON = "REASON-bob-insulted-me"
GAME_REASON = "GAME-REASON-bob-stalls"


@pytest.fixture
def reported(db):
    """bob, a moderator, plays alice; alice reports his line, and the game."""
    alice, bob = user("alice"), moderator("bob")
    game = started_game([alice, bob])
    line = post_message(game, bob, "BOB-LINE you fool")
    on_line = Report.objects.create(reporter=alice, game=game, message=line, reason=REASON)
    on_game = Report.objects.create(reporter=alice, game=game, reason=GAME_REASON)
    return game, bob, line, [on_line, on_game]


def test_the_service_refuses_to_close_a_report_about_the_moderator(reported):
    game, bob, line, reports = reported
    for report in reports:
        with pytest.raises(ServiceError) as refusal:
            close_report(report, bob, "nothing wrong")
        assert (refusal.value.status, refusal.value.code) == (403, "own_game")
        report.refresh_from_db()
        assert report.status == Report.OPEN and report.closed_by is None
    close_report(reports[0], moderator("maud"), "warned bob")
    assert Report.objects.get(pk=reports[0].pk).status == Report.CLOSED


def test_the_queue_refuses_and_hides_them(reported):
    game, bob, line, reports = reported
    client = client_for(bob)
    answer = client.post(f"/moderation/reports/{reports[0].pk}/close/",
                         {f"r{reports[0].pk}-note": "nothing wrong"}, follow=True)
    assert any("another moderator" in text for text in page_messages(answer))
    assert Report.objects.filter(status=Report.OPEN).count() == 2
    for url in ("/moderation/", f"/moderation/games/{game.pk}/"):
        page = client.get(url).content.decode()
        assert REASON not in page and GAME_REASON not in page, url
        assert "Reported by alice" not in page, url
        assert f"/moderation/reports/{reports[0].pk}/close/" not in page, url
    queue = client_for(moderator("maud")).get("/moderation/").content.decode()
    assert REASON in queue and "BOB-LINE" in queue


def test_the_admin_neither_lists_nor_closes_them(reported):
    game, bob, line, reports = reported
    client = client_for(bob)
    listed = client.get("/admin/moderation/report/")
    assert listed.context["cl"].result_count == 0 and REASON not in listed.content.decode()
    assert client.get(f"/admin/moderation/report/{reports[0].pk}/change/").status_code == 302
    client.post("/admin/moderation/report/", {
        "action": "close_reports", ACTION_CHECKBOX_NAME: [str(r.pk) for r in reports],
        "apply": "1", "reason": "nothing wrong"}, follow=True)
    assert Report.objects.filter(status=Report.OPEN).count() == 2
    assert client_for(moderator("maud")).get("/admin/moderation/report/").context[
        "cl"].result_count == 2


def test_a_report_on_their_line_stays_theirs_after_they_left_the_game(reported):
    game, bob, line, reports = reported
    maud = moderator("maud")
    moderate(game, maud, "replace_player", "bob moderates now", seat=1,
             replacement=user("erin"))
    assert not game.seats.filter(user=bob).exists()

    with pytest.raises(ServiceError) as refusal:
        close_report(reports[0], bob, "mine, but I left")

    assert refusal.value.code == "own_game"
    queue = client_for(bob).get("/moderation/").content.decode()
    # His line stays his; the game is no longer his once he holds no seat in it.
    assert REASON not in queue and GAME_REASON in queue
    close_report(reports[1], bob, "he left")


def test_a_playing_moderator_reads_no_hidden_line_of_their_game(reported):
    game, bob, line, reports = reported
    alice = game.seats.get(seat=0).user
    rude = post_message(game, alice, "HIDDEN-RUDE-LINE")
    hide_message(rude, moderator("maud"), "rude")
    for url in (f"/moderation/games/{game.pk}/", "/moderation/",
                "/admin/moderation/chatmessage/", f"/games/{game.pk}/chat/",
                "/admin/moderation/chatmessage/?q=HIDDEN", f"/api/v1/games/{game.pk}/chat/"):
        assert "HIDDEN-RUDE-LINE" not in client_for(bob).get(url).content.decode(), url
    assert "HIDDEN-RUDE-LINE" in client_for(moderator("otto")).get(
        f"/moderation/games/{game.pk}/").content.decode()


def test_the_audit_shows_them_no_closing_of_a_report_about_them(reported):
    game, bob, line, reports = reported
    close_report(reports[0], moderator("maud"), "NOTE-warned-bob")
    assert "NOTE-warned-bob" not in client_for(bob).get(
        "/moderation/audit/?moderator=maud").content.decode()
    assert "NOTE-warned-bob" in client_for(moderator("otto")).get(
        "/moderation/audit/?moderator=maud").content.decode()
