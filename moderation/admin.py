"""The admin a moderator uses: games, seats, the event log (read-only, in words), snapshots,
mails and their delivery, inbound mail, chat messages and reports; and users.

Nothing here edits a game: the Game admin's actions go through games.moderation.moderate,
hiding a chat message through moderation.chat.hide_message, closing a report through
moderation.reports.close_report. Every game is shown as a spectator sees it until it is
over (no seed, no hidden event data, no snapshot state, no mailed moves), so a moderator
who also plays learns nothing here.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import Truncator

from games.models import Event, Game, Seat, Snapshot
from games.moderation import moderate
from games.rules.errors import RuleViolation
from games.services import ServiceError
from games.store import VersionConflict
from moderation.chat import hide_message
from moderation.models import ChatMessage, Report
from moderation.permissions import GROUP, make_moderator, remove_moderator
from moderation.reports import close_report
from moderation.words import describe, spectator_event
from notifications.models import InboundMail, Notification, Preferences, Vacation

HIDDEN = "(hidden until the game is over)"


# Plain comparisons a list filter's links make (status__exact, created_at__gte, ...).
FILTER_COMPARISONS = {"exact", "iexact", "gte", "gt", "lte", "lt", "isnull", "in", "id"}


class FilterOnlyWhatIsShown:
    """Query-string lookups only on the columns the list filters offer.

    Django accepts any lookup on a model's own columns (`?seed__startswith=9`), and a
    changelist that shows or hides a row answers a yes/no question about a hidden value:
    the seed, a card drawn, a snapshot's state or a mailed move would come out one
    character at a time. Anything but a filter's own plain comparison answers 400."""

    def lookup_allowed(self, lookup, value, request=None):
        own_filters = {f.parameter_name for f in self.list_filter
                       if isinstance(f, type) and issubclass(f, admin.SimpleListFilter)}
        if lookup in own_filters:  # ours: each reads only its own public column
            return super().lookup_allowed(lookup, value, request)
        field, *comparisons = lookup.split("__")
        offered = {f for f in self.list_filter if isinstance(f, str)}
        if field not in offered or not set(comparisons) <= FILTER_COMPARISONS:
            return False
        return super().lookup_allowed(lookup, value, request)


def _json(data) -> str:
    return format_html("<pre>{}</pre>", json.dumps(data, indent=2, ensure_ascii=False,
                                                   sort_keys=True, default=str))


def _names(game: Game) -> dict:
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
        wanted = self.value()
        if wanted and wanted.isdigit() and wanted not in dict(choices):
            choices.insert(0, (wanted, f"#{wanted}"))
        return choices

    def queryset(self, request, queryset):
        wanted = self.value()
        if wanted is None:
            return queryset
        if not (wanted.isascii() and wanted.isdigit() and len(wanted) < 19):
            return queryset.none()
        return queryset.filter(game_id=int(wanted))


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 3}))


def reason_action(name: str, label: str, run, field: str = "reason",
                  permission: str = "moderate"):
    """An admin action that first asks for a reason (or note), then runs `run(request,
    obj, text)` on each selected object and reports each outcome as a message."""
    def action(modeladmin, request, queryset):
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for obj in queryset:
                try:
                    said = run(request, obj, form.cleaned_data["reason"])
                    modeladmin.message_user(request, f"{obj}: {said}", messages.SUCCESS)
                except (ServiceError, RuleViolation, VersionConflict) as error:
                    detail = getattr(error, "detail", None) or str(error)
                    modeladmin.message_user(request, f"{obj}: nothing was done: {detail}",
                                            messages.ERROR)
            return None
        return TemplateResponse(request, "moderation/admin_reason.html", {
            **modeladmin.admin_site.each_context(request),
            "title": label, "label": label, "action": name, "field": field,
            "queryset": queryset, "form": form, "opts": modeladmin.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        })

    action.__name__ = name
    action.short_description = label
    action.allowed_permissions = (permission,)
    return action


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
                    "version", "players", "created_at", "moderate_link")
    list_display_links = ("id", "name")
    list_filter = ("status", "phase", "created_at")
    search_fields = ("=id", "name", "seats__user__username")
    date_hierarchy = "created_at"
    ordering = ("-id",)
    fields = ("name", "creator", "status", "players", "rules", "deadline_seconds", "version",
              "phase", "turn", "current_seat", "deadline", "winner", "clock_time_zone",
              "quiet_from", "quiet_until", "pause_weekends", "created_at", "started_at",
              "finished_at", "seed_hash", "seed_revealed", "links")
    readonly_fields = ("seed_hash", "seed_revealed", "links", "created_at")
    inlines = [SeatInline]
    actions = [
        reason_action("pause_games", "Pause the selected games", _moderate("pause")),
        reason_action("resume_games", "Resume the selected games", _moderate("resume")),
        reason_action("end_turns", "End the current turn (absent player)", _moderate("end_turn")),
        reason_action("abort_games", "Abort the selected games (no winner)", _moderate("abort")),
    ]

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
        return describe(spectator_event(event, event.game), _names(event.game))

    @admin.display(description="data")
    def data_shown(self, event):
        return _json(spectator_event(event, event.game)["data"])


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
        return _json(snapshot.state) if snapshot.game.is_over else HIDDEN


# ---- mail ------------------------------------------------------------------------------
class DeliveryFilter(admin.SimpleListFilter):
    title = "delivery"
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [("sent", "sent"), ("waiting", "waiting"), ("failing", "failing"),
                ("skipped", "skipped (not wanted)")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "sent":
            return queryset.filter(sent_at__isnull=False, skipped=False)
        if value == "waiting":
            return queryset.filter(sent_at__isnull=True, last_error="")
        if value == "failing":
            return queryset.filter(sent_at__isnull=True).exclude(last_error="")
        if value == "skipped":
            return queryset.filter(skipped=True)
        return queryset


@admin.register(Notification)
class NotificationAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("id", "kind", "user", "game", "created_at", "sent_at", "skipped",
                    "attempts", "failing")
    list_filter = ("kind", DeliveryFilter, "digest", GameFilter, "created_at")
    search_fields = ("user__username", "user__email", "key", "=game__id")
    list_select_related = ("user", "game")
    date_hierarchy = "created_at"
    fields = ("user", "game", "kind", "key", "event_seq", "digest", "created_at", "claimed_at",
              "claimed_by", "attempts", "sent_at", "skipped", "last_error", "message_id",
              "payload_shown")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(boolean=True)
    def failing(self, notification):
        return bool(notification.last_error) and notification.sent_at is None

    @admin.display(description="payload")
    def payload_shown(self, notification):
        game = notification.game
        # A reply quotes the moves the player mailed (a secret placement, say).
        if notification.kind == Notification.REPLY and game is not None and not game.is_over:
            return HIDDEN
        return _json(notification.payload)


@admin.register(InboundMail)
class InboundMailAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("id", "received_at", "sender", "status", "game", "user")
    list_filter = ("status", "received_at")
    search_fields = ("sender", "message_id", "=game__id", "user__username")
    list_select_related = ("game", "user")
    fields = ("message_id", "sender", "recipient", "received_at", "status", "game", "user",
              "detail_shown")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="detail")
    def detail_shown(self, mail):
        # A refusal may quote a mailed move.
        if mail.game is not None and not mail.game.is_over:
            return HIDDEN
        return mail.detail


@admin.register(Preferences)
class PreferencesAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "language", "time_zone", "turn_mail", "game_mail", "unsubscribed")
    list_filter = ("language", "turn_mail", "unsubscribed")
    search_fields = ("user__username",)


@admin.register(Vacation)
class VacationAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "starts", "ends", "created_at")
    search_fields = ("user__username",)


# ---- chat and reports ------------------------------------------------------------------
def _hide(request, message, reason):
    hide_message(message, request.user, reason)
    return "hidden"


def _close(request, report, note):
    close_report(report, request.user, note)
    return "closed"


class ReadOnlyObjects:
    """Change permission gates the actions; a single object is only ever viewed."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request)


@admin.register(ChatMessage)
class ChatMessageAdmin(FilterOnlyWhatIsShown, ReadOnlyObjects, admin.ModelAdmin):
    list_display = ("id", "game", "seat", "user", "short_text", "created_at", "hidden",
                    "hidden_by")
    list_filter = ("hidden", GameFilter, "created_at")
    search_fields = ("text", "user__username", "=game__id")
    list_select_related = ("game", "user", "hidden_by")
    fields = ("game", "seat", "user", "text", "created_at", "hidden", "hidden_by",
              "hidden_seq")
    readonly_fields = fields
    actions = [reason_action("hide_messages", "Hide the selected messages", _hide,
                             permission="change")]

    @admin.display(description="text")
    def short_text(self, message):
        return Truncator(message.text).chars(80)


@admin.register(Report)
class ReportAdmin(FilterOnlyWhatIsShown, ReadOnlyObjects, admin.ModelAdmin):
    list_display = ("id", "status", "game", "message", "reporter", "short_reason",
                    "created_at", "closed_by", "closed_at")
    list_filter = ("status", GameFilter, "created_at")
    search_fields = ("reason", "note", "reporter__username", "=game__id")
    list_select_related = ("game", "reporter", "closed_by", "message")
    fields = ("game", "message", "message_text", "reporter", "reason", "created_at", "status",
              "closed_by", "closed_at", "note")
    readonly_fields = fields
    actions = [reason_action("close_reports", "Close the selected reports with a note",
                             _close, field="note", permission="change")]

    @admin.display(description="reason")
    def short_reason(self, report):
        return Truncator(report.reason).chars(80)

    @admin.display(description="message text")
    def message_text(self, report):
        return report.message.text if report.message else "-"


# ---- users -----------------------------------------------------------------------------
User = get_user_model()


class ModeratorUserAdmin(UserAdmin):
    list_display = (*UserAdmin.list_display, "is_moderator")
    actions = ["make_moderators", "remove_moderators"]

    @admin.display(boolean=True, description="moderator")
    def is_moderator(self, user):
        return user.is_staff and user.groups.filter(name=GROUP).exists()

    @admin.action(description="Make the selected users moderators", permissions=["change"])
    def make_moderators(self, request, queryset):
        for user in queryset:
            make_moderator(user)
        self.message_user(request, f"{queryset.count()} user(s) are moderators now.")

    @admin.action(description="Remove the selected users from the moderators",
                  permissions=["change"])
    def remove_moderators(self, request, queryset):
        for user in queryset:
            remove_moderator(user)
        self.message_user(request, f"{queryset.count()} user(s) are no longer moderators.")


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, ModeratorUserAdmin)
