"""Running one step of a tournament (the first draw, the count of a round) for the worker
and the moderators, and holding the tournament up, with the reason, when the step fails."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError

from tournaments import services
from tournaments.models import Tournament

log = logging.getLogger(__name__)

# The database being away is mended by trying again at the next sweep; anything else
# (a draw the rules refuse, a bug) would fail the same way every minute.
TRANSIENT = (OperationalError, InterfaceError)


def attempt(step, tournament: Tournament) -> int:
    """Run a step (close_signup or advance). One that fails for a reason a retry cannot
    mend holds the tournament up with that reason, for its page and the moderators' queue;
    the sweep then leaves it alone until a moderator tries again or calls it off."""
    round_number = tournament.round
    try:
        return int(step(tournament))
    except TRANSIENT:
        log.exception("tournament %s: %s failed; trying again later", tournament.pk,
                      step.__name__)
        return 0
    except Exception as error:  # noqa: BLE001 - one broken tournament must not stop others
        log.exception("tournament %s: %s failed; held up", tournament.pk, step.__name__)
        what = (f"the draw of round {round_number + 1}" if step is services.close_signup else
                f"counting round {round_number} and drawing the next")
        text = getattr(error, "detail", None) or str(error)
        hold_up(tournament, f"{what} failed: {type(error).__name__}: {text}")
        return 0


def hold_up(tournament: Tournament, reason: str) -> bool:
    updated = Tournament.objects.filter(
        pk=tournament.pk, status__in=[Tournament.SIGNUP, Tournament.RUNNING]).update(
        status=Tournament.STALLED, reason=reason[:2000])
    tournament.refresh_from_db()
    return bool(updated)


def held_up() -> list[Tournament]:
    return list(Tournament.objects.filter(status=Tournament.STALLED).order_by("id"))
