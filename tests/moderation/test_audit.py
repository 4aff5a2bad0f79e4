"""A moderator's history across games: their actions (events with `by`) and report closings."""

from __future__ import annotations

from games.moderation import moderate
from moderation.audit import history
from moderation.chat import hide_message, post_message
from moderation.models import Report
from moderation.reports import close_report
from tests.moderation.support import started_game
from tests.people import client_for, moderator, user


def test_it_lists_a_moderators_actions_across_games(game, alice, bob, maud):
    other = started_game([user("erin"), user("frank")])
    moderate(game, maud, "pause", "break")
    moderate(other, maud, "abort", "cheating")
    hide_message(post_message(game, alice, "rude"), maud, "insult")
    close_report(Report.objects.create(reporter=bob, game=game, reason="x"), maud, "sorted")
    moderate(game, moderator("otto"), "resume", "otto's doing")
    kinds = [entry["kind"] for entry in history("maud")]
    assert sorted(kinds) == ["chat_hidden", "game_aborted", "game_paused", "report_closed"]
    assert kinds[0] == "report_closed"  # newest first
    page = client_for(maud).get("/moderation/audit/").content.decode()
    assert "Moderator maud paused the game. Reason: break" in page
    assert "Moderator maud ended the game without a winner. Reason: cheating" in page
    assert f"/moderation/games/{other.pk}/" in page and "sorted" in page
    assert "otto&#x27;s doing" not in page


def test_it_shows_another_moderators_history(game, maud):
    moderate(game, moderator("otto"), "pause", "for otto")
    page = client_for(maud).get("/moderation/audit/?moderator=otto").content.decode()
    assert "Moderator otto paused the game. Reason: for otto" in page


def test_it_includes_drops_extensions_and_replacements(alice, bob, charlie, maud):
    from datetime import timedelta

    game = started_game([alice, bob, charlie])
    moderate(game, maud, "extend_deadline", "holiday", until=game.deadline + timedelta(days=1))
    moderate(game, maud, "replace_player", "left", seat=1, replacement=user("erin"))
    moderate(game, maud, "drop", "abusive", seat=2)
    moderate(game, maud, "end_turn", "absent")
    kinds = {entry["kind"] for entry in history("maud")}
    assert kinds == {"deadline_extended", "player_replaced", "player_dropped",
                     "moderator_ended_turn"}
    texts = " ".join(entry["text"] for entry in history("maud"))
    assert "handed seat Blue from bob to erin" in texts
    assert "removed Green (charlie) from the game" in texts
