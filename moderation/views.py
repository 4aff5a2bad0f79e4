"""The moderators' pages (queue, one game, audit, their forms) and the players' chat box and
report form. Thin: parse, call games.moderation, moderation.chat or moderation.reports,
render. The moderators' pages show every game as a spectator sees it: a moderator who plays
in a game sees nothing more of the others here than on the game page."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts import throttles
from engine.commands import MODERATOR_ACTION_LIST, MODERATOR_ACTIONS
from engine.errors import RuleViolation
from engine.pieces import COLORS
from games import seat_views, visibility
from games.errors import ServiceError
from games.models import Game
from games.moderation import ACTIONS, has_stake, moderate
from games.store.append import VersionConflict
from games.store.row import Loaded, load_game, team_of
from games.store.seats import Seats
from games.store.states import load_state
from lib.inputs import whole_number
from moderation import access, sections
from moderation import chat as chat_service
from moderation.audit import history
from moderation.forms import CloseReportForm, ModerateForm, ReasonForm, ReportForm
from moderation.models import ChatMessage, Report
from moderation.permissions import can_moderate
from moderation.reports import close_report, file_report
from words.narrator import line as describe
from words.narrator import seat_name

LOG_LENGTH = 40
# The actions that make sense in each status, as their declarations say (the engine
# refuses the rest anyway).
ACTIONS_BY_STATUS = {
    Game.ACTIVE: [action.name for action in MODERATOR_ACTION_LIST if action.running],
    Game.PAUSED: [action.name for action in MODERATOR_ACTION_LIST if action.paused],
}
# The words of each action the page offers (tests/moderation: one for every such action).
ACTION_LABELS = {
    "pause": gettext_lazy("Pause the game"), "resume": gettext_lazy("Resume the game"),
    "end_turn": gettext_lazy("End the current turn for an absent player"),
    "extend_deadline": gettext_lazy("Extend the current deadline"),
    "drop": gettext_lazy("Drop a player"),
    "replace_player": gettext_lazy("Replace a player by another user"),
    "abort": gettext_lazy("Abort the game"),
}


def moderator_required(view):
    """Staff moderators only: others are sent to sign in, or refused if signed in."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_moderate(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)
    return wrapped


def _fragment(request) -> bool:
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


def refusal_text(error: Exception) -> str:
    if isinstance(error, VersionConflict):
        return _("The game moved on (it is now at move %(now)s): check it and try again.") % {
            "now": error.current_version}
    return getattr(error, "detail", None) or str(error)


def _back(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return fallback


def _loaded(game_id) -> Loaded:
    """The game with its seats (one query: games.store.row), or 404."""
    loaded = load_game(game_id)
    if loaded is None:
        raise Http404("No game matches the given query.")
    return loaded


def _visible(request, game_id) -> Loaded:
    """The game with its seats, or 404 if there is none or the viewer may not know of it."""
    loaded = _loaded(game_id)
    if not visibility.page_may_see(request, loaded.game, loaded.seats):
        raise Http404("No game matches the given query.")
    return loaded


# ---- the chat box ----------------------------------------------------------------------
def chat_lines(game: Game, seats: Seats, user, *, limit: int = 50,
               moderating: bool = False) -> list[dict]:
    """The lines `user` reads (moderation.access); `moderating` on the moderators' page."""
    lines = []
    reading = access.reading(game, seats, user, moderating=moderating)
    for message in chat_service.recent_messages(game, reading, limit):
        lines.append({
            "id": message.pk, "seat": message.seat, "username": message.user.get_username(),
            "color": COLORS[message.seat],
            "text": message.text if reading.reads(message) else "",
            "hidden": message.hidden, "at": message.created_at,
            "team": message.team, "team_number": None if message.team is None
            else message.team + 1,
            "own": user.is_authenticated and message.user_id == user.pk,
        })
    return lines


def chat_context(request, game: Game, seats: Seats, *, error: str = "", draft: str = "",
                 full: bool = False, posted_to_team: bool = False) -> dict:
    """What the chat box shows this viewer (`seats`: the game's): lines, and the form if
    they hold a seat."""
    user = request.user
    is_open = chat_service.chat_open(game)
    seat = seats.seat_of(user)
    seated = seat is not None
    lines = chat_lines(game, seats, user, limit=500 if full else 50)
    team = team_of(game, seat) if seated else None
    return {
        "open": is_open, "lines": lines,
        # Changes when a line comes or is hidden: the box's script redraws only then.
        "stamp": f"{lines[-1]['id'] if lines else 0}."
                 f"{sum(1 for line in lines if line['hidden'])}",
        "can_post": is_open and seated, "signed_in": user.is_authenticated,
        "team": team, "team_number": None if team is None else team + 1,
        "to_team": team is not None and posted_to_team,
        "error": error, "draft": draft, "per_minute": chat_service.per_minute(),
        "polling": game.status in (Game.ACTIVE, Game.PAUSED),
    }


def _chat_fragment(request) -> str | None:
    """Which piece of the chat box a script asked for ("lines" or "box"), if any: the
    box's own script says so in a header; an htmx request says it with ?part=lines."""
    asked = request.headers.get("X-Chat-Fragment")
    if asked in ("lines", "box"):
        return asked
    if _fragment(request):
        return "lines" if request.GET.get("part") == "lines" else "box"
    return None


def _chat_answer(request, game, seats, *, error="", draft="", status=200, to_team=False):
    fragment = _chat_fragment(request)
    context = {"game": game, "chat": chat_context(request, game, seats, error=error,
                                                  draft=draft, full=fragment is None,
                                                  posted_to_team=to_team)}
    if fragment is not None:
        template = ("moderation/_chat_lines.html" if fragment == "lines"
                    else "moderation/_chat.html")
        return render(request, template, context, status=status)
    return render(request, "moderation/chat_page.html", context, status=status)


def chat(request, game_id):
    """GET: the chat box (htmx), its lines (htmx, ?part=lines) or a page of its own.
    POST: a seated player's message; without JavaScript, back to the game page."""
    game, seats, _ = _visible(request, game_id)
    if request.method != "POST":
        return _chat_answer(request, game, seats)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("game", args=[game.pk]))
    text = request.POST.get("text", "")
    to_team = request.POST.get("to") == "team"
    try:
        chat_service.post_message(game, request.user, text, team=to_team, seats=seats)
    except ServiceError as error:
        return _chat_answer(request, game, seats, error=error.detail, draft=text[:2000],
                            status=error.status, to_team=to_team)
    if _chat_fragment(request) is not None:
        return _chat_answer(request, game, seats, to_team=to_team)
    return redirect(reverse("game", args=[game.pk]) + "#chat")


# ---- reports ---------------------------------------------------------------------------
def _int(raw) -> int | None:
    return whole_number(raw)


@login_required
def report_new(request):
    source = request.POST if request.method == "POST" else request.GET
    game, seats, _ = _visible(request, _int(source.get("game")) or 0)
    message = None
    if source.get("message"):
        message = access.readable_message(game, seats, request.user,
                                          _int(source.get("message")))
        if message is None:
            raise Http404("No such message in this game.")
    form = ReportForm(request.POST or None, initial={
        "game": game.pk, "message": message.pk if message else None})
    filed, status = file_from_form(
        request, form, lambda reason: file_report(request.user, game, reason, message, seats))
    if filed:
        return redirect("game", game_id=game.pk)
    return render(request, "moderation/report_form.html",
                  {"game": game, "message": message, "form": form}, status=status)


def file_from_form(request, form, file) -> tuple[bool, int]:
    """A report form's POST, for chat lines and private messages alike: the reporter's
    throttle, the form, then `file(reason)`; (filed, the status to answer the form with)."""
    if request.method != "POST":
        return False, 200
    wait = throttles.refused(request, throttles.REPORT)
    if wait:
        form.add_error(None, _("You filed many reports just now: try again in %(seconds)s "
                               "seconds.") % {"seconds": wait})
        return False, 429
    if not form.is_valid():
        return False, 400
    try:
        file(form.cleaned_data["reason"])
    except ServiceError as error:
        form.add_error(None, error.detail)
        return False, error.status
    messages.success(request, _("Thank you: a moderator will look at your report."))
    return True, 200


# ---- the moderators' pages -------------------------------------------------------------
@moderator_required
def queue(request):
    wanted = _int(request.GET.get("game"))
    if wanted is not None:
        return redirect("moderation-game", game_id=wanted)
    # Only the reports this moderator handles: none about them (moderation.access).
    handled = Report.objects.filter(access.handled(request.user))
    open_reports = (handled.filter(status=Report.OPEN)
                    .select_related("game", "reporter", "message", "message__user")
                    .order_by("created_at", "id")[:200])
    return render(request, "moderation/queue.html", {
        "reports": [{"report": r, "form": CloseReportForm(prefix=f"r{r.pk}")}
                    for r in open_reports],
        "paused": Game.objects.filter(status=Game.PAUSED).order_by("-id")[:50],
        "sections": sections.gathered(request.user),
        "closed": (handled.filter(status=Report.CLOSED)
                   .select_related("game", "closed_by").order_by("-closed_at")[:20]),
    })


def _seat_choices(view: dict, names: dict, only_in_play: bool) -> list:
    return [(p["seat"], f"{seat_name(p['seat'], names)}")
            for p in view["players"]
            if not (only_in_play and (p["eliminated"] or p["dropped"]))]


@moderator_required
def game_page(request, game_id):
    game, seats, _ = _loaded(game_id)
    state = None if game.status == Game.OPEN else load_state(game)
    view = seat_views.game_view(game, seats, state, None)  # the spectator's: nothing hidden
    names = seats.usernames()
    events = seat_views.event_dicts(game, None, after=max(0, game.version - LOG_LENGTH))
    board = state.board if state is not None else None
    log = [{"seq": e["seq"], "text": describe(e, names, board), "at": e["at"], "type": e["type"]}
           for e in reversed(events)]
    choices = _seat_choices(view, names, only_in_play=True)
    # A moderator with a stake in the game acts on none of it (games.moderation.stakes).
    stake = has_stake(game.pk, request.user)
    forms = [] if stake else [{
        "action": action, "label": ACTION_LABELS[action],
        "names_a_seat": MODERATOR_ACTIONS[action].seat,
        "form": ModerateForm(seats=choices, prefix=action,
                             initial={"action": action, "version": game.version}),
    } for action in ACTIONS_BY_STATUS.get(game.status, [])]
    players = [{**p, "name": seat_name(p["seat"], names)} for p in view["players"]]
    return render(request, "moderation/game.html", {
        "game": game, "view": view, "players": players, "log": log, "forms": forms,
        "you_play": seats.seat_of(request.user) is not None, "stake": stake,
        "lines": chat_lines(game, seats, request.user, limit=200, moderating=True),
        "hide_form": ReasonForm(),
        "reports": game.reports.filter(access.handled(request.user))
        .select_related("reporter", "closed_by").order_by("-id")[:50],
    })


@require_POST
@moderator_required
def act(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    action = request.POST.get("action_name", "")
    if action not in ACTIONS:
        messages.error(request, _("No such moderator action."))
        return redirect("moderation-game", game_id=game.pk)
    seats = [(s, str(s)) for s in range(game.players)]
    form = ModerateForm(request.POST, seats=seats, prefix=action)
    if not form.is_valid():
        problems = "; ".join(f"{form.fields[f].label if f in form.fields else ''} "
                             f"{' '.join(e)}".strip() for f, e in form.errors.items())
        messages.error(request, _("Nothing was done: %(problems)s") % {"problems": problems})
        return redirect("moderation-game", game_id=game.pk)
    data = form.cleaned_data
    try:
        done = moderate(game, request.user, data["action"], data["reason"], seat=data["seat"],
                        until=data["until"], replacement=data["username"] or None,
                        expected_version=data["version"])
    except (ServiceError, RuleViolation, VersionConflict) as error:
        messages.error(request, _("Nothing was done: %(why)s") % {"why": refusal_text(error)})
        return redirect("moderation-game", game_id=game.pk)
    names = done.seats.usernames()
    said = [describe(e, names, done.state.board)
            for e in seat_views.redacted(game, done.events[:6], None)]
    messages.success(request, " ".join(said))
    return redirect("moderation-game", game_id=game.pk)


@require_POST
@moderator_required
def hide(request, message_id):
    message = get_object_or_404(ChatMessage, pk=message_id)
    fallback = reverse("moderation-game", args=[message.game_id]) + "#chat"
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Nothing was done: give a reason."))
        return redirect(_back(request, fallback))
    try:
        chat_service.hide_message(message, request.user, form.cleaned_data["reason"])
    except ServiceError as error:
        messages.error(request, _("Nothing was done: %(why)s") % {"why": error.detail})
    else:
        messages.success(request, _("Message #%(id)s is hidden.") % {"id": message.pk})
    return redirect(_back(request, fallback))


@require_POST
@moderator_required
def close(request, report_id):
    report = get_object_or_404(Report, pk=report_id)
    form = CloseReportForm(request.POST, prefix=f"r{report.pk}")
    if not form.is_valid():
        messages.error(request, _("Nothing was done: write a note."))
        return redirect(_back(request, reverse("moderation-queue")))
    try:
        close_report(report, request.user, form.cleaned_data["note"])
    except ServiceError as error:
        messages.error(request, _("Nothing was done: %(why)s") % {"why": error.detail})
    else:
        messages.success(request, _("Report #%(id)s is closed.") % {"id": report.pk})
    return redirect(_back(request, reverse("moderation-queue")))


@moderator_required
def audit(request):
    username = request.GET.get("moderator") or request.user.get_username()
    return render(request, "moderation/audit.html", {
        "moderator": username[:150], "entries": history(username[:150], request.user),
    })
