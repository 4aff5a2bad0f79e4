"""The web pages: home, lobby, game page and its forms, accounts. Thin: parse the form, call
games.services, render what the viewer's seat may see."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import check_for_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import email as addresses
from accounts import throttles
from accounts.models import Preferences, preferences_for
from games import narrator, services
from games.inputs import whole_number
from games.models import Game, Seat
from games.rules import events as ev
from games.rules.errors import RuleViolation
from games.services import ServiceError
from games.store import VersionConflict
from games.vocabulary import (
    BOT_LEVELS,
    color_name,
    detail_words,
    error_text,
    level_name,
    phase_name,
    seat_color,
)
from notifications import vacations
from notifications.models import Vacation

from .commands import FormProblem, payload_from_post
from .forms import (
    PRESETS,
    CreateGameForm,
    PreferencesForm,
    SignUpForm,
    VacationForm,
    preset_fields,
)
from .page import game_context, open_game_words, stamp

# The form the refusal of each command is shown next to.
FORM_OF = {"set_defense": "defense"}


def _fragment(request) -> bool:
    """An htmx request that swaps the game area (not a boosted whole page)."""
    return bool(getattr(request, "htmx", False)) and not request.htmx.boosted


def refusal_text(error: Exception) -> str:
    if isinstance(error, FormProblem):
        return error.text
    code = getattr(error, "code", "")
    detail = getattr(error, "detail", str(error))
    lead = error_text(code)
    return f"{lead} ({detail_words(detail)})" if detail else lead


# ---- home and lobby --------------------------------------------------------------------
def _names(game_ids) -> dict:
    """(game id, seat) -> username, for every seat of these games, in one query."""
    return {(game_id, seat): username for game_id, seat, username in
            Seat.objects.filter(game_id__in=game_ids)
            .values_list("game_id", "seat", "user__username")}


def _winning_seats(game: Game) -> list[int]:
    """The seats that won a finished game: every member of a winning team."""
    if game.status != Game.FINISHED or game.winner is None:
        return []
    team = services.team_of(game, game.winner)  # the one place the team rule is written
    if team is None:
        return [game.winner]
    return [s for s in range(game.players) if services.team_of(game, s) == team]


def _winner_words(game: Game, names: dict) -> str:
    return ", ".join(f"{color_name(seat_color(s))} ({names.get((game.pk, s), '')})"
                     for s in _winning_seats(game))


# The lobby lists a player's games in the order they need attention: their move first,
# then the others under way by deadline, then the ones still filling, then the finished.
_STATUS_ORDER = {Game.ACTIVE: 1, Game.PAUSED: 1, Game.OPEN: 2}


def _my_games(user):
    if not user.is_authenticated:
        return []
    seats = dict(Seat.objects.filter(user=user).values_list("game_id", "seat"))
    games = list(Game.objects.filter(pk__in=seats)
                 .annotate(seats_taken=Count("seats")).order_by("-id")[:50])
    names = _names([g.pk for g in games])
    rows = []
    for game in games:
        seat = seats[game.pk]
        current = game.current_seat
        if game.status == Game.ACTIVE and current is None:
            turn = _("everyone at once")
        elif game.status == Game.ACTIVE:
            turn = f"{color_name(seat_color(current))} ({names.get((game.pk, current), '')})"
        else:
            turn = ""
        rows.append({
            "game": game, "seat": seat, "color": seat_color(seat),
            "color_name": color_name(seat_color(seat)), "turn": turn,
            "your_turn": game.status == Game.ACTIVE and current == seat,
            "phase": phase_name(game.phase) if game.status == Game.ACTIVE else "",
            "winner": _winner_words(game, names),
            "you_won": seat in _winning_seats(game),
        })
    far = timezone.now() + timezone.timedelta(days=36500)
    rows.sort(key=lambda row: (
        0 if row["your_turn"] else _STATUS_ORDER.get(row["game"].status, 3),
        row["game"].deadline or far if row["game"].status == Game.ACTIVE else far,
        -row["game"].pk))
    return rows


def _running_games(user) -> list[dict]:
    """Games under way that the viewer does not play in: to watch (what spectators may see)."""
    games = Game.objects.filter(status__in=(Game.ACTIVE, Game.PAUSED)).order_by("-started_at",
                                                                               "-id")
    if user.is_authenticated:
        games = games.exclude(seats__user=user)
    games = list(games[:50])
    names = _names([g.pk for g in games])
    return [{"game": game, "round": game.turn, "phase": phase_name(game.phase),
             "players": ", ".join(names.get((game.pk, s), "") for s in range(game.players)
                                  if (game.pk, s) in names)}
            for game in games]


def home(request):
    mine = [row for row in _my_games(request.user) if row["game"].status == Game.ACTIVE]
    return render(request, "home.html", {
        "games": mine, "opponent_counts": range(1, 6),
        "bot_levels": [(level, level_name(level)) for level in BOT_LEVELS]})


def _lobby(request, form, status=200):
    open_games = (Game.objects.filter(status=Game.OPEN).annotate(seats_taken=Count("seats"))
                  .select_related("creator").order_by("-id")[:100])
    mine = set()
    if request.user.is_authenticated:
        mine = set(Seat.objects.filter(user=request.user).values_list("game_id", flat=True))
    rows = [{"game": g, "mine": g.pk in mine, "rules": open_game_words(g)}
            for g in open_games if g.seats_taken < g.players]
    my_games = _my_games(request.user)
    return render(request, "games/lobby.html", {
        "open_games": rows, "my_games": my_games, "form": form,
        "running_games": _running_games(request.user),
        "your_moves": sum(row["your_turn"] for row in my_games),
        "presets": PRESETS,
        "preset_rules": {k: preset_fields(p["rules"]) for k, p in PRESETS.items()},
        "preset_players": {k: p.get("players") for k, p in PRESETS.items()},
    }, status=status)


def lobby(request):
    form = None
    if request.user.is_authenticated:
        form = CreateGameForm(initial={
            "clock_time_zone": preferences_for(request.user).time_zone})
    return _lobby(request, form)


@login_required
def create_game(request):
    if request.method != "POST":
        return redirect("lobby")
    form = CreateGameForm(request.POST)
    wait = throttles.refused(request, throttles.CREATE_GAME)
    if wait:
        form.is_valid()
        form.add_error(None, _("You created many games just now: try again in %(seconds)s "
                               "seconds.") % {"seconds": wait})
        return _lobby(request, form, status=429)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    players, rules_raw = form.game_arguments()
    try:
        entropy = form.cleaned_data["entropy"]
        game = services.create_game(request.user, form.cleaned_data["name"], players,
                                    rules_raw, form.cleaned_data["deadline_seconds"],
                                    form.clock(), bots=form.bot_levels(),
                                    rated=form.rated_choice(), entropy=entropy)
    except (RuleViolation, ServiceError) as error:
        form.add_error(None, refusal_text(error))
        return _lobby(request, form, status=400)
    messages.success(request, _("Game created. Share its page; it starts when all seats "
                                "are taken, or when you start it.") + _entropy_kept(entropy))
    return redirect("game", game_id=game.pk)


def _game_action(request, game_id, act, done: str, leaves: bool = False):
    """A button on an open game (join, add a computer player, start, leave, cancel): `act`
    on the game through the services, then back to its page saying `done` or why not (to
    the lobby once the player has left it or it is gone)."""
    game = get_object_or_404(Game, pk=game_id)
    try:
        act(game)
    except (ServiceError, RuleViolation) as error:
        messages.error(request, refusal_text(error))
        return redirect("game", game_id=game.pk)
    messages.success(request, done)
    return redirect("lobby") if leaves else redirect("game", game_id=game.pk)


def _entropy_kept(entropy: str | None) -> str:
    """The player's entropy, said back so it can be kept to check the game at the end."""
    if not entropy:
        return ""
    return " " + _("Your entropy for the dice, to keep: %(entropy)s") % {"entropy": entropy}


@require_POST
@login_required
def join_game(request, game_id):
    entropy = request.POST.get("entropy") or None  # an empty field (no script) sends none
    return _game_action(request, game_id,
                        lambda game: services.join_game(game, request.user, entropy),
                        _("You joined the game.") + _entropy_kept(entropy))


@require_POST
@login_required
def add_bot(request, game_id):
    level = request.POST.get("level")
    return _game_action(request, game_id,
                        lambda game: services.add_bot(game, request.user, level),
                        _("A computer player took a seat."))


@require_POST
@login_required
def play_the_computer(request):
    """One click from the home page: a game of the viewer and computer players, started."""
    level = request.POST.get("level", "normal")
    opponents = whole_number(request.POST.get("opponents", "2"))
    if level not in BOT_LEVELS or opponents is None or not 1 <= opponents <= 5:
        messages.error(request, _("Choose a level and one to five computer opponents."))
        return redirect("home")
    wait = throttles.refused(request, throttles.CREATE_GAME)
    if wait:
        messages.error(request, _("You created many games just now: try again in %(seconds)s "
                                  "seconds.") % {"seconds": wait})
        return redirect("home")
    name = _("%(user)s against the computer") % {"user": request.user.get_username()}
    rules = {"placement_batch": 100, "deadline_seconds": 7 * 86400}
    game = services.create_game(request.user, name[:100], opponents + 1, rules,
                                bots=[level] * opponents)
    messages.success(request, _("Your game has started: the computer players move within "
                                "seconds of their turn."))
    return redirect("game", game_id=game.pk)


@require_POST
@login_required
def start_game(request, game_id):
    return _game_action(request, game_id, lambda game: services.start_game(game, request.user),
                        _("The game has started."))


@require_POST
@login_required
def leave_game(request, game_id):
    return _game_action(request, game_id, lambda game: services.leave_game(game, request.user),
                        _("You left the game."), leaves=True)


@require_POST
@login_required
def cancel_game(request, game_id):
    return _game_action(request, game_id,
                        lambda game: services.cancel_game(game, request.user),
                        _("The game was cancelled."), leaves=True)


# ---- the game page ---------------------------------------------------------------------
def _at(request, game):
    return whole_number(request.GET.get("at", ""), 1, game.version - 1)


def render_game(request, game, *, at=None, selected=None, form_error=None, posted=None,
                conflict=None, status=200):
    context = game_context(game, request.user, at=at, selected=selected,
                           full_log=request.GET.get("log") == "all", posted=posted)
    context.update({"form_error": form_error, "conflict": conflict})
    template = "games/_game.html" if _fragment(request) else "games/game.html"
    return render(request, template, context, status=status)


def game_page(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    # ?sel=…&to=…&dice=…: the attack kept chosen after a roll, when the page is reloaded.
    kept = {key: request.GET[key] for key in ("to", "dice") if key in request.GET}
    return render_game(request, game, at=_at(request, game), selected=request.GET.get("sel"),
                       posted=kept or None)


def game_live(request, game_id):
    """The poll: nothing (204) while the game stands still, else the new game area."""
    game = get_object_or_404(Game, pk=game_id)
    if request.GET.get("v") == stamp(game):
        return HttpResponse(status=204)
    return render_game(request, game)


def _success_text(game, done, seat) -> str:
    """The command's events in words, e.g. the dice of each battle it fought."""
    events = done.event_dicts()
    owners = narrator.OwnerTracker()
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


@require_POST
def game_play(request, game_id):
    game = get_object_or_404(Game, pk=game_id)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('game', args=[game.pk])}")
    kind = request.POST.get("type", "")
    form = FORM_OF.get(kind, kind)
    raw_version = request.POST.get("version", "")
    try:
        version = whole_number(raw_version)
        if version is None:
            raise FormProblem(_("The page did not say which move it was showing; reload it."))
        payload = payload_from_post(request.POST)
        done = services.submit(game, request.user, payload, version,
                               others_policies_pass=True)
    except VersionConflict as conflict:
        game.refresh_from_db()
        text = _("The game moved on while you were deciding (it was at move %(seen)s, it is "
                 "now at move %(now)s). Here is the new state: check it and try again.") % {
            "seen": raw_version, "now": conflict.current_version}
        return render_game(request, game, conflict=text, status=409)
    except (FormProblem, RuleViolation, ServiceError) as error:
        game.refresh_from_db()
        status = getattr(error, "status", 400)
        if isinstance(error, RuleViolation) and error.code in ("not_your_turn", "not_seated"):
            status = 403
        return render_game(request, game, form_error={"form": form, "text": refusal_text(error)},
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
        return render_game(request, done.game, selected=selected, posted=kept or None)
    url = reverse("game", args=[game.pk])
    if not selected:
        return redirect(f"{url}#play")
    return redirect(f"{url}?{urlencode({'sel': selected, **kept})}#play")


# ---- accounts --------------------------------------------------------------------------
def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby")
    form = SignUpForm(request.POST or None)
    status = 400 if request.method == "POST" else 200
    wait = throttles.refused(request, throttles.SIGNUP) if request.method == "POST" else None
    if wait:
        form.is_valid()
        form.add_error(None, _("Many accounts were made from your address just now: try again "
                               "in %(seconds)s seconds.") % {"seconds": wait})
        status = 429
    elif request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save(commit=False)
            user.email = form.cleaned_data["email"]
            user.save()
            language = getattr(request, "LANGUAGE_CODE", "en")
            Preferences.objects.create(
                user=user, language=language if language in ("en", "cs", "pl") else "en")
            # Mail waits until the address is confirmed through the link mailed to it.
            addresses.start_unconfirmed(user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _(
            "Welcome, %(name)s! Join a game or create one. We mailed a link to %(email)s: "
            "follow it to get turn mail.") % {"name": user.username, "email": user.email})
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form}, status=status)


@login_required
def profile(request):
    preferences = preferences_for(request.user)
    form = PreferencesForm(request.POST or None, instance=preferences, user=request.user,
                           request=request)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("Your preferences are saved."))
            if form.new_email:
                messages.info(request, _(
                    "We mailed a link to %(email)s: your address changes when you follow it. "
                    "Until then mail goes to %(old)s.") % {
                    "email": form.new_email, "old": request.user.email})
            response = redirect("profile")
            response.set_cookie("django_language", preferences.language, samesite="Lax")
            return response
        return _profile(request, form, VacationForm(), status=400)
    return _profile(request, form, VacationForm())


def _profile(request, form, vacation_form, status=200):
    year = timezone.now().year
    return render(request, "accounts/profile.html", {
        "form": form, "vacation_form": vacation_form,
        "email_confirmed": addresses.confirmed(request.user),
        "vacations": vacations.current_and_coming(request.user),
        "vacation_days_used": round(vacations.days_in_year(request.user, year), 1),
        "vacation_allowance": settings.CONQUEST_VACATION_DAYS_PER_YEAR, "year": year,
    }, status=status)


@require_POST
@login_required
def declare_vacation(request):
    preferences = preferences_for(request.user)
    vacation_form = VacationForm(request.POST)
    if vacation_form.is_valid():
        try:
            vacations.declare(request.user, *vacation_form.span(preferences.time_zone))
        except vacations.VacationError as problem:
            vacation_form.add_error(None, str(problem))
        else:
            messages.success(request, _("Your vacation is noted: your deadlines stretch "
                                        "while you are away."))
            return redirect("profile")
    form = PreferencesForm(instance=preferences, user=request.user)
    return _profile(request, form, vacation_form, status=400)


@require_POST
@login_required
def cancel_vacation(request, vacation_id):
    vacation = get_object_or_404(Vacation, pk=vacation_id, user=request.user,
                                 ends__gt=timezone.now())
    vacations.cancel(vacation)
    messages.success(request, _("Your vacation is called off."))
    return redirect("profile")


def set_language(request):
    """Django's set_language, which also remembers the choice in a player's preferences."""
    response = django_set_language(request)
    language = request.POST.get("language")
    if (request.method == "POST" and request.user.is_authenticated and language
            and check_for_language(language)
            and language in dict(Preferences._meta.get_field("language").choices)):
        Preferences.objects.update_or_create(user=request.user, defaults={"language": language})
    return response

