"""System checks of the deployment's own settings (run by manage.py, check --deploy)."""

from django.conf import settings
from django.core.checks import Error, register


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
