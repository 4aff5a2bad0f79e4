"""The admin of moderation: chat messages (hidden through moderation.chat.hide_message),
reports (closed through moderation.reports.close_report), and users (made moderators)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.text import Truncator

from games.admin import REFUSALS, GameFilter
from lib.admin import FilterOnlyWhatIsShown, reason_action
from moderation.access import handled, readable_anywhere
from moderation.chat import hide_message
from moderation.models import ChatMessage, Report
from moderation.permissions import GROUP, make_moderator, remove_moderator
from moderation.reports import close_report


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
    list_display = ("id", "game", "seat", "user", "team", "short_text", "created_at",
                    "hidden", "hidden_by")
    list_filter = ("hidden", GameFilter, "created_at")
    search_fields = ("text", "user__username", "=game__id")
    list_select_related = ("game", "user", "hidden_by")
    fields = ("game", "seat", "user", "team", "text", "created_at", "hidden", "hidden_by",
              "hidden_seq")
    readonly_fields = fields
    actions = [reason_action("hide_messages", "Hide the selected messages", _hide,
                             REFUSALS, permission="change")]

    def get_queryset(self, request):
        """Only the lines this moderator reads where moderators work (moderation.access), so
        that the list, its search, filters and counts and each line's page tell nothing
        of the others."""
        return super().get_queryset(request).filter(readable_anywhere(request.user))

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
                             _close, REFUSALS, field="note", permission="change")]

    def get_queryset(self, request):
        """Only the reports this moderator handles: none about them (moderation.access)."""
        return super().get_queryset(request).filter(handled(request.user))

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
