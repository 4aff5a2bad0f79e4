"""What every settings module reads: the checkout, the environment's values, and var/ (the
embedded default's files)."""

import os
from pathlib import Path

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


def env_flag(name: str, default: bool) -> bool:
    return env(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG", True)
# Where mails link to: the scheme, host and port players reach the site on. Without it, the
# address `make run` serves on (its PORT), so that mailed links work out of the box.
SITE_URL = env("SITE_URL", f"http://127.0.0.1:{env('PORT', '8000')}").rstrip("/")
# Every time of the service is kept in UTC; a player's own zone is only for showing.
TIME_ZONE = "UTC"
