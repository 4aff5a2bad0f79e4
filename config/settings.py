"""Django settings from the environment; with none set, everything runs embedded in var/."""

import os

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.environment import (  # noqa: F401 - settings themselves
    BASE_DIR,
    DEBUG,
    SITE_URL,
    TIME_ZONE,
    VAR_DIR,
    env,
    env_flag,
    env_float,
    env_int,
    env_list,
)

# Anyone can read this key in the source: with it they could forge login links and reply
# addresses. A system check (ops/checks.py) refuses it with DEBUG off, and so does the
# start of every process below.
DEV_SECRET_KEY = "dev-only-insecure-secret-key-set-SECRET_KEY-in-production"
SECRET_KEY = env("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "SECRET_KEY is the built-in development key while DEBUG is off: set SECRET_KEY "
        "to a long random value (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )
# Keys rotated out, still accepted for what they signed (links, reply addresses) until it
# expires; never used to sign.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")

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
    "conversations",
    "web",
    "ops",
    "live",
    "config",  # last: config.apps connects the signals config/reactions.py declares
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
    # A signed-in browser's requests say its user is on the site (their turn mail waits).
    "notifications.middleware.OnSite",
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
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
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
        # The service worker (/sw.js) and the web app manifest, both from this site.
        "worker-src": [SELF],
        "manifest-src": [SELF],
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
                "notifications.context.unread",
                "conversations.context.unread",
                "web.context.your_moves",
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
        conn_max_age=env_int("CONN_MAX_AGE", 60),
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
        "connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5))
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
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start while it is missing
# The documentation site as `make docs` builds it, served at /docs/ (web/views/docs.py): the
# pages link to its glossary.
CONQUEST_DOCS_DIR = BASE_DIR / "site"
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
CONQUEST_NUM_PROXIES = env_int("CONQUEST_NUM_PROXIES", 0)
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
    # Commands a bot (or anyone) sends through the API, accepted or refused.
    "command_user": env("CONQUEST_THROTTLE_COMMAND_USER", "300/minute"),
    "command_ip": env("CONQUEST_THROTTLE_COMMAND_IP", "600/minute"),
    # GET /api/v1/odds/ (anyone's, no token): the answers one client address asks for.
    "odds_ip": env("CONQUEST_THROTTLE_ODDS_IP", "120/minute"),
    # A game's pages (the page, the board as a list) read by visitors not signed in: the
    # heavy reads a crawler or a script could repeat (players and their polls are not counted).
    "game_page_ip": env("CONQUEST_THROTTLE_GAME_PAGE_IP", "120/minute"),
    # Private messages sent (conversations), pages and API together.
    "message_user": env("CONQUEST_THROTTLE_MESSAGE_USER", "120/hour"),
    "message_ip": env("CONQUEST_THROTTLE_MESSAGE_IP", "300/hour"),
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
AXES_FAILURE_LIMIT = env_int("CONQUEST_SIGNIN_FAILURES", 10)
AXES_COOLOFF_TIME = env_float("CONQUEST_SIGNIN_LOCK_MINUTES", 15) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# ...and a client address after this many failures, whatever accounts it tries.
AXES_HANDLER = "accounts.signin.AddressLockingHandler"
CONQUEST_SIGNIN_FAILURES_PER_ADDRESS = env_int("CONQUEST_SIGNIN_FAILURES_PER_ADDRESS", 30)
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
# Rendered parts of pages that are the same for many viewers (the lobby's create form), kept
# in each process: a new release's processes start without the last one's.
CACHES["fragments"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                       "LOCATION": "fragments", "OPTIONS": {"MAX_ENTRIES": 500}}

# Game chat: messages one player may post per minute in one game; reports one user may file
# per day.
CONQUEST_CHAT_PER_MINUTE = env_int("CONQUEST_CHAT_PER_MINUTE", 5)
CONQUEST_REPORTS_PER_DAY = env_int("CONQUEST_REPORTS_PER_DAY", 20)
# Private messages: conversations one player may start per day (answering is not starting).
CONQUEST_CONVERSATIONS_PER_DAY = env_int("CONQUEST_CONVERSATIONS_PER_DAY", 10)
# What follows from every change to a game, in order, and the rest of the wiring (who is
# away, who has a stake in a game, the signals' receivers...) are no settings: they are
# imported functions in config/reactions.py, handed to lib.reactions by config.apps.

# Rated games a player needs before the leaderboard lists them.
CONQUEST_LEADERBOARD_MIN_GAMES = env_int("CONQUEST_LEADERBOARD_MIN_GAMES", 5)
# Counted games after which a player is established: before, a game against them gives
# their opponents k/N of its change (ratings.counting; 0: everyone is established).
CONQUEST_RATING_ESTABLISHED_GAMES = env_int("CONQUEST_RATING_ESTABLISHED_GAMES", 5)

# Take a snapshot of a game's state every this many events (snapshots only save time).
CONQUEST_SNAPSHOT_EVERY = env_int("CONQUEST_SNAPSHOT_EVERY", 100)
# Each process keeps the newest state of this many recently used games (0: none).
CONQUEST_RECENT_STATES = env_int("CONQUEST_RECENT_STATES", 256)
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
    # (Territories are a string in the schema: each map has its own, GET /api/v1/maps/{id}/.)
    "ENUM_NAME_OVERRIDES": {"BotLevelEnum": "bots.LEVELS",
                            "GameStatusEnum": "games.api.serializers.STATUSES"},
    # 3.1: JSON Schema's own examples, const and type lists (nullable) for the hooks' parts.
    "OAS_VERSION": "3.1.0",
    # What the views cannot say by themselves: every refusal's codes, one schema per command
    # type, the game view and its events typed, and the streams (plain async views).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "lib.api.schema.describe_errors",
        "games.api.schema.describe_commands",
        "games.api.view_schema.describe_view",
        "live.schema.describe_streams",
    ],
}

# Mail, the workers and their sweeps, logs and metrics: config/workers.py.
from config.workers import *  # noqa: E402, F403

# The streams (live/, docs/bots/streams.md). Their news comes over Redis pub/sub when
# CONQUEST_STREAM_REDIS_URL is set (default: the broker's, if it is Redis), else from one
# poll of the database per process every CONQUEST_STREAM_POLL_SECONDS.
CONQUEST_STREAM_REDIS_URL = env(
    "CONQUEST_STREAM_REDIS_URL",
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "")  # noqa: F405
# Pub/sub channels ignore Redis's database numbers: the database's name keeps two sites
# (or test runs) sharing one Redis apart.
CONQUEST_STREAM_CHANNEL = env("CONQUEST_STREAM_CHANNEL",
                              f"conquest-live:{DATABASES['default']['NAME']}")
CONQUEST_STREAM_POLL_SECONDS = env_float("CONQUEST_STREAM_POLL_SECONDS", 0.5)
# With Redis, the poll still runs this seldom, for news a lost message (Redis restarting,
# a notice written outside a move) would otherwise hold back.
CONQUEST_STREAM_SAFETY_POLL_SECONDS = env_float("CONQUEST_STREAM_SAFETY_POLL_SECONDS", 5)
CONQUEST_STREAM_HEARTBEAT_SECONDS = env_float("CONQUEST_STREAM_HEARTBEAT_SECONDS", 15)
# Open streams per user (or, signed out, per client address) on the whole site, all its
# server processes together (live.quota's leases): one more is refused with 429
# {"error": "too_many_streams"}.
CONQUEST_STREAMS_PER_USER = env_int("CONQUEST_STREAMS_PER_USER", 8)
# How often a stream server asks, for all its streams at once, whether the tokens and
# sessions that opened them still hold (live.credentials); a stream whose credential was
# last found holding more than twice this long ago delivers nothing until asked again.
CONQUEST_STREAM_CHECK_SECONDS = env_float("CONQUEST_STREAM_CHECK_SECONDS", 2)
# A stream ends after this long (a tenth less, at random) with `event: close`
# (`max_lifetime`, `retry:`): the client comes back, resuming where it was.
CONQUEST_STREAM_MAX_SECONDS = env_float("CONQUEST_STREAM_MAX_SECONDS", 1800)
# Threads (each with its database connection) the streams of one process read on.
CONQUEST_STREAM_DB_THREADS = env_int("CONQUEST_STREAM_DB_THREADS", 4)
# Under the ASGI server, the threads that answer everything but the streams.
CONQUEST_ASGI_THREADS = env_int("CONQUEST_ASGI_THREADS", env_int("GUNICORN_THREADS", 8))
