"""What every settings module reads: the checkout, the environment's values, and var/ (the
embedded default's files).

A value that cannot be read refuses to start the process, naming the variable and what it
accepts: a typo ("flase", "10s") never becomes a default nobody chose. A variable set empty
counts as unset."""

import math
import os
import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env(name: str, default: str) -> str:
    return os.environ.get(name, default)


# Everything the embedded default writes (database, broker queues, mail, static files,
# gunicorn's control socket): var/ in the checkout unless CONQUEST_VAR_DIR names another
# place (a checkout that is read-only, two sites on one host; a relative path is taken
# from the checkout, as scripts/run.sh does). It holds the database and mails with
# sign-in links: only its owner may read it.
VAR_DIR = (BASE_DIR / Path(env("CONQUEST_VAR_DIR", "") or "var").expanduser()).resolve()
VAR_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
VAR_DIR.chmod(0o700)


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _given(name: str) -> str | None:
    text = os.environ.get(name, "").strip()
    return text or None


def _refuse(name: str, text: str, accepted: str):
    return ImproperlyConfigured(f"{name} is {text!r}: write {accepted} (or leave it unset).")


def env_flag(name: str, default: bool) -> bool:
    text = _given(name)
    if text is None:
        return default
    if text.lower() in TRUE or text.lower() in FALSE:
        return text.lower() in TRUE
    raise _refuse(name, text, f"one of {', '.join(TRUE)} for on, {', '.join(FALSE)} for off")


def env_int(name: str, default: int | str, minimum: int = 0) -> int:
    """A whole number of at least `minimum`."""
    text = _given(name)
    if text is None:
        return int(default)
    if re.fullmatch(r"[+-]?\d{1,18}", text) and int(text) >= minimum:
        return int(text)
    raise _refuse(name, text, f"a whole number, {minimum} or more")


def env_float(name: str, default: float | str, minimum: float = 0) -> float:
    """A number (seconds, minutes, ...) of at least `minimum`."""
    text = _given(name)
    if text is None:
        return float(default)
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isfinite(value) and value >= minimum and "_" not in text:
        return value
    raise _refuse(name, text, f"a number, {minimum:g} or more (e.g. 30 or 0.5)")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG", True)
# Where mails link to: the scheme, host and port players reach the site on. Without it, the
# address `make run` serves on (its PORT), so that mailed links work out of the box.
SITE_URL = env("SITE_URL", f"http://127.0.0.1:{env('PORT', '8000')}").rstrip("/")
# Every time of the service is kept in UTC; a player's own zone is only for showing.
TIME_ZONE = "UTC"
