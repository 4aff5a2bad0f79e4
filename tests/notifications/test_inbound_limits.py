"""Moves by mail count against the account's command limit, the same count as the API's and
the play form's: past it a mail's next command is not done, and the answer says how long to
wait."""

from __future__ import annotations

from games.models import Event
from notifications.models import InboundMail
from tests.games.api_support import send
from tests.notifications.test_inbound import check_refused_line, mailed
from tests.people import api_client_for


def test_a_mail_stops_at_the_command_past_the_limit(three_at_first_reinforce, alice, settings):
    game = three_at_first_reinforce
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES,
                                        "command_user": "3/minute"}

    received = mailed(game, alice, "defense max\n" * 5)

    assert received.status == InboundMail.FAILED
    assert received.detail.startswith("Too fast: wait ")
    check_refused_line(received, ["defense max"] * 3, "defense max", received.detail)
    assert Event.objects.filter(game=game, type="defense_set").count() == 3


def test_the_api_and_the_mail_share_one_count(three_at_first_reinforce, alice, settings):
    game = three_at_first_reinforce
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES,
                                        "command_user": "3/minute"}
    mailed(game, alice, "defense one\ndefense max\ndefense one")

    answer = send(api_client_for(alice), game.pk, {"type": "set_defense", "policy": "max"})

    assert answer.status_code == 429
