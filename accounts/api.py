"""The accounts endpoints of the API: sign up (POST /api/v1/accounts/), tokens (POST and
DELETE /api/v1/auth/token/) and a player's standing choices (GET and PATCH
/api/v1/preferences/)."""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response

from accounts import email as addresses
from accounts import throttles, tokens
from accounts.models import BOT_USERNAME_PREFIX, Preferences, neutral_placed_for, preferences_for
from lib.api.errors import ERRORS, Error, error
from lib.api.schema import refuses
from lib.api.views import ApiView, parsed
from lib.reactions import announce


class AccountIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    email = serializers.EmailField(max_length=254)  # the user table's column
    # Passwords are taken as typed: spaces at either end are part of them. The upper bound
    # keeps a megabyte "password" from costing a megabyte of hashing.
    password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=4096)


class AccountOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class TokenIn(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(trim_whitespace=False)


class TokenOut(serializers.Serializer):
    token = serializers.CharField()



class PreferencesIO(serializers.Serializer):
    neutral_placement = serializers.ChoiceField(
        choices=[choice for choice, _ in Preferences.NEUTRAL_PLACEMENT],
        help_text="Two-player games with a neutral: `ask` (you place its reinforcements "
                  "that fall to you, as the rulebooks have it) or `borders` (they are placed for "
                  "you at once, on the neutral territories facing the player moving). Until "
                  "you choose: `ask` for an account holding an API token (the `neutral_place` "
                  "phase and `place_neutral` come to it as the contract has them), `borders` "
                  "for one playing on the site only.")


# What PATCH may change: the standing choices the API offers (the profile page has the rest).
STANDING_CHOICES = ("neutral_placement",)


class PreferencesView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: PreferencesIO, **ERRORS})
    def get(self, request):
        """Your preferences: language, time zone, which mails you get."""
        return Response(_preferences_out(preferences_for(request.user)))

    @extend_schema(request=PreferencesIO, responses={200: PreferencesIO, **ERRORS})
    def patch(self, request):
        """Change some of your preferences (the fields sent)."""
        if not isinstance(request.data, dict) or not request.data:
            return error(400, "bad_request", "send an object with the choices to change: "
                         + ", ".join(STANDING_CHOICES))
        unknown = sorted(str(key) for key in request.data if key not in STANDING_CHOICES)
        if unknown:
            return error(400, "bad_request", f"unknown preference: {', '.join(unknown)} "
                         f"(known: {', '.join(STANDING_CHOICES)})")
        serializer = PreferencesIO(data=request.data, partial=True)
        if not serializer.is_valid():
            field, messages = next(iter(serializer.errors.items()))
            return error(400, "bad_request",
                         f"{field}: {' '.join(str(m) for m in messages)}")
        preferences = preferences_for(request.user)
        for field, value in serializer.validated_data.items():
            setattr(preferences, field, value)
        changed = list(serializer.validated_data)
        if "neutral_placement" in changed:  # chosen: the page and mail need not ask it
            preferences.neutral_question_answered = True
            changed.append("neutral_question_answered")
        preferences.save(update_fields=changed)
        # Those already waiting for a decision the new choices make (standing orders).
        announce("preferences_changed", request.user)
        return Response(_preferences_out(preferences))


def _preferences_out(preferences: Preferences) -> dict:
    """The choices as they are applied: a player who never chose the neutral's placement
    shows the default they get (accounts.models.takes_borders)."""
    found = {field: getattr(preferences, field) for field in STANDING_CHOICES}
    if not preferences.neutral_question_answered:
        found["neutral_placement"] = (Preferences.BORDERS if preferences.user_id in
                                      neutral_placed_for([preferences.user_id])
                                      else Preferences.ASK_ME)
    return found


class AccountsView(ApiView):
    permission_classes = [permissions.AllowAny]
    authentication_classes = []
    throttle_classes = throttles.SIGNUP

    @extend_schema(request=AccountIn, responses={201: AccountOut, **ERRORS})
    @refuses({400: ["username_taken"]})
    def post(self, request):
        """Sign up: a new account and its first API token (201). Usernames are public and
        a taken one is refused; addresses are not: an address that has an account already
        gets the same answer as any other, and its owner is told by mail instead of the
        link that would confirm it."""
        data, refusal = parsed(AccountIn, request)
        if refusal:
            return refusal
        User = get_user_model()
        candidate = User(username=data["username"], email=data["email"])
        if data["username"].lower().startswith(BOT_USERNAME_PREFIX):
            return error(400, "username_taken", "names starting with 'bot-' are kept for "
                         "computer players")
        try:
            User.username_validator(data["username"])
            # The same password rules as the sign-up page (length, common words, likeness).
            password_validation.validate_password(data["password"], candidate)
        except DjangoValidationError as problem:
            return error(400, "bad_request", " ".join(problem.messages))
        try:
            with transaction.atomic():
                if User.objects.filter(username__iexact=data["username"]).exists():
                    raise IntegrityError
                # The database's unique index on lower(username) settles a race.
                user = User.objects.create_user(data["username"], data["email"], data["password"])
                # Mail waits until the address is confirmed through the link mailed to it.
                addresses.start_unconfirmed(user)
        except IntegrityError:
            return error(400, "username_taken", "that username is taken")
        return Response({"id": user.pk, "username": user.username, "token": tokens.issue(user)},
                        status=status.HTTP_201_CREATED)


class TokenView(ApiView):
    """POST: a new token for a username and password (each call issues one; earlier ones
    keep working until revoked, a password change, or CONQUEST_API_TOKEN_IDLE_DAYS unused).
    DELETE: revoke the token the call is made with, or with `?all=1` every token of the
    account."""

    permission_classes = [permissions.AllowAny]

    def get_authenticators(self):
        # A POST signs in with a password: a stale token sent along must not refuse it.
        method = getattr(getattr(self, "request", None), "method", None)
        return [] if method == "POST" else super().get_authenticators()

    def get_throttles(self):
        return [t() for t in throttles.TOKEN] if self.request.method == "POST" else []

    @extend_schema(request=TokenIn, responses={200: TokenOut, **ERRORS, 429: Error})
    @refuses({400: ["bad_credentials"], 429: ["too_many_attempts"]})
    def post(self, request):
        data, refusal = parsed(TokenIn, request)
        if refusal:
            return refusal
        # django-axes counts failures per account and client address (settings.AXES_*).
        user = authenticate(request, username=data["username"], password=data["password"])
        if getattr(request, "axes_locked_out", False):
            return error(429, "too_many_attempts", "too many wrong passwords for this account "
                         "from your address: wait a few minutes, or reset the password")
        if user is None:
            return error(400, "bad_credentials", "wrong username or password")
        # As a sign-in through a form does: a success clears the failures counted so far.
        AxesProxyHandler.user_logged_in(type(self), request, user)
        return Response({"token": tokens.issue(user)})

    @extend_schema(parameters=[OpenApiParameter("all", int, description="1: every token")],
                   request=None, responses={204: None, **ERRORS})
    @refuses({401: ["not_authenticated"]})  # a session, or no token, has none to revoke
    def delete(self, request):
        if not request.user.is_authenticated or not isinstance(request.auth, str):
            return error(401, "not_authenticated", "call this with the token to revoke")
        revoke_all = request.query_params.get("all", "0")
        if revoke_all not in ("0", "1"):
            return error(400, "bad_request", "all: 0 or 1")
        tokens.revoke(request.user, None if revoke_all == "1" else request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)
