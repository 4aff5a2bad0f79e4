"""The game page and its forms: the page (live or at a past move), its poll, and a command
posted from it. Thin: parse the form, call games.service.submit, render what the viewer's
seat may see (web/page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import throttles
from engine import events as ev
from engine.errors import RuleViolation
from engine.moves import decision
from games import seat_views, service
from games.boards import board_of_game
from games.errors import ServiceError
from games.models import Game
from games.store.append import VersionConflict
from games.store.states import load_state
from lib.inputs import whole_number
from notifications import presence
from words import narrator
from words.refusals import too_fast

from ..commands import FormProblem, payload_from_post
from ..page import game_context, stamp
from ..page.board_list import board_rows
from .invitations import panel, visible_game
from .refusals import bot_refusal, is_bot_account, refusal_text

# The form the refusal of each command is shown next to.
FORM_OF = {"set_defense": "defense"}


def _fragment(request) -> bool:
    """An htmx request that swaps the game area (not a boosted whole page)."""
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


def _at(request, game):
    return whole_number(request.GET.get("at", ""), 1, game.version - 1)


def render_game(request, game, seats, *, at=None, selected=None, form_error=None,
                posted=None, conflict=None, status=200):
    context = game_context(game, seats, request.user, at=at, selected=selected,
                           log_page=request.GET.get("log"), posted=posted)
    context.update({"form_error": form_error, "conflict": conflict, **panel(request, game)})
    template = "games/_game.html" if _fragment(request) else "games/game.html"
    return render(request, template, context, status=status)


def visitor_refused(request) -> HttpResponse | None:
    """A visitor not signed in reading a game's pages faster than settings allow (the
    game_page_ip rate): the refusal, 429 with when to come back; None for anyone else."""
    if request.user.is_authenticated:
        return None
    wait = throttles.refused(request, throttles.GAME_PAGE)
    if wait is None:
        return None
    answer = render(request, "429.html", {"retry_after": wait}, status=429)
    answer["Retry-After"] = str(wait)
    return answer


def game_page(request, game_id):
    refusal = visitor_refused(request)
    if refusal is not None:
        return refusal
    game, seats, _ = visible_game(request, game_id)
    if "at" in request.GET and _at(request, game) is None:
        # ?at= the present, past it or unreadable: the page of the present, whose address
        # says so (the address always names the move the board shows).
        rest = {key: value for key, value in request.GET.items() if key != "at"}
        url = reverse("game", args=[game.pk])
        return redirect(f"{url}?{urlencode(rest)}" if rest else url)
    # ?sel=…&to=…&dice=…: the attack kept chosen after a roll, when the page is reloaded.
    kept = {key: request.GET[key] for key in ("to", "dice") if key in request.GET}
    presence.seen(request.user, game.pk)
    return render_game(request, game, seats, at=_at(request, game),
                       selected=request.GET.get("sel"), posted=kept or None)


def game_board_list(request, game_id):
    """The board as a list (?at=N: as of move N), as the viewer's seat may see it."""
    refusal = visitor_refused(request)
    if refusal is not None:
        return refusal
    game, seats, _ = visible_game(request, game_id)
    at = _at(request, game)
    seat = seats.seat_of(request.user)
    state = None if game.status == Game.OPEN else load_state(game, at)
    view = seat_views.game_view(game, seats, state, seat)
    return render(request, "games/board_list.html", {
        "game": game, "view": view, "seat": seat, "at": at,
        "continents": board_rows(view, seat)})


def game_live(request, game_id):
    """The poll: nothing (204) while the game stands still, else the new game area."""
    game, seats, _ = visible_game(request, game_id)
    unchanged = request.GET.get("v") == stamp(game)
    presence.seen(request.user, game.pk, shown=not unchanged)  # their turn mail waits
    if unchanged:
        return HttpResponse(status=204)
    return render_game(request, game, seats)


def _success_text(game, done, seat) -> str:
    """The command's events in words, e.g. the dice of each battle it fought."""
    events = done.event_dicts()
    owners = narrator.OwnerTracker(done.before.board)
    if any(e["type"] == ev.BATTLE for e in events):
        # Defenders are named by who held the territory before this command.
        owners.owner.update(done.before.owner)
    sentences = []
    for event in events:
        # The battles are on the page right under this message, one per line, with their
        # dice paired (_game.html's last roll): not told twice.
        if event["type"] not in (ev.DECK_SHUFFLED, ev.BATTLE):
            sentences.append(narrator.describe(event, owners=owners))
        owners.see(event)
    if len(sentences) > 8:
        sentences = sentences[:3] + ["…"] + sentences[-4:]
    return " ".join(sentences)


def _still_due(game, seen: int) -> bool:
    """Whether the decision the form was filled in for (at move `seen`) is the one the
    game still waits for: then what the player typed is still meaningful and stays."""
    if not 0 < seen <= game.version or game.status != Game.ACTIVE:
        return False
    return decision(load_state(game, seen)) == decision(load_state(game))


def _too_fast(request, game_id, wait: int):
    """429 for a command past the command limit, drawing nothing of the game: the page
    that says so, or under htmx the sentence put above the forms (the game stays shown)."""
    if _fragment(request):
        response = HttpResponse(format_html('<p class="error too-fast" role="alert">{}</p>',
                                            too_fast(wait)), status=429)
        response["HX-Retarget"], response["HX-Reswap"] = "#play", "afterbegin"
    else:
        response = render(request, "games/too_fast.html",
                          {"game_id": game_id, "text": too_fast(wait)}, status=429)
    response["Retry-After"] = str(wait)
    return response


@require_POST
def game_play(request, game_id):
    if request.user.is_authenticated:
        # The API's command limits, counted before anything is read: accepted or refused,
        # every command from every door weighs the same.
        wait = throttles.refused(request, throttles.COMMAND)
        if wait:
            return _too_fast(request, game_id, wait)
    loaded = visible_game(request, game_id)
    game, seats = loaded.game, loaded.seats
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('game', args=[game.pk])}")
    kind = request.POST.get("type", "")
    form = FORM_OF.get(kind, kind)
    if is_bot_account(request.user):
        return render_game(request, game, seats,
                           form_error={"form": form, "text": bot_refusal()}, status=403)
    raw_version = request.POST.get("version", "")
    try:
        version = whole_number(raw_version)
        if version is None:
            raise FormProblem(_("The page did not say which move it was showing; reload it."))
        payload = payload_from_post(request.POST, board_of_game(game))
        done = service.submit(service.player(request.user), loaded, payload, version,
                              others_policies_pass=True)
    except VersionConflict as conflict:
        game.refresh_from_db()
        text = _("The game moved on while you were deciding (it was at move %(seen)s, it is "
                 "now at move %(now)s). Here is the new state: check it and try again.") % {
            "seen": raw_version, "now": conflict.current_version}
        kept = _still_due(game, version)
        if kept:
            text += " " + _("What you filled in is kept.")
        return render_game(request, game, seats, conflict=text, status=409,
                           posted=request.POST if kept else None,
                           selected=request.POST.get("from") if kept else None)
    except (FormProblem, RuleViolation, ServiceError) as error:
        game.refresh_from_db()
        status = getattr(error, "status", 400)
        if isinstance(error, RuleViolation) and error.code in ("not_your_turn", "not_seated"):
            status = 403
        return render_game(request, game, seats,
                           form_error={"form": form,
                                       "text": refusal_text(error, board_of_game(game))},
                           posted=request.POST, selected=request.POST.get("from"),
                           status=status)
    text = _success_text(game, done, done.seat)
    if text:
        messages.success(request, text)
    selected, kept = None, {}
    if (kind == "attack" and done.state.phase == "attack"
            and done.state.armies[payload["from"]] >= 2):
        # The attack stays chosen for the next roll; whatever is no longer legal (the
        # source down to one army, the dice more than it may roll) falls back to a blank.
        selected = payload["from"]
        kept = {"to": payload["to"], "dice": request.POST.get("dice", "")}
    if _fragment(request):
        return render_game(request, done.game, done.seats, selected=selected,
                           posted=kept or None)
    url = reverse("game", args=[game.pk])
    if not selected:
        return redirect(f"{url}#play")
    return redirect(f"{url}?{urlencode({'sel': selected, **kept})}#play")
