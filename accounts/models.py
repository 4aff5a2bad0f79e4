"""What the site knows about an account beyond Django's User: how and when its player
wants to hear from the site, whether its address is confirmed, and the API tokens that
sign it in."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models

# Computer players' accounts are named bot-<level>-<n>: nobody else may take such a name.
BOT_USERNAME_PREFIX = "bot-"
LANGUAGES = [("en", "English"), ("cs", "Čeština"), ("pl", "Polski")]


def default_reminders() -> list[int]:
    return [12, 1]


class Preferences(models.Model):
    """How and when a player wants to hear from the service."""

    EACH_TURN, DIGEST, NO_TURN_MAIL = "each", "digest", "none"
    TURN_MAIL = [
        (EACH_TURN, "A mail on every turn"),
        (DIGEST, "One daily digest of all my games"),
        (NO_TURN_MAIL, "No turn mail"),
    ]

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    time_zone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(max_length=5, choices=LANGUAGES, default="en")
    turn_mail = models.CharField(max_length=10, choices=TURN_MAIL, default=EACH_TURN)
    reminder_hours = models.JSONField(
        default=default_reminders, help_text="Hours before a deadline to send a reminder."
    )
    game_mail = models.BooleanField(
        default=True, help_text="Mail when a game starts, a player is eliminated, a game ends."
    )
    digest_hour = models.PositiveSmallIntegerField(
        default=8, help_text="Local hour (0-23) the daily digest goes out."
    )
    message_mail = models.BooleanField(
        default=True, db_default=True,
        help_text="Mail when another player sends a private message.",
    )
    unsubscribed = models.BooleanField(
        default=False, help_text="One-click unsubscribe: no mail at all."
    )
    # Off by default: a mail is easily forwarded, and a link that signs in would hand the
    # account to whoever reads the forwarded copy.
    mail_link_sign_in = models.BooleanField(
        default=False, db_default=False,
        help_text="A mailed 'open the game' link signs the player in (else it asks them to).",
    )

    # What the "Move in" form after a conquest is filled in with (the player may change it).
    OCCUPY_ALL, OCCUPY_BORDER, OCCUPY_MINIMUM = "all", "border", "minimum"
    OCCUPY_DEFAULTS = [
        (OCCUPY_ALL, "All the armies I may move"),
        (OCCUPY_BORDER, "All but what the border needs"),
        (OCCUPY_MINIMUM, "The minimum"),
    ]
    occupy_default = models.CharField(
        max_length=10, choices=OCCUPY_DEFAULTS, default=OCCUPY_ALL, db_default=OCCUPY_ALL,
        help_text="How many armies the 'Move in' form after a conquest suggests.",
    )

    # A standing choice for every two-player game with a neutral: who places the neutral's
    # half when it falls to this player (games.standing_orders says how "borders" places it).
    ASK_ME, BORDERS = "ask", "borders"
    NEUTRAL_PLACEMENT = [
        (ASK_ME, "I place the neutral's armies myself"),
        (BORDERS, "Place the neutral's armies for me on the borders of the player moving"),
    ]
    neutral_placement = models.CharField(
        max_length=10, choices=NEUTRAL_PLACEMENT, default=ASK_ME, db_default=ASK_ME,
        help_text="Two-player games: who places the neutral's reinforcements that fall to "
                  "this player.",
    )
    # Whether the player has answered the game page's one question "place the neutral's
    # armies yourself, or automatically from now on?" (asked the first time it falls to them).
    neutral_question_answered = models.BooleanField(
        default=False, db_default=False,
        help_text="The player answered the one-time question about the neutral's armies.",
    )

    class Meta:
        # Moved here from the notifications app: the table keeps its name.
        db_table = "notifications_preferences"
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"preferences of {self.user}"


def preferences_for(user) -> Preferences:
    preferences, _ = Preferences.objects.get_or_create(user=user)
    return preferences


def lock_account(user) -> None:
    """Lock the account's row until the transaction ends, so that the writers who must see
    each other's change to one account take turns: a bot conversion and a join or a
    tournament entry, an address confirmation, a vacation. FOR NO KEY UPDATE orders them
    and, unlike FOR UPDATE, does not block the foreign-key checks that other writers' rows
    naming the account make at their commit (a deadlock on an account's row at commit was
    seen in tests/test_cluster.py). SQLite serialises every writer anyway."""
    get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).exists()


class Account(models.Model):
    """Self-service sign-ups get one, unconfirmed, until the player follows the link mailed
    to the address. Accounts without one were made by the operator (createsuperuser, the
    admin) or before confirmation existed: their address is taken as given."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account")
    email_confirmed = models.BooleanField(
        default=False, help_text="Mail goes only to a confirmed address.")
    email_confirmed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"account of {self.user}"


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """`Authorization: Token <key>`. Only the key's SHA-256 is stored: a copy of the
    database signs nobody in. A key is shown once, when it is issued; changing the password
    revokes every key of the account, and so does `DELETE /api/v1/auth/token/` for the key
    it is called with (`?all=1`: every key)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"API token of {self.user} from {self.created_at:%Y-%m-%d %H:%M}"


class BotAccount(models.Model):
    """An account a program plays (docs/bots/contract.md "Bot accounts"), for good: it plays only
    through the API, is shown as a bot with its owner's name and is rated apart from
    people. `owner` is the person who answers for it: the account itself unless another
    account proved, with one of its tokens, that it runs the bot (lobby.bot_accounts)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="bot_account")
    # RESTRICT, not PROTECT: a bot owning itself must still be deletable with its account.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.RESTRICT,
                              related_name="bots_owned")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot account {self.user_id} of {self.owner_id}"


def takes_borders(preferences, api_client: bool) -> bool:
    """Whether the neutral's half is placed for this player: they chose "borders"; or they
    never chose (`neutral_question_answered` is set by every choice) and are not an API
    client. A program holding an API token (bot accounts among them) keeps the contract's
    own way until it chooses: the `neutral_place` phase and its `place_neutral` command
    (docs/bots/api.md; games.standing_orders places it)."""
    if preferences is not None and preferences.neutral_placement == Preferences.BORDERS:
        return True
    answered = preferences is not None and preferences.neutral_question_answered
    return not answered and not api_client


def neutral_placed_for(user_ids) -> set[int]:
    """Which of the users have the neutral's half placed for them now (takes_borders)."""
    user_ids = set(user_ids)
    chosen = {p.user_id: p for p in Preferences.objects.filter(user_id__in=user_ids)}
    clients = set(ApiToken.objects.filter(user_id__in=user_ids)
                  .values_list("user_id", flat=True))
    return {u for u in user_ids if takes_borders(chosen.get(u), u in clients)}
