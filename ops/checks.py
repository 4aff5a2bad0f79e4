"""System checks of the deployment's own settings: the built-in secret key refused with DEBUG
off, and (`check --deploy`) a /metrics open to the internet or guarded by a guessable token."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.checks import Error, Tags, register

MIN_TOKEN_LENGTH = 24


@register(Tags.security, deploy=True)
def metrics_are_protected(app_configs, **kwargs):
    problems = []
    token = settings.CONQUEST_METRICS_TOKEN
    if token and len(token) < MIN_TOKEN_LENGTH:
        problems.append(Error(
            f"CONQUEST_METRICS_TOKEN is shorter than {MIN_TOKEN_LENGTH} characters.",
            hint="python -c 'import secrets; print(secrets.token_urlsafe(32))'",
            id="conquest.E010"))
    for item in settings.CONQUEST_METRICS_ADDRESSES:
        try:
            network = ipaddress.ip_network(item, strict=False)
        except ValueError:
            problems.append(Error(f"CONQUEST_METRICS_ADDRESSES: {item!r} is no address.",
                                  id="conquest.E011"))
            continue
        if not (network.is_private or network.is_loopback):
            problems.append(Error(
                f"CONQUEST_METRICS_ADDRESSES lets {item} read /metrics without a token: an "
                "address of the internet.",
                hint="List the scrapers' private addresses, or set CONQUEST_METRICS_TOKEN "
                     "alone.",
                id="conquest.E012"))
    return problems


@register()
def secret_key_is_not_the_development_key(app_configs, **kwargs):
    """The built-in key is public: with DEBUG off it would let anyone forge signed links."""
    if not settings.DEBUG and settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        return [Error(
            "SECRET_KEY is the built-in development key while DEBUG is off.",
            hint="Set SECRET_KEY to a long random value.",
            id="conquest.E001",
        )]
    return []
