"""The admin of accounts: preferences, whether an address is confirmed, and the API tokens (their
digests only: a key is never stored, so never shown; deleting a row revokes it)."""

from django.contrib import admin

from accounts.models import Account, ApiToken, BotAccount, Preferences
from lib.admin import FilterOnlyWhatIsShown


@admin.register(Account)
class AccountAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "email_confirmed", "email_confirmed_at")
    list_filter = ("email_confirmed",)
    search_fields = ("user__username",)
    fields = ("user", "email_confirmed", "email_confirmed_at")
    readonly_fields = ("user", "email_confirmed_at")


@admin.register(ApiToken)
class ApiTokenAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "created_at", "last_used_at")
    search_fields = ("user__username",)
    fields = ("user", "created_at", "last_used_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Preferences)
class PreferencesAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "language", "time_zone", "turn_mail", "game_mail", "unsubscribed")
    list_filter = ("language", "turn_mail", "unsubscribed")
    search_fields = ("user__username",)


@admin.register(BotAccount)
class BotAccountAdmin(FilterOnlyWhatIsShown, admin.ModelAdmin):
    list_display = ("user", "owner", "created_at")
    search_fields = ("user__username", "owner__username")
    fields = ("user", "owner", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False  # an account becomes a bot by its own request (POST /api/v1/account/bot/)
