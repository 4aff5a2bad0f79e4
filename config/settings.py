"""Django settings from the environment; with none set, everything runs embedded in var/."""

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.utils.translation import gettext_lazy as _

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
# Where mails link to: the scheme, host and port players reach the site on. Without it, the
# address `make run` serves on (its PORT), so that mailed links work out of the box.
SITE_URL = env("SITE_URL", f"http://127.0.0.1:{env('PORT', '8000')}").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "anymail",
    "accounts",
    "games",
    "notifications",
    "moderation",
    "ratings",
    "tournaments",
    "web",
    "ops",
]

MIDDLEWARE = [
    # The request's id, in every line logged for it and every task it queues.
    "ops.request_id.RequestIdMiddleware",
    # /healthz, /readyz and /metrics, answered before the https redirect and the Host check.
    "ops.health.HealthMiddleware",
    # Responses by status, commands by outcome (ops.metrics), whatever answered them.
    "ops.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Around everything that may read the database: its outage answers 503, not 500.
    "ops.outage.DatabaseOutageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "notifications.middleware.InboundWebhookNeedsSecret",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "web.middleware.PreferencesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

# HTTPS, on by default with DEBUG off (each can be turned off for a site that really is
# served over plain HTTP; `check --deploy` then warns). Behind a proxy that terminates TLS,
# SECURE_PROXY_SSL_HEADER names the header it sets, e.g. HTTP_X_FORWARDED_PROTO: only set
# it when the proxy always sets or strips that header.
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_flag("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_flag("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", False)
if env("SECURE_PROXY_SSL_HEADER", ""):
    SECURE_PROXY_SSL_HEADER = (env("SECURE_PROXY_SSL_HEADER", ""), "https")
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Content-Security-Policy (django-csp): every script and style comes from this site; no
# inline script, no CDN, no framing. The API docs page alone allows its inline styles.
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

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
if (DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
        and env_flag("CONQUEST_PREPARED_STATEMENTS", True)
        and DATABASES["default"]["CONN_MAX_AGE"] != 0):
    # The few statements every command runs (lib/sql.py) are prepared once per
    # connection; psycopg never prepares anything by itself at this threshold. Turn off
    # behind a pooler that cannot keep prepared statements (PgBouncer before 1.21 in
    # transaction mode). Not with CONN_MAX_AGE=0: each request's new connection would
    # prepare each statement again, a round trip and a plan more than running it.
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 1_000_000_000
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database host that does not answer (down, or a firewall dropping packets) fails a
    # request within seconds (503, Retry-After) instead of holding a web worker for minutes.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", int(env("DATABASE_CONNECT_TIMEOUT", "5")))
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
        # accounts.tokens' lookup, reading the game the URL names with it (games.api.auth)
        "games.api.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.handle",
    # Per-IP and per-account limits (accounts/throttles.py reads the rates below when a
    # request comes, so a deployment or a test can change them).
    "DEFAULT_THROTTLE_CLASSES": [],
}

# Proxies in front of the site that append the address they saw to X-Forwarded-For. Every
# per-address limit (the throttles below, django-axes) counts the address
# accounts.throttles.client_address finds: with 0 the connection's own, and the header,
# which any client can write, is ignored.
CONQUEST_NUM_PROXIES = int(env("CONQUEST_NUM_PROXIES", "0"))
if CONQUEST_NUM_PROXIES < 0:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("CONQUEST_NUM_PROXIES is a number of proxies: 0 or more.")
REST_FRAMEWORK["NUM_PROXIES"] = CONQUEST_NUM_PROXIES
AXES_CLIENT_IP_CALLABLE = "accounts.throttles.client_address"

# Rates as DRF writes them ("N/second|minute|hour|day"), per client address ("…_ip") and
# per account ("…_user"). Sign-in failures are counted by django-axes below as well.
CONQUEST_THROTTLE_RATES = {
    "signup_ip": env("CONQUEST_THROTTLE_SIGNUP_IP", "100/hour"),
    "token_ip": env("CONQUEST_THROTTLE_TOKEN_IP", "30/minute"),
    "token_user": env("CONQUEST_THROTTLE_TOKEN_USER", "60/hour"),
    "create_game_user": env("CONQUEST_THROTTLE_CREATE_GAME_USER", "100/hour"),
    "create_game_ip": env("CONQUEST_THROTTLE_CREATE_GAME_IP", "300/hour"),
    "report_user": env("CONQUEST_THROTTLE_REPORT_USER", "30/hour"),
    "report_ip": env("CONQUEST_THROTTLE_REPORT_IP", "60/hour"),
    # Resets one client asks for (refused with 429), and those of one address, whoever asks
    # (answered as if mailed, so that nobody learns whether an account has the address).
    "password_reset_ip": env("CONQUEST_THROTTLE_RESET_IP", "5/hour"),
    "password_reset_email": env("CONQUEST_THROTTLE_RESET_EMAIL", "3/hour"),
}

# Sign-in forms (the site's and the admin's), the token call and the password asked again
# to change it or the email address (accounts.signin): django-axes locks an account for a
# client address after this many failures, for this long; a success resets the count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(env("CONQUEST_SIGNIN_FAILURES", "10"))
AXES_COOLOFF_TIME = float(env("CONQUEST_SIGNIN_LOCK_MINUTES", "15")) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# ...and a client address after this many failures, whatever accounts it tries.
AXES_HANDLER = "accounts.signin.AddressLockingHandler"
CONQUEST_SIGNIN_FAILURES_PER_ADDRESS = int(env("CONQUEST_SIGNIN_FAILURES_PER_ADDRESS", "30"))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# Throttle counters live in the cache: CACHE_URL (redis://host:6379/1) for a deployment
# with several web machines; else files under var/cache, shared by the processes of one
# machine; locmem:// keeps them in each process (tests).
CACHE_URL = env("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": CACHE_URL}}
elif CACHE_URL.startswith("locmem://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                          "LOCATION": str(VAR_DIR / "cache")}}

# Game chat: messages one player may post per minute in one game; reports one user may file
# per day.
CONQUEST_CHAT_PER_MINUTE = int(env("CONQUEST_CHAT_PER_MINUTE", "5"))
CONQUEST_REPORTS_PER_DAY = int(env("CONQUEST_REPORTS_PER_DAY", "20"))
# Who has a stake in a game besides its players, so may not moderate it (own_game): each a
# function of a user giving the ids of such games (games.moderation.stakes).
CONQUEST_MODERATOR_STAKES = ["tournaments.moderators.games_entered"]
# What follows from every change to a game, in order (config/reactions.py lists them).
from config.reactions import CONQUEST_REACTIONS, CONQUEST_SEAT_FLAGS  # noqa: E402, F401

# Rated games a player needs before the leaderboard lists them.
CONQUEST_LEADERBOARD_MIN_GAMES = int(env("CONQUEST_LEADERBOARD_MIN_GAMES", "5"))
# Counted games after which a player is established: before, a game against them gives
# their opponents k/N of its change (ratings.played; 0: everyone is established).
CONQUEST_RATING_ESTABLISHED_GAMES = int(env("CONQUEST_RATING_ESTABLISHED_GAMES", "5"))

# Take a snapshot of a game's state every this many events (snapshots only save time).
CONQUEST_SNAPSHOT_EVERY = int(env("CONQUEST_SNAPSHOT_EVERY", "100"))
# Each process keeps the newest state of this many recently used games (0: none).
CONQUEST_RECENT_STATES = int(env("CONQUEST_RECENT_STATES", "256"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Conquest API",
    "DESCRIPTION": "Play the classic world-conquest board game asynchronously.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the drf-spectacular-sidecar package: the docs page loads nothing
    # from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Every territory field shares one enum in the schema.
    "ENUM_NAME_OVERRIDES": {"TerritoryEnum": "games.rules.board.TERRITORIES",
                            "BotLevelEnum": "bots.LEVELS"},
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
try:
    from kombu.transport import resolve_transport

    _asynchronous = resolve_transport(
        CELERY_BROKER_URL.split("://")[0].split("+")[0]).implements.asynchronous
except ImportError:  # a transport whose client is not installed: the worker will say so
    _asynchronous = True
if not _asynchronous:
    # Tasks run in threads of the worker, not in forked pool processes. On a transport
    # that cannot wait on sockets (the filesystem one polls files) Celery's prefork pool is
    # billiard's blocking pool: its processes share one pipe of tasks behind one lock (a
    # semaphore), which an idle process holds while it waits. A process killed there (the
    # OOM killer) never releases it; its replacement waits for it for good, and so does
    # the worker with its one prefetched task. Redis's workers keep their processes: that
    # pool gives each its own pipe and replaces a lost one.
    CELERY_WORKER_POOL = "threads"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
# A task whose process died is acknowledged as failed, not redelivered: a task that kills
# its worker would otherwise come back for ever, and every task is swept again (deadlines,
# the outbox, bots' moves) by the next run of its sweep.
CELERY_TASK_REJECT_ON_WORKER_LOST = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Three queues, so that a deadline never waits behind mail: `deadlines` (the deadline
# sweep), `mail` (sending, the outbox, reminders and digests) and `celery` (computer
# players' moves). `make run` starts one worker for `deadlines` and `celery`, another for
# `mail`; a worker started without -Q takes all three.
CELERY_TASK_QUEUES = {"deadlines": {}, "mail": {}, "celery": {}}
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "notifications.tasks.sweep_deadlines": {"queue": "deadlines"},
    "notifications.tasks.*": {"queue": "mail"},
}
CONQUEST_DEADLINE_SWEEP_SECONDS = float(env("CONQUEST_DEADLINE_SWEEP_SECONDS", "15"))
# Overdue games one sweep task takes; more are swept by a task queued at once after it, so
# that no run holds its worker for long.
CONQUEST_DEADLINE_SWEEP_BATCH = int(env("CONQUEST_DEADLINE_SWEEP_BATCH", "500"))
# The periodic sweeps beat schedules (one beat sends them: a second one stands by).
CELERY_BEAT_SCHEDULE: dict = {
    # A sweep not started within its interval is dropped: the next one does its work.
    "deadlines": {"task": "notifications.tasks.sweep_deadlines",
                  "schedule": CONQUEST_DEADLINE_SWEEP_SECONDS,
                  "options": {"expires": CONQUEST_DEADLINE_SWEEP_SECONDS}},
    "outbox": {"task": "notifications.tasks.sweep_outbox",
               "schedule": float(env("CONQUEST_OUTBOX_SWEEP_SECONDS", "30"))},
    "reminders": {"task": "notifications.tasks.sweep_reminders", "schedule": 60.0},
    "digests": {"task": "notifications.tasks.send_digests", "schedule": 600.0},
    "results": {"task": "ratings.tasks.record_results",
                "schedule": float(env("CONQUEST_RESULTS_SWEEP_SECONDS", "60"))},
    "tournaments": {"task": "tournaments.tasks.sweep_tournaments",
                    "schedule": float(env("CONQUEST_TOURNAMENT_SWEEP_SECONDS", "60"))},
    "bots": {"task": "games.tasks.sweep_bots",
             "schedule": float(env("CONQUEST_BOT_SWEEP_SECONDS", "30"))},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# A second beat started by mistake stands by instead of sending every task twice: beat
# sends only while it holds a lease in the database, renewed a few times a lease, and a
# standing-by beat takes over within this long of the one holding it stopping.
CELERY_BEAT_SCHEDULER = "ops.beat.LeasedScheduler"
CONQUEST_BEAT_LEASE_SECONDS = float(env("CONQUEST_BEAT_LEASE_SECONDS", "30"))
# /readyz fails when no deadline sweep has completed for this long: a worker that takes no
# task (stuck, dead, no beat) keeps the site from being called ready.
CONQUEST_READY_SWEEP_SECONDS = float(env("CONQUEST_READY_SWEEP_SECONDS",
                                         str(4 * CONQUEST_DEADLINE_SWEEP_SECONDS)))

# Mail and moves by mail. The domain of every Message-ID and of the reply address: by
# default the site's own host name (an address, as `make run` serves on, says localhost).
_site_host = urlsplit(SITE_URL).hostname or "localhost"
try:
    ipaddress.ip_address(_site_host)
    _site_host = "localhost"
except ValueError:
    pass
CONQUEST_MAIL_DOMAIN = env("CONQUEST_MAIL_DOMAIN", "") or _site_host
# Turn mails say Reply-To: <local>+<game>-<seat>-<signature>@<domain>; route that domain's
# mail to the anymail inbound webhook (/anymail/<provider>/inbound/) or to
# `manage.py receive_mail` from the MTA.
CONQUEST_REPLY_ADDRESS = env("CONQUEST_REPLY_ADDRESS", f"play@{CONQUEST_MAIL_DOMAIN}")
CONQUEST_MAIL_LEASE_SECONDS = int(env("CONQUEST_MAIL_LEASE_SECONDS", "300"))
CONQUEST_OUTBOX_GRACE_SECONDS = int(env("CONQUEST_OUTBOX_GRACE_SECONDS", "20"))
# A process hands the mails its moves cause to the workers in one task per this long.
CONQUEST_DELIVERY_LINGER_SECONDS = float(env("CONQUEST_DELIVERY_LINGER_SECONDS", "0.5"))
# Computer players move this many seconds (at most) after their decision falls due.
CONQUEST_BOT_DELAY_SECONDS = float(env("CONQUEST_BOT_DELAY_SECONDS", "2"))
CONQUEST_MAIL_MAX_ATTEMPTS = int(env("CONQUEST_MAIL_MAX_ATTEMPTS", "10"))
CONQUEST_REMINDER_HOURS_MAX = 48
CONQUEST_VACATION_DAYS_PER_YEAR = int(env("CONQUEST_VACATION_DAYS_PER_YEAR", "21"))
# How long a mailed "open the game" link signs its player in (once, and never staff).
CONQUEST_OPEN_LINK_HOURS = int(env("CONQUEST_OPEN_LINK_HOURS", "72"))
# How long the mailed link that confirms an address works.
CONQUEST_CONFIRM_LINK_HOURS = int(env("CONQUEST_CONFIRM_LINK_HOURS", "72"))
# An API token not used for this many days is refused (and deleted).
CONQUEST_API_TOKEN_IDLE_DAYS = int(env("CONQUEST_API_TOKEN_IDLE_DAYS", "90"))
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

# Logs go to the console (the process's stderr), server errors whatever DEBUG says: with
# DEBUG off nothing else would ever tell the operator about a 500. CONQUEST_LOG_FORMAT=json
# writes a JSON object a line (python-json-logger) for a log collector; either way each
# line names the request it serves, or the request that queued its task (ops.request_id).
CONQUEST_LOG_FORMAT = env("CONQUEST_LOG_FORMAT", "plain").strip().lower()
from ops.logs import logging_settings  # noqa: E402 - a dictionary, nothing of Django's

LOGGING = logging_settings(CONQUEST_LOG_FORMAT)

# Prometheus metrics at /metrics (ops.scrape), for a scraper that sends this token
# (Authorization: Bearer, or as the password of basic auth) or comes from one of these
# addresses or networks (the connection's own address, or the client's as
# CONQUEST_NUM_PROXIES finds it). With neither, /metrics answers 404. By default loopback
# may scrape with DEBUG on, nobody with it off.
CONQUEST_METRICS_TOKEN = env("CONQUEST_METRICS_TOKEN", "")
CONQUEST_METRICS_ADDRESSES = env_list("CONQUEST_METRICS_ADDRESSES",
                                      "127.0.0.1,::1" if DEBUG else "")
# Every process of a host (gunicorn's workers, Celery's) counts in its own files here, and
# /metrics adds them up (prometheus-client's multiprocess mode). `make run` empties it at
# start; a deployment empties it before it starts the host's processes.
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(VAR_DIR / "metrics"))
CONQUEST_METRICS_DIR = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
CONQUEST_METRICS_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
