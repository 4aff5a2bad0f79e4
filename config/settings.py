"""Django settings from the environment; with none set, everything runs embedded in var/."""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
# Everything the embedded default writes (database, broker queues, mail, static files).
# It holds the database and mails with sign-in links: only its owner may read it.
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(mode=0o700, exist_ok=True)
VAR_DIR.chmod(0o700)


def env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_flag(name: str, default: bool) -> bool:
    return env(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


# Anyone can read this key in the source: with it they could forge login links and reply
# addresses. A system check (config/checks.py) refuses it with DEBUG off, and so does the
# start of every process below.
DEV_SECRET_KEY = "dev-only-insecure-secret-key-set-SECRET_KEY-in-production"
SECRET_KEY = env("SECRET_KEY", DEV_SECRET_KEY)
DEBUG = env_flag("DEBUG", True)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "SECRET_KEY is the built-in development key while DEBUG is off: set SECRET_KEY "
        "to a long random value (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
# Where mails link to: the scheme, host and port players reach the site on.
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_htmx",
    "anymail",
    "games",
    "notifications",
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "notifications.middleware.InboundWebhookNeedsSecret",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "games.web.middleware.PreferencesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL (e.g. postgres://user:pass@host:5432/conquest), else SQLite in var/.
DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{VAR_DIR / 'conquest.sqlite3'}"),
        # Reuse connections (a new PostgreSQL connection costs more than a command);
        # health checks drop one the server closed.
        conn_max_age=int(env("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_flag(
        "CONQUEST_PREPARED_STATEMENTS", True):
    # The few statements every command runs (games/sql.py) are prepared once per
    # connection; psycopg never prepares anything by itself at this threshold. Turn off
    # behind a pooler that cannot keep prepared statements (PgBouncer before 1.21 in
    # transaction mode).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 1_000_000_000
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web threads, the worker and beat share one file: writers wait for the lock instead
    # of failing, take it when their transaction starts (no read-to-write upgrade
    # deadlock), and WAL lets readers proceed while one writes.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL;",
    }
    # A file, not memory, so that tests can run a real Celery worker on the same database;
    # one per test process, so that test runs side by side never share one.
    DATABASES["default"]["TEST"] = {
        "NAME": str(VAR_DIR / f"test-conquest-{os.getpid()}.sqlite3"),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]


LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("cs", _("Czech")),
    ("pl", _("Polish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start while it is missing
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Not the manifest variant: pages render without a prior collectstatic (tests, DEBUG).
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.handle",
}

# Game chat: messages one player may post per minute in one game; reports one user may file
# per day.
CONQUEST_CHAT_PER_MINUTE = int(env("CONQUEST_CHAT_PER_MINUTE", "5"))
CONQUEST_REPORTS_PER_DAY = int(env("CONQUEST_REPORTS_PER_DAY", "20"))

# Take a snapshot of a game's state every this many events (snapshots only save time).
CONQUEST_SNAPSHOT_EVERY = int(env("CONQUEST_SNAPSHOT_EVERY", "100"))
# Each process keeps the newest state of this many recently used games (0: none).
CONQUEST_RECENT_STATES = int(env("CONQUEST_RECENT_STATES", "256"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Conquest API",
    "DESCRIPTION": "Play the classic world-conquest board game asynchronously.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Mail: files under var/mail/ unless EMAIL_HOST names an SMTP server.
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Conquest <conquest@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env("EMAIL_HOST", "")
    EMAIL_PORT = int(env("EMAIL_PORT", "25"))
    EMAIL_HOST_USER = env("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", False)
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = VAR_DIR / "mail"
    EMAIL_FILE_PATH.mkdir(exist_ok=True)

# Celery: CELERY_BROKER_URL (e.g. redis://host:6379/0), else kombu's filesystem transport,
# which needs no server but only works while web, worker and beat share one disk.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "control_folder": str(_broker_dir / "control"),
    }
    for _folder in ("queue", "control"):
        (_broker_dir / _folder).mkdir(parents=True, exist_ok=True)
else:
    # A move must not wait on a broker that is down: fail fast, the outbox sweep catches up.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": 2, "socket_timeout": 5, "max_retries": 1,
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Exactly one beat runs per deployment; these are the periodic sweeps it schedules.
CELERY_BEAT_SCHEDULE: dict = {
    "deadlines": {"task": "notifications.tasks.sweep_deadlines",
                  "schedule": float(env("CONQUEST_DEADLINE_SWEEP_SECONDS", "15"))},
    "outbox": {"task": "notifications.tasks.sweep_outbox",
               "schedule": float(env("CONQUEST_OUTBOX_SWEEP_SECONDS", "30"))},
    "reminders": {"task": "notifications.tasks.sweep_reminders", "schedule": 60.0},
    "digests": {"task": "notifications.tasks.send_digests", "schedule": 600.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# Mail and moves by mail.
CONQUEST_MAIL_DOMAIN = env("CONQUEST_MAIL_DOMAIN", "localhost")
# Turn mails say Reply-To: <local>+<game>-<seat>-<signature>@<domain>; route that domain's
# mail to the anymail inbound webhook (/anymail/<provider>/inbound/) or to
# `manage.py receive_mail` from the MTA.
CONQUEST_REPLY_ADDRESS = env("CONQUEST_REPLY_ADDRESS", f"play@{CONQUEST_MAIL_DOMAIN}")
CONQUEST_MAIL_LEASE_SECONDS = int(env("CONQUEST_MAIL_LEASE_SECONDS", "300"))
CONQUEST_OUTBOX_GRACE_SECONDS = int(env("CONQUEST_OUTBOX_GRACE_SECONDS", "20"))
CONQUEST_MAIL_MAX_ATTEMPTS = int(env("CONQUEST_MAIL_MAX_ATTEMPTS", "10"))
CONQUEST_REMINDER_HOURS_MAX = 48
CONQUEST_VACATION_DAYS_PER_YEAR = int(env("CONQUEST_VACATION_DAYS_PER_YEAR", "21"))
# How long a mailed "open the game" link signs its player in (once, and never staff).
CONQUEST_OPEN_LINK_HOURS = int(env("CONQUEST_OPEN_LINK_HOURS", "72"))
ANYMAIL = {
    # Each provider's inbound webhook secret, e.g. ANYMAIL_WEBHOOK_SECRET=user:password.
    "WEBHOOK_SECRET": env("ANYMAIL_WEBHOOK_SECRET", "") or None,
}
if env("ANYMAIL_ESP", ""):
    # e.g. ANYMAIL_ESP=mailgun with MAILGUN_API_KEY: outgoing mail through the provider.
    EMAIL_BACKEND = f"anymail.backends.{env('ANYMAIL_ESP', '')}.EmailBackend"
    ANYMAIL.update({
        key[len("ANYMAIL_"):]: value for key, value in os.environ.items()
        if key.startswith("ANYMAIL_") and key not in ("ANYMAIL_ESP", "ANYMAIL_WEBHOOK_SECRET")
    })

# Server errors are logged to the console (the process's stderr) whatever DEBUG says;
# with DEBUG off nothing else would ever tell the operator about a 500.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "django.security": {"handlers": ["console"], "level": "ERROR", "propagate": False},
    },
}
