"""Shows pages in the signed-in player's time zone, and language unless they chose another
one with the language switcher."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation

from accounts.models import Preferences


class PreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        preferences = None
        if request.user.is_authenticated:
            preferences = Preferences.objects.filter(user=request.user).first()
        request.preferences = preferences
        if preferences is not None:
            try:
                timezone.activate(zoneinfo.ZoneInfo(preferences.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and translation.check_for_language(
                preferences.language
            ):
                translation.activate(preferences.language)
                request.LANGUAGE_CODE = preferences.language
        else:
            timezone.deactivate()
        return self.get_response(request)
