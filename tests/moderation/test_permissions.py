"""Who is a moderator (the group, make_moderator) and who may open the staff-only pages."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from moderation.permissions import GROUP, PERMISSIONS
from tests.people import client_for, user

EXPECTED = {
    "games.moderate_game", "games.view_game", "games.view_seat", "games.view_event",
    "games.view_snapshot", "notifications.view_notification", "notifications.view_inboundmail",
    "moderation.view_chatmessage", "moderation.change_chatmessage", "moderation.view_report",
    "moderation.change_report",
}


def _perms(group) -> set[str]:
    return {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}


def test_it_creates_the_moderators_group_with_exactly_its_permissions(db):
    # Made by the data migration (the test database is built by migrating).
    assert _perms(Group.objects.get(name=GROUP)) == EXPECTED
    assert {f"{a}.{c}" for a, c in PERMISSIONS} == EXPECTED


def test_it_makes_a_moderator_with_the_command(charlie):
    out = StringIO()
    call_command("make_moderator", "charlie", stdout=out)
    charlie.refresh_from_db()
    assert charlie.is_staff and charlie.groups.filter(name=GROUP).exists()
    assert "moderator" in out.getvalue()
    assert charlie.has_perm("games.moderate_game")
    assert not charlie.has_perm("games.change_game")
    assert not charlie.has_perm("auth.view_user")  # users' mail addresses stay private


def test_it_takes_moderation_back_with_remove(maud):
    call_command("make_moderator", "maud", "--remove", stdout=StringIO())
    maud.refresh_from_db()
    assert not maud.is_staff and not maud.groups.filter(name=GROUP).exists()


def test_it_refuses_an_unknown_user(db):
    with pytest.raises(CommandError):
        call_command("make_moderator", "nobody", stdout=StringIO())


def test_it_recreates_a_missing_group(charlie):
    Group.objects.filter(name=GROUP).delete()
    call_command("make_moderator", "charlie", stdout=StringIO())
    assert _perms(Group.objects.get(name=GROUP)) == EXPECTED


@pytest.fixture
def staff_pages(game):
    return ["/moderation/", f"/moderation/games/{game.pk}/", "/moderation/audit/"]


def test_it_sends_anonymous_visitors_to_sign_in(staff_pages):
    for url in staff_pages:
        answer = client_for(None).get(url)
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"], url
    answer = client_for(None).get("/admin/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]


def test_it_refuses_a_plain_player(staff_pages, alice):
    for url in staff_pages:
        answer = client_for(alice).get(url)
        assert answer.status_code == 403, url
        page = answer.content.decode()  # in the site's layout, saying why, with a way on
        assert "This page is not open to you" in page and 'href="/games/"' in page, url
    assert client_for(alice).get("/admin/").status_code == 302  # the admin's own sign-in page


def test_it_refuses_staff_who_are_not_moderators(staff_pages, db):
    clerk = user("clerk")
    clerk.is_staff = True
    clerk.save()
    for url in staff_pages:
        assert client_for(clerk).get(url).status_code == 403, url


def test_it_lets_a_moderator_in(staff_pages, maud):
    for url in staff_pages:
        assert client_for(maud).get(url).status_code == 200, url
    client = client_for(maud)
    assert client.get("/admin/").status_code == 200
    for model in ("games/game", "games/seat", "games/event", "games/snapshot",
                  "notifications/notification", "notifications/inboundmail",
                  "moderation/chatmessage", "moderation/report"):
        assert client.get(f"/admin/{model}/").status_code == 200, model
    assert client.get("/admin/auth/user/").status_code == 403
    assert client.get("/admin/accounts/preferences/").status_code == 403


def test_it_links_the_moderation_pages_for_moderators_only(maud, alice):
    link = 'href="/moderation/"'
    clerk = user("clerk")
    clerk.is_staff = True
    clerk.save()

    assert link in client_for(maud).get("/games/").content.decode()
    assert link not in client_for(alice).get("/games/").content.decode()
    assert link not in client_for(clerk).get("/games/").content.decode()
