"""How a refused command or form reads on a page: in the player's words (words.refusals:
the detail as a sentence, territories by name), never a field's name."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.shortcuts import redirect

from accounts.bots import is_bot_account
from accounts.bots import refusal as bot_refusal
from words.refusals import refusal_words

from ..commands import FormProblem


def refusal_text(error: Exception, board=None) -> str:
    """`board`: the game's map, whose territories the detail names (default classic)."""
    if isinstance(error, FormProblem):
        return error.text
    return refusal_words(getattr(error, "code", ""), getattr(error, "detail", str(error)),
                         board)


def people_only(view):
    """A page's form that plays, joins, seats or invites: a bot account plays only through
    the API (docs/bots/contract.md "Bot accounts"), so it is told so and sent back to the game (or
    home), with nothing done. It may still sign in and read."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        if is_bot_account(request.user):
            messages.error(request, bot_refusal())
            game_id = kwargs.get("game_id")
            return redirect("game", game_id=game_id) if game_id else redirect("home")
        return view(request, *args, **kwargs)

    return guarded
