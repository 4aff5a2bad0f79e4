"""Reports by players (web form and API), the moderation queue, and closing with a note."""

from __future__ import annotations

from moderation.chat import hide_message, post_message
from moderation.models import Report
from tests.games_in_states import open_game
from tests.moderation.support import page_messages, started_game
from tests.people import client_for, moderator, token_client_for, user


def test_it_files_a_report_on_a_game_from_the_web_form(game, bob):
    form = client_for(bob).get(f"/reports/new/?game={game.pk}")
    assert form.status_code == 200 and "Report a game" in form.content.decode()
    answer = client_for(bob).post("/reports/new/", {"game": game.pk, "reason": "alice stalls"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    report = Report.objects.get()
    assert (report.reporter, report.game, report.message, report.reason, report.status) == (
        bob, game, None, "alice stalls", Report.OPEN)


def test_it_files_a_report_on_a_message(game, alice, charlie):
    message = post_message(game, alice, "<b>insult</b>")
    form = client_for(charlie).get(f"/reports/new/?game={game.pk}&message={message.pk}")
    assert "&lt;b&gt;insult&lt;/b&gt;" in form.content.decode()
    client_for(charlie).post("/reports/new/", {"game": game.pk, "message": message.pk,
                                        "reason": "insult"})
    assert Report.objects.get().message == message


def test_it_wants_a_signed_in_reporter_and_a_reason(game, bob):
    answer = client_for(None).get(f"/reports/new/?game={game.pk}")
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert client_for(bob).post("/reports/new/", {"game": game.pk, "reason": ""}).status_code == 400
    assert client_for(bob).get("/reports/new/?game=99999").status_code == 404
    assert Report.objects.count() == 0


def test_it_refuses_a_second_open_report_on_the_same_thing(game, bob):
    client_for(bob).post("/reports/new/", {"game": game.pk, "reason": "stalling"})
    answer = client_for(bob).post("/reports/new/", {"game": game.pk, "reason": "still"})
    assert answer.status_code == 400 and "already" in answer.content.decode()
    assert Report.objects.count() == 1


def test_it_files_a_report_over_the_api(game, alice, bob):
    message = post_message(game, alice, "rude")
    answer = token_client_for(bob).post("/api/v1/reports/", {"game": game.pk, "message": message.pk,
                                                "reason": "rude"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert body["game"] == game.pk and body["message"] == message.pk
    assert body["status"] == "open" and body["reason"] == "rude"
    assert token_client_for(bob).get("/api/v1/reports/").json()[0]["id"] == body["id"]
    assert token_client_for(alice).get("/api/v1/reports/").json() == []


def test_it_refuses_bad_reports_over_the_api(game, alice, bob):
    other = started_game([user("erin"), user("frank")])
    elsewhere = post_message(other, user("erin"), "hi")
    hidden = post_message(game, alice, "bad")
    hide_message(hidden, moderator("maud"), "bad")
    cases = [
        ({"reason": "x"}, 400), ({"game": "1", "reason": "x"}, 400),
        ({"game": True, "reason": "x"}, 400), ({"game": 2**70, "reason": "x"}, 400),
        ({"game": game.pk}, 400), ({"game": game.pk, "reason": "\x00"}, 400),
        ({"game": 999999, "reason": "x"}, 404),
        ({"game": game.pk, "message": elsewhere.pk, "reason": "x"}, 404),
        ({"game": game.pk, "message": hidden.pk, "reason": "x"}, 404),
        ({"game": game.pk, "message": "x", "reason": "x"}, 400),
    ]
    for body, status in cases:
        answer = token_client_for(bob).post("/api/v1/reports/", body, format="json")
        assert answer.status_code == status, (body, answer.content)
        assert set(answer.json()) == {"error", "detail"}
    assert token_client_for(None).post("/api/v1/reports/", {"game": game.pk, "reason": "x"},
                          format="json").status_code == 401
    assert Report.objects.count() == 0


def test_it_lists_open_reports_in_the_queue(game, alice, bob, maud):
    message = post_message(game, alice, "<i>rude</i>")
    client_for(bob).post("/reports/new/", {"game": game.pk, "message": message.pk,
                                    "reason": "<script>x</script>"})
    page = client_for(maud).get("/moderation/").content.decode()
    report = Report.objects.get()
    assert f'id="report-{report.pk}"' in page
    assert f"/moderation/games/{game.pk}/#message-{message.pk}" in page
    assert "&lt;i&gt;rude&lt;/i&gt;" in page and "&lt;script&gt;x" in page
    assert "<script>x" not in page


def test_it_closes_a_report_with_a_note(game, bob, maud):
    report = Report.objects.create(reporter=bob, game=game, reason="stalling")
    answer = client_for(maud).post(f"/moderation/reports/{report.pk}/close/",
                            {f"r{report.pk}-note": "talked to alice"}, follow=True)
    assert "is closed" in " ".join(page_messages(answer))
    report.refresh_from_db()
    assert report.status == Report.CLOSED and report.closed_by == maud
    assert report.note == "talked to alice" and report.closed_at is not None
    assert f'id="report-{report.pk}"' not in client_for(maud).get("/moderation/").content.decode()


def test_it_refuses_to_close_without_a_note_or_twice(game, bob, maud):
    report = Report.objects.create(reporter=bob, game=game, reason="stalling")
    client_for(maud).post(f"/moderation/reports/{report.pk}/close/", {f"r{report.pk}-note": ""})
    assert Report.objects.get().status == Report.OPEN
    client_for(maud).post(f"/moderation/reports/{report.pk}/close/", {f"r{report.pk}-note": "ok"})
    answer = client_for(maud).post(f"/moderation/reports/{report.pk}/close/",
                            {f"r{report.pk}-note": "again"}, follow=True)
    assert "already closed" in " ".join(page_messages(answer))
    assert Report.objects.get().note == "ok"


def test_it_lets_no_player_close_a_report(game, alice, bob):
    report = Report.objects.create(reporter=bob, game=game, reason="stalling")
    answer = client_for(alice).post(f"/moderation/reports/{report.pk}/close/",
                             {f"r{report.pk}-note": "nope"})
    assert answer.status_code == 403 and Report.objects.get().status == Report.OPEN


def test_it_reports_on_games_not_started(alice, bob):
    game = open_game(alice, 3, "Offensive name")
    answer = token_client_for(bob).post("/api/v1/reports/", {"game": game.pk, "reason": "the name"},
                           format="json")
    assert answer.status_code == 201
