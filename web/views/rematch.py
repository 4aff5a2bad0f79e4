"""The rematch buttons on a finished game's page: offer or accept, and decline. Thin: call
lobby.rematch, then back to the page saying what happened or why not."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ServiceError
from games.models import Game
from lobby import rematch

from .invitations import visible_game
from .refusals import people_only, refusal_text


def _back(game: Game):
    return redirect(f"{reverse('game', args=[game.pk])}#result")


@require_POST
@login_required
@people_only
def offer_or_accept(request, game_id):
    game = visible_game(request, game_id).game
    try:
        offer, offered = rematch.offer_or_accept(game, request.user,
                                                 request.POST.get("entropy") or None)
    except ServiceError as error:
        messages.error(request, refusal_text(error))
        return _back(game)
    if offer.new_game_id is not None:
        messages.success(request, _("Everyone accepted: the rematch has started."))
        return redirect("game", game_id=offer.new_game_id)
    messages.success(request, _("You offered a rematch: it starts when every player has "
                                "accepted.") if offered else _("You accepted the rematch."))
    return _back(game)


@require_POST
@login_required
@people_only
def decline(request, game_id):
    game = visible_game(request, game_id).game
    try:
        rematch.decline(game, request.user)
    except ServiceError as error:
        messages.error(request, refusal_text(error))
        return _back(game)
    messages.success(request, _("You declined the rematch."))
    return _back(game)
