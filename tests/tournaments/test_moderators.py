"""A moderator who entered a tournament acts on none of it: not cancelling it, not replacing
a player, not acting on any of its games (their own table or a rival's), through the API,
the pages or the admin, and not closing a report on its games: 403 `own_game`, nothing
changed. A moderator who did not enter does all of it."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model

from games.errors import ServiceError
from games.models import Game
from games.moderation import moderate
from moderation.models import Report
from moderation.permissions import make_moderator
from moderation.reports import close_report
from tests import people
from tests.games.api_support import assert_error
from tests.people import api_client_for, client_for
from tests.tournaments.support import API, close_signup, create, tables
from tournaments import moderators
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    """Eight entrants at two tables; heidi, one of them, is a moderator."""
    players = people.players(8)
    heidi = players[6]
    make_moderator(heidi)
    heidi = get_user_model().objects.get(pk=heidi.pk)
    made = create(players[0])
    for player in players:
        api_client_for(player).post(f"{API}{made['id']}/join/")
    close_signup(made["id"])
    tournament = Tournament.objects.get(pk=made["id"])
    assert tournament.status == Tournament.RUNNING
    first = tables(tournament.pk, 1)
    own = next(t.game for t in first if t.game.seats.filter(user=heidi).exists())
    rival_game = next(t.game for t in first if t.game.pk != own.pk)
    rival = rival_game.seats.get(seat=1).user
    return tournament, heidi, own, rival_game, rival


def unchanged(tournament, rival, rival_game) -> bool:
    tournament.refresh_from_db()
    rival_game.refresh_from_db()
    return (tournament.status == Tournament.RUNNING
            and Entry.objects.filter(tournament=tournament, user=rival).exists()
            and rival_game.seats.filter(user=rival).exists()
            and rival_game.status == Game.ACTIVE)


def test_the_services_refuse_an_entrant(cup):
    tournament, heidi, own, rival_game, rival = cup
    outsider = people.user("judy")
    for attempt in (lambda: moderators.cancel(tournament, heidi, "mine"),
                    lambda: moderators.replace(tournament, heidi, rival.username,
                                             outsider.username, "rival out")):
        with pytest.raises(ServiceError) as refusal:
            attempt()
        assert (refusal.value.status, refusal.value.code) == (403, "own_game")
    assert unchanged(tournament, rival, rival_game)


def test_the_api_refuses_an_entrant(cup):
    tournament, heidi, own, rival_game, rival = cup
    people.user("judy")
    url = f"{API}{tournament.pk}/"

    assert_error(api_client_for(heidi).post(f"{url}cancel/", {"reason": "x"}, format="json"),
                 403, "own_game")
    assert_error(api_client_for(heidi).post(f"{url}replace/", {
        "leaving": rival.username, "joining": "judy"}, format="json"), 403, "own_game")
    assert unchanged(tournament, rival, rival_game)


def test_the_page_refuses_an_entrant_and_offers_no_form(cup):
    tournament, heidi, own, rival_game, rival = cup
    people.user("judy")
    client = client_for(heidi)
    url = f"/tournaments/{tournament.pk}/"
    assert f'action="{url}moderate/"' not in client.get(url).content.decode()

    for data in ({"action": "cancel", "reason": "x"},
                 {"action": "replace", "leaving": rival.username, "joining": "judy"}):
        answer = client.post(f"{url}moderate/", data)
        assert answer.status_code == 403
        assert "another moderator" in answer.content.decode()
    assert unchanged(tournament, rival, rival_game)


def test_an_entrant_acts_on_no_game_of_the_tournament(cup):
    tournament, heidi, own, rival_game, rival = cup
    judy = people.user("judy")
    with pytest.raises(ServiceError) as refusal:
        moderate(rival_game, heidi, "replace_player", "rival out", seat=1, replacement=judy)
    assert refusal.value.code == "own_game"
    client = client_for(heidi)
    client.post(f"/moderation/games/{rival_game.pk}/act/", {
        "action_name": "drop", "drop-action": "drop", "drop-version": rival_game.version,
        "drop-seat": 1, "drop-reason": "rival out"})
    client.post("/admin/games/game/", {
        "action": "abort_games", ACTION_CHECKBOX_NAME: [str(rival_game.pk)], "apply": "1",
        "reason": "rival out"})
    page = client.get(f"/moderation/games/{rival_game.pk}/").content.decode()
    assert 'id="act-abort"' not in page
    assert unchanged(tournament, rival, rival_game)


def test_an_entrant_closes_no_report_on_the_tournaments_games(cup):
    tournament, heidi, own, rival_game, rival = cup
    report = Report.objects.create(reporter=rival, game=rival_game, reason="REASON-stalling")
    with pytest.raises(ServiceError) as refusal:
        close_report(report, heidi, "fine")
    assert refusal.value.code == "own_game"
    assert "REASON-stalling" not in client_for(heidi).get("/moderation/").content.decode()
    close_report(report, people.moderator("mona"), "fine")


def test_a_moderator_does_not_put_themselves_in(cup):
    tournament, heidi, own, rival_game, rival = cup
    mona = people.moderator("mona")
    with pytest.raises(ServiceError) as refusal:
        moderators.replace(tournament, mona, rival.username, "mona", "I will play")
    assert refusal.value.code == "own_game"
    assert unchanged(tournament, rival, rival_game)
    assert not Entry.objects.filter(tournament=tournament, user=mona).exists()


def test_a_moderator_who_did_not_enter_still_acts(cup):
    tournament, heidi, own, rival_game, rival = cup
    judy = people.user("judy")
    mona = people.moderator("mona")
    moderators.replace(tournament, mona, rival.username, judy.username, "rival left")
    assert rival_game.seats.filter(user=judy).exists()
    moderators.cancel(tournament, mona, "server move")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.CANCELLED
