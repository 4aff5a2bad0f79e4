"""The admin of games: games (with the moderators' actions, which go through
games.moderation.moderate), seats, the event log (read-only, in words) and snapshots; and
the game filter, link and refusals the other apps' admins use."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from engine import state as phases
from engine.errors import RuleViolation
from games.boards import board_of_game
from games.errors import ServiceError
from games.models import Event, Game, Seat, Snapshot
from games.moderation import moderate
from games.seat_views import spectator_event
from games.store.append import VersionConflict
from lib.admin import HIDDEN, EstimatedPaginator, FilterOnlyWhatIsShown, json_block, reason_action
from lib.inputs import whole_number
from words.narrator import line as describe

# What an admin action reports as "nothing was done" instead of an error page.
REFUSALS = (ServiceError, RuleViolation, VersionConflict)


def seat_names(game: Game) -> dict:
    """Seat usernames of a game (its seats and users prefetched by the list's queryset)."""
    return {seat.seat: seat.user.get_username() for seat in game.seats.all()}


def game_link(game: Game | None) -> str:
    if game is None:
        return "-"
    return format_html('<a href="{}">{}</a>',
                       reverse("admin:games_game_change", args=[game.pk]), str(game))


class GameFilter(admin.SimpleListFilter):
    """By game: the latest games to click, and any id as ?game=<id>."""

    title = "game"
    parameter_name = "game"

    def lookups(self, request, model_admin):
        choices = [(str(pk), f"#{pk} {name}")
                   for pk, name in Game.objects.order_by("-id").values_list("pk", "name")[:15]]
        wanted = whole_number(self.value())
        if wanted is not None and str(wanted) not in dict(choices):
            choices.insert(0, (str(wanted), f"#{wanted}"))
        return choices

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        wanted = whole_number(self.value())
        return queryset.none() if wanted is None else queryset.filter(game_id=wanted)


class PhaseFilter(admin.SimpleListFilter):
    """By phase, from the engine's list of them: not a DISTINCT over every game's row."""

    title = "phase"
    parameter_name = "phase"
    PHASES = (phases.CLAIM, phases.SETUP_PLACE, phases.CAPITAL, phases.NEUTRAL_PLACE,
              phases.REINFORCE, phases.ATTACK, phases.OCCUPY, phases.FORTIFY)

    def lookups(self, request, model_admin):
        return [(phase, phase) for phase in self.PHASES]

    def queryset(self, request, queryset):
        return queryset if self.value() is None else queryset.filter(phase=self.value())


def _moderate(kind: str):
    def run(request, game, reason):
        done = moderate(game, request.user, kind, reason)
        return f"done ({len(done.events)} event(s) written)"
    return run


# ---- games -----------------------------------------------------------------------------
class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("seat", "user", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("id", "name", "status", "phase", "turn", "current_seat", "deadline",
                    "version", "players", "private", "created_at", "moderate_link")
    list_display_links = ("id", "name")
    # Each filter offers fixed choices: no filter reads across every game to draw itself,
    # nor does a date hierarchy (its MIN/MAX and DISTINCT days scanned the whole table), nor
    # a count of every game (the paginator's estimate, and no "N total").
    list_filter = ("status", PhaseFilter, "private", "created_at")
    search_fields = ("=id", "name", "seats__user__username")
    show_full_result_count = False
    paginator = EstimatedPaginator
    # Drawing a row's cells is most of the page's time (Django's items_for_result, about
    # 1 ms a row of these 12 columns on 2 shared cores): 25 rows a page, not Django's 100
    # (65 ms among 100,000 running games at 50 rows); search and filters find the rest.
    list_per_page = 25
    ordering = ("-id",)
    fields = ("name", "creator", "status", "players", "rules", "deadline_seconds", "version",
              "phase", "turn", "current_seat", "deadline", "winner", "clock_time_zone",
              "quiet_from", "quiet_until", "pause_weekends", "created_at", "started_at",
              "finished_at", "private", "seed_hash", "seed_revealed", "links")
    # A private game's invitation link is its creator's to share, never shown here.
    readonly_fields = ("private", "seed_hash", "seed_revealed", "links", "created_at")
    inlines = [SeatInline]
    actions = [
        reason_action("pause_games", "Pause the selected games",
                      _moderate("pause"), REFUSALS),
        reason_action("resume_games", "Resume the selected games",
                      _moderate("resume"), REFUSALS),
        reason_action("end_turns", "End the current turn (absent player)",
                      _moderate("end_turn"), REFUSALS),
        reason_action("abort_games", "Abort the selected games (no winner)",
                      _moderate("abort"), REFUSALS),
    ]

    def get_queryset(self, request):
        # The list needs none of a game's rules or contributions (the change page reads
        # them: Django's own get_object goes through here, and a deferred field loads on
        # first use).
        return super().get_queryset(request).defer("rules", "contributions")

    def has_add_permission(self, request):
        return False  # games are created by players, through the lobby

    def has_change_permission(self, request, obj=None):
        return False  # changed only by events (the actions and the moderation page)

    def has_delete_permission(self, request, obj=None):
        return False  # its events are kept for good

    def has_moderate_permission(self, request):
        return request.user.has_perm("games.moderate_game")

    @admin.display(description="seed")
    def seed_revealed(self, game):
        return game.seed if game.is_over else HIDDEN

    @admin.display(description="moderate")
    def moderate_link(self, game):
        return format_html('<a href="{}">moderate</a>',
                           reverse("moderation-game", args=[game.pk]))

    @admin.display(description="links")
    def links(self, game):
        return format_html(
            '<a href="{}">moderation page</a> · <a href="{}?game={}">event log</a> · '
            '<a href="{}">game page</a>',
            reverse("moderation-game", args=[game.pk]),
            reverse("admin:games_event_changelist"), game.pk, reverse("game", args=[game.pk]))


@admin.register(Seat)
class SeatAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("game", "seat", "user", "joined_at")
    list_filter = (GameFilter,)
    search_fields = ("user__username", "=game__id", "game__name")
    list_select_related = ("game", "user")
    fields = ("game", "seat", "user", "joined_at")
    readonly_fields = ("joined_at",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # a seat changes hands only by a player_replaced event

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    """The log, read-only: as a spectator sees it until the game is over."""

    list_display = ("seq", "game_column", "type", "in_words", "actor", "user_id",
                    "created_at")
    list_display_links = ("seq",)
    list_filter = (GameFilter, "type")
    search_fields = ("=game__id", "game__name", "type")
    list_select_related = ("game",)
    ordering = ("-id",)
    fields = ("game", "seq", "type", "actor", "user_id", "schema_version", "created_at",
              "in_words", "data_shown")
    readonly_fields = fields
    actions = None
    show_full_result_count = False

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("game__seats__user")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="game", ordering="game_id")
    def game_column(self, event):
        return game_link(event.game)

    @admin.display(description="in words")
    def in_words(self, event):
        return describe(spectator_event(event, event.game), seat_names(event.game),
                        board_of_game(event.game))

    @admin.display(description="data")
    def data_shown(self, event):
        return json_block(spectator_event(event, event.game)["data"])


@admin.register(Snapshot)
class SnapshotAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("game", "seq", "engine_version", "created_at")
    list_filter = (GameFilter, "engine_version")
    search_fields = ("=game__id", "game__name")
    list_select_related = ("game",)
    fields = ("game", "seq", "engine_version", "created_at", "state_shown")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="state")
    def state_shown(self, snapshot):
        # The whole state holds every hand, mission and capital.
        return json_block(snapshot.state) if snapshot.game.is_over else HIDDEN


from games import admin_imported_maps  # noqa: E402,F401  (imported community maps)
