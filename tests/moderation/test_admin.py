"""The admin as a moderator uses it: read-only tables, the log in words, filters, the
actions that go through the one write path, and nothing hidden of a running game."""

from __future__ import annotations

from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from games.models import Event, Game, Snapshot
from moderation.chat import post_message
from moderation.models import ChatMessage, Report
from notifications.models import Notification
from tests.moderation.support import event_count, last_event, started_game
from tests.people import client_for, user


def superuser():
    root = user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    return root


def run_action(client, url, action, pks, **fields):
    data = {"action": action, ACTION_CHECKBOX_NAME: [str(pk) for pk in pks], **fields}
    return client.post(url, data, follow=True)


def said(answer) -> str:
    return " ".join(str(m) for m in answer.context["messages"])


def test_it_lists_games_with_filters_and_search(game, maud):
    client = client_for(maud)
    page = client.get("/admin/games/game/?status__exact=active&q=alice").content.decode()
    assert game.name in page and f"/moderation/games/{game.pk}/" in page
    assert f"/admin/games/game/{game.pk}/change/" in page
    paused = client.get("/admin/games/game/?status__exact=paused").content.decode()
    assert f"/admin/games/game/{game.pk}/change/" not in paused


def test_it_shows_no_seed_before_the_game_is_over(game, alice, maud):
    page = client_for(maud).get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.seed not in page and "hidden until the game is over" in page
    from games import service

    service.submit(service.player(alice), game, {"type": "resign"})
    page = client_for(maud).get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert game.seed in page


def test_it_shows_the_log_in_words_filtered_by_game_and_type(game, maud, alice, bob):
    other = started_game([user("erin"), user("frank")])
    client = client_for(maud)
    page = client.get(f"/admin/games/event/?game={game.pk}").content.decode()
    assert "The game started. Turn order:" in page
    rows = page.split('id="result_list"')[1].split("</table>")[0]
    assert f"#{other.pk} " not in rows and f"#{game.pk} " in rows
    typed = client.get(f"/admin/games/event/?game={game.pk}&type=game_started").content.decode()
    rows = typed.split('id="result_list"')[1].split("</table>")[0]
    assert rows.count("<tr") == 2  # the header and one row


def test_it_never_lets_anyone_edit_or_delete_an_event(game, maud):
    event = Event.objects.filter(game=game).first()
    for client in (client_for(maud), client_for(superuser())):
        assert client.get(f"/admin/games/event/{event.pk}/change/").status_code == 200
        assert client.post(f"/admin/games/event/{event.pk}/change/",
                           {"type": "forged"}).status_code == 403
        assert client.get(f"/admin/games/event/{event.pk}/delete/").status_code == 403
        assert client.post(f"/admin/games/event/{event.pk}/delete/",
                           {"post": "yes"}).status_code == 403
        assert client.get("/admin/games/event/add/").status_code == 403
    assert Event.objects.get(pk=event.pk).type == event.type


def test_it_redacts_hidden_event_data(alice, bob, maud):
    game = started_game([alice, bob], objective="missions", neutral=False)
    dealt = Event.objects.get(game=game, type="missions_dealt")
    shuffled = Event.objects.filter(game=game, type="deck_shuffled").first()
    client = client_for(maud)
    for event in (dealt, shuffled):
        page = client.get(f"/admin/games/event/{event.pk}/change/").content.decode()
        for mission in dealt.data["missions"]:
            assert mission not in page
        assert '"cards"' not in page
    page = client.get(f"/admin/games/event/?game={game.pk}").content.decode()
    for mission in dealt.data["missions"]:
        assert mission not in page


def test_it_hides_snapshots_of_running_games(game, maud, settings):
    settings.CONQUEST_SNAPSHOT_EVERY = 1
    from games.moderation import moderate

    moderate(game, maud, "pause", "snapshot please")
    snapshot = Snapshot.objects.get(game=game)
    page = client_for(maud).get(f"/admin/games/snapshot/{snapshot.pk}/change/").content.decode()
    assert "hidden until the game is over" in page and '"deck"' not in page


def test_it_pauses_games_from_the_game_admin_with_a_reason(game, maud):
    client = client_for(maud)
    asked = run_action(client, "/admin/games/game/", "pause_games", [game.pk])
    assert asked.status_code == 200 and "Reason" in asked.content.decode()
    assert event_count(game) == game.version  # nothing yet
    done = run_action(client, "/admin/games/game/", "pause_games", [game.pk], apply="yes",
                      reason="server move")
    assert "done" in said(done)
    event = last_event(game)
    assert event.type == "game_paused" and event.data == {"by": "maud",
                                                          "reason": "server move"}
    assert Game.objects.get(pk=game.pk).status == Game.PAUSED


def test_it_reports_a_refused_admin_action_and_changes_nothing(game, maud):
    before = event_count(game)
    done = run_action(client_for(maud), "/admin/games/game/", "resume_games", [game.pk],
                      apply="yes", reason="oops")
    assert "nothing was done" in said(done) and "not paused" in said(done)
    assert event_count(game) == before


def test_it_offers_no_game_actions_to_staff_without_the_permission(game):
    clerk = user("clerk")
    clerk.is_staff = True
    clerk.save()
    from django.contrib.auth.models import Permission

    clerk.user_permissions.add(Permission.objects.get(codename="view_game"))
    before = event_count(game)
    page = client_for(clerk).get("/admin/games/game/").content.decode()
    assert "pause_games" not in page
    run_action(client_for(clerk), "/admin/games/game/", "pause_games", [game.pk], apply="yes",
               reason="x")
    assert event_count(game) == before


def test_it_hides_chat_messages_from_the_admin(game, alice, maud):
    message = post_message(game, alice, "rude")
    done = run_action(client_for(maud), "/admin/moderation/chatmessage/", "hide_messages",
                      [message.pk], apply="yes", reason="rude words")
    assert "hidden" in said(done)
    assert ChatMessage.objects.get().hidden
    assert last_event(game).data["reason"] == "rude words"


def test_it_closes_reports_from_the_admin(game, bob, maud):
    report = Report.objects.create(reporter=bob, game=game, reason="stalling")
    run_action(client_for(maud), "/admin/moderation/report/", "close_reports", [report.pk],
               apply="yes", reason="handled")
    report.refresh_from_db()
    assert report.status == Report.CLOSED and report.note == "handled"
    assert report.closed_by == maud


def test_it_shows_mail_delivery_state(game, maud):
    client = client_for(maud)
    assert Notification.objects.filter(game=game).exists()
    for state in ("sent", "waiting", "failing", "skipped"):
        assert client.get(f"/admin/notifications/notification/?delivery={state}")\
            .status_code == 200
    waiting = client.get("/admin/notifications/notification/?delivery=waiting&kind__exact=turn")
    assert "turn" in waiting.content.decode()


def test_it_keeps_players_out_of_the_admin(game, alice):
    answer = client_for(alice).get("/admin/games/event/")
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]


def test_it_makes_moderators_from_the_user_admin(charlie):
    run_action(client_for(superuser()), "/admin/auth/user/", "make_moderators", [charlie.pk])
    charlie.refresh_from_db()
    assert charlie.is_staff and charlie.groups.filter(name="moderators").exists()
