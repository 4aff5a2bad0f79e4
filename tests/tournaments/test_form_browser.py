"""The tournament form in a real browser: a preset fills in the lobby's rule fields, the
tournament's own fields leave the preset alone, touching a rule makes it Custom, and the
tournament is opened with the rules on screen."""

from __future__ import annotations

import pytest

from tests import people
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_organiser_picks_a_preset_then_changes_a_rule(browser, live_server, contexts):
    people.with_password("alice")
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    contexts.append(context)
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{live_server.url}/accounts/login/?next=/tournaments/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", people.PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/tournaments/")

    form = page.locator("#create-tournament")
    assert form.locator('[name=preset][value=classic]').is_checked()
    assert form.locator('[name=initial_placement][value=simultaneous]').is_checked()
    form.locator('[name=preset][value=rulebook]').check()
    assert form.locator('[name=initial_placement][value=turns]').is_checked()
    page.fill("#id_name", "Browser cup")
    page.select_option("#id_seats", "3")  # the tournament's own: the preset stays
    assert form.locator('[name=preset][value=rulebook]').is_checked()
    form.locator("details.rules summary").click()
    form.locator("#id_fog").check()  # a rule: now Custom
    assert form.locator('[name=preset][value=custom]').is_checked()
    page.select_option("#id_deadline_seconds", "3600")
    page.get_by_role("button", name="Open sign-up").click()
    page.wait_for_url(f"{live_server.url}/tournaments/*/")

    made = Tournament.objects.get(name="Browser cup")
    assert made.seats == 3 and made.deadline_seconds == 3600
    assert made.rules["fog"] is True and made.rules["initial_placement"] == "turns"
    assert problems == []
