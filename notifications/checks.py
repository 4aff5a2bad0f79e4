"""System checks of the push settings (run by manage.py and check --deploy)."""

from django.conf import settings
from django.core.checks import Error, register

from notifications import push


@register()
def push_has_its_keys(app_configs, **kwargs):
    """Web push signs every push with the VAPID key: with DEBUG off and push on, it must be
    set and valid (with DEBUG on, one is made in var/ when none is set)."""
    key = settings.CONQUEST_VAPID_PRIVATE_KEY
    errors = []
    if key or (settings.CONQUEST_PUSH and not settings.DEBUG):
        problem = push.key_problem(key)
        if problem:
            errors.append(Error(
                f"CONQUEST_PUSH is on but CONQUEST_VAPID_PRIVATE_KEY is unusable: {problem}.",
                hint="Set CONQUEST_VAPID_PRIVATE_KEY (python manage.py vapid_keys makes one) "
                     "or turn push off with CONQUEST_PUSH=0.",
                id="conquest.E002"))
    if settings.CONQUEST_PUSH and not settings.CONQUEST_VAPID_SUBJECT.startswith(
            ("mailto:", "https://")):
        errors.append(Error(
            "CONQUEST_VAPID_SUBJECT must be a mailto: or https: URL.",
            hint="The push services contact the site's operator there.", id="conquest.E003"))
    return errors
