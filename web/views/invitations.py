"""The pages' side of private games and invitations: the invitation link, inviting by
name, withdrawing, declining, renewing the link, challenging a player from their page,
and the rule every game page follows: a private game the viewer may not know of is a
404, as a game that does not exist. Thin: parse, call lobby.invitations, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import throttles
from engine.errors import RuleViolation
from games import visibility
from games.errors import ServiceError
from games.models import Game
from games.store.row import Loaded, load_game
from lobby import challenges, invitations

from ..forms.invitations import ChallengeForm
from ..forms.lobby import created_too_many
from .refusals import people_only, refusal_text


def visible_game(request, game_id) -> Loaded:
    """The game of a page's URL with its seats (one query: games.store.row), or 404 (a private
    game the viewer may not know of too)."""
    loaded = load_game(game_id)
    if loaded is None or not visibility.page_may_see(request, loaded.game, loaded.seats):
        raise Http404("No game matches the given query.")
    return loaded


def refused(error: Exception, username: str = "") -> str:
    """An invitation's refusal in the reader's words."""
    name = {"name": username}
    texts = {
        "unknown_player": _("There is no player named %(name)s.") % name,
        "cannot_invite_yourself": _("You cannot invite or challenge yourself."),
        "already_seated": _("%(name)s already plays in this game.") % name,
        "already_invited": _("%(name)s is already invited to this game.") % name,
        "invitation_declined": _("%(name)s declined an invitation to this game.") % name,
        "too_many_invitations": _("This game has too many open invitations: withdraw "
                                  "some first."),
        "not_invited": _("There is no open invitation to withdraw or decline."),
        "game_not_open": _("The game has started or was cancelled: invitations are closed."),
        "game_full": _("Every seat of this game is taken."),
        "not_creator": _("Only the game's creator can do that."),
        "not_private": _("Only a private game has an invitation link."),
        "bad_request": _("Type the name of a player."),
    }
    code = getattr(error, "code", "")
    return texts[code] if code in texts else refusal_text(error)


def link_url(request, game: Game) -> str | None:
    token = visibility.link_token(game)
    return request.build_absolute_uri(reverse("invite-link", args=[token])) if token else None


def panel(request, game: Game) -> dict:
    """What the game page shows of invitations: to the creator of an open game its link
    (private) and its invitations, to an invitee their invitation."""
    user = request.user
    if game.status != Game.OPEN or not user.is_authenticated:
        return {}
    if game.creator_id == user.pk:
        return {"invite_panel": {"creator": True, "link": link_url(request, game),
                                 "invitations": invitations.of_game(game)}}
    pending = invitations.pending_of(game, user)
    token = visibility.session_token(request.session, game.pk)
    if pending is None and not visibility.token_fits(game, token):
        return {}
    return {"invite_panel": {"creator": False, "pending": pending,
                             "by": pending.invited_by.username if pending
                             else game.creator.username}}


def invite_link(request, token):
    """An invitation link: the game's page opens for whoever follows it (kept in their
    session), signed in or not; a bad or renewed link says so."""
    game = visibility.game_for_token(token)
    if game is None:
        return render(request, "games/invite_invalid.html", status=404)
    tokens = request.session.get(visibility.SESSION_KEY)
    tokens = dict(tokens) if isinstance(tokens, dict) else {}
    tokens[str(game.pk)] = token
    request.session[visibility.SESSION_KEY] = dict(list(tokens.items())[-20:])
    return redirect("game", game_id=game.pk)


def _act(request, game_id, act, done, username=""):
    game = visible_game(request, game_id).game
    try:
        act(game)
    except (ServiceError, RuleViolation) as error:
        messages.error(request, refused(error, username))
    else:
        messages.success(request, done)
    return redirect(reverse("game", args=[game.pk]) + "#invitations")


@require_POST
@login_required
@people_only
def invite(request, game_id):
    username = request.POST.get("username", "").strip()
    return _act(request, game_id,
                lambda game: invitations.invite(game, request.user, username),
                _("%(name)s is invited: they will find it in their notifications, unless "
                  "they block you.") % {"name": username}, username)


@require_POST
@login_required
@people_only
def withdraw(request, game_id):
    username = request.POST.get("username", "")
    return _act(request, game_id,
                lambda game: invitations.withdraw(game, request.user, username),
                _("The invitation of %(name)s is withdrawn.") % {"name": username}, username)


@require_POST
@login_required
@people_only
def renew_link(request, game_id):
    return _act(request, game_id, lambda game: invitations.renew_link(game, request.user),
                _("The game has a new invitation link: the old one no longer works."))


@require_POST
@login_required
@people_only
def decline(request, game_id):
    game = visible_game(request, game_id).game
    try:
        invitations.decline(game, request.user)
    except ServiceError as error:
        messages.error(request, refused(error))
        return redirect("game", game_id=game.pk)
    messages.success(request, _("You declined the invitation."))
    return redirect("lobby")


@require_POST
@login_required
@people_only
def challenge(request, username):
    """From a player's page: a private game with the challenger seated and the player
    invited, with the rules the challenger chose."""
    back = reverse("player", args=[username])
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the rules, the number of players and the time "
                                  "per move of the challenge."))
        return redirect(back + "#challenge")
    wait = throttles.refused(request, throttles.CREATE_GAME)
    if wait:
        messages.error(request, created_too_many(wait))
        return redirect(back + "#challenge")
    players, rules_raw = form.game_arguments()
    try:
        game = challenges.challenge(request.user, username, players, rules_raw,
                                    form.cleaned_data["deadline_seconds"])
    except (ServiceError, RuleViolation) as error:
        messages.error(request, refused(error, username))
        return redirect(back + "#challenge")
    messages.success(request, _("Challenge sent: %(name)s is invited to this private game.")
                     % {"name": username})
    return redirect("game", game_id=game.pk)
