"""A moderator's new deadline is at most a year ahead: the year 9999 was accepted, and then
every page that showed the deadline east of Greenwich failed (past any datetime there)."""

from __future__ import annotations

import pytest

from accounts.models import Preferences
from games.models import Game
from tests.moderation.support import event_count, page_messages
from tests.people import client_for

pytestmark = pytest.mark.django_db


def extend(moderator, game, until: str):
    client = client_for(moderator)
    answer = client.post(f"/moderation/games/{game.pk}/act/", {
        "action_name": "extend_deadline", "extend_deadline-action": "extend_deadline",
        "extend_deadline-version": str(game.version), "extend_deadline-until": until,
        "extend_deadline-reason": "a long holiday"}, follow=True)
    return answer


@pytest.mark.parametrize("zone", ["UTC", "America/New_York"])
def test_a_deadline_in_the_year_9999_is_refused_and_the_game_page_stays_up(game, maud, alice,
                                                                           zone):
    Preferences.objects.update_or_create(user=maud, defaults={"time_zone": zone})
    deadline, events = Game.objects.get(pk=game.pk).deadline, event_count(game)

    answer = extend(maud, game, "9999-12-31T23:59")

    assert any("at most 365 days" in text for text in page_messages(answer))
    assert Game.objects.get(pk=game.pk).deadline == deadline
    assert event_count(game) == events
    Preferences.objects.update_or_create(user=alice, defaults={"time_zone": "Asia/Tokyo"})
    assert client_for(alice).get(f"/games/{game.pk}/").status_code == 200
