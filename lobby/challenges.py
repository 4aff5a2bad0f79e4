"""A challenge: a private game made for one opponent, the challenger seated and the
opponent invited by name, with the rules the challenger chose."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import Game
from lobby import invitations, open_games


def challenge(challenger, opponent_name, players, rules_raw=None, deadline_seconds=None,
              rated=None) -> Game:
    """The new private game, its opponent invited (and told); nothing at all if any of it
    is refused."""
    opponent = invitations.player_named(opponent_name)
    if challenger is not None and opponent.pk == challenger.pk:
        raise ServiceError(400, "cannot_invite_yourself", "you cannot challenge yourself")
    name = _("%(challenger)s challenges %(opponent)s") % {
        "challenger": challenger.get_username(), "opponent": opponent.username}
    with transaction.atomic():
        game = open_games.create_game(challenger, name[:100], players, rules_raw,
                                 deadline_seconds, rated=rated, private=True)
        invitations.invite(game, challenger, opponent.username)
    return game
