"""The admin of mail: outgoing mails and their delivery, inbound mail, preferences and
vacations."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import admin

from games.admin import GameFilter
from lib.admin import HIDDEN, FilterOnlyWhatIsShown, json_block
from notifications import links
from notifications.models import InboundMail, Notification, PushSubscription, Vacation


# ---- mail ------------------------------------------------------------------------------
def delivery_state(notification: Notification) -> str:
    """What became of a mail, in the words of the delivery filter."""
    if notification.sent_at is None:
        return "failing" if notification.last_error else "waiting"
    if notification.maybe_sent:
        return "sent or unknown"
    return "skipped" if notification.skipped else "sent"


class DeliveryFilter(admin.SimpleListFilter):
    title = "delivery"
    parameter_name = "delivery"

    def lookups(self, request, model_admin):
        return [("sent", "sent"), ("waiting", "waiting"), ("failing", "failing"),
                ("unknown", "sent or unknown (a worker died holding it)"),
                ("skipped", "skipped (not wanted, or no longer current)")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "sent":
            return queryset.filter(sent_at__isnull=False, skipped=False, maybe_sent=False)
        if value == "unknown":
            return queryset.filter(sent_at__isnull=False, maybe_sent=True)
        if value == "waiting":
            return queryset.filter(sent_at__isnull=True, last_error="")
        if value == "failing":
            return queryset.filter(sent_at__isnull=True).exclude(last_error="")
        if value == "skipped":
            return queryset.filter(skipped=True)
        return queryset


@admin.register(Notification)
class NotificationAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("id", "kind", "user", "game", "created_at", "sent_at", "delivery",
                    "attempts", "failing")
    list_filter = ("kind", DeliveryFilter, "digest", GameFilter, "created_at")
    search_fields = ("user__username", "user__email", "key", "=game__id")
    list_select_related = ("user", "game")
    date_hierarchy = "created_at"
    fields = ("user", "game", "kind", "key", "event_seq", "digest", "created_at", "claimed_at",
              "claimed_by", "attempts", "sent_at", "delivery", "skipped", "maybe_sent",
              "last_error", "message_id", "payload_shown")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="delivery")
    def delivery(self, notification):
        return delivery_state(notification)

    @admin.display(boolean=True)
    def failing(self, notification):
        return bool(notification.last_error) and notification.sent_at is None

    @admin.display(description="payload")
    def payload_shown(self, notification):
        game = notification.game
        # A reply quotes the moves the player mailed (a secret placement, say).
        if notification.kind == Notification.REPLY and game is not None and not game.is_over:
            return HIDDEN
        return json_block(notification.payload)


@admin.register(InboundMail)
class InboundMailAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("id", "received_at", "sender", "status", "game", "user")
    list_filter = ("status", "received_at")
    search_fields = ("sender", "message_id", "=game__id", "user__username")
    list_select_related = ("game", "user")
    fields = ("message_id", "sender", "recipient_shown", "received_at", "status", "game",
              "user", "detail_shown")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="recipient")
    def recipient_shown(self, mail):
        # A reply address moves for its seat: its signature is a secret like a password.
        return links.masked(mail.recipient)

    @admin.display(description="detail")
    def detail_shown(self, mail):
        # A refusal may quote a mailed move.
        if mail.game is not None and not mail.game.is_over:
            return HIDDEN
        return mail.detail


@admin.register(Vacation)
class VacationAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "starts", "ends", "created_at")
    search_fields = ("user__username",)




@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """Browsers that take web push: the operator may see and delete them, never edit the
    keys (they are the browser's)."""

    list_display = ("user", "push_service", "user_agent", "created_at", "last_pushed_at",
                    "last_error")
    search_fields = ("user__username",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "user_agent", "created_at",
                       "last_pushed_at", "last_error")

    @admin.display(description="push service")
    def push_service(self, subscription):
        return urlsplit(subscription.endpoint).hostname

    def has_add_permission(self, request):
        return False
