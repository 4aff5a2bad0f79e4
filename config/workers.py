"""Settings of mail, the Celery workers and beat (queues, sweeps, leases), moves by mail,
logs and metrics: read by config.settings, which every process loads."""

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

from kombu.transport import TRANSPORT_ALIASES

from config.environment import (
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

# Mail: files under var/mail/ unless EMAIL_HOST names an SMTP server.
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Conquest <conquest@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env("EMAIL_HOST", "")
    EMAIL_PORT = env_int("EMAIL_PORT", 25)
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
# kombu's filesystem transport with its messages written whole before a worker sees them
# (lib/file_broker.py), for every filesystem:// connection of the process.
TRANSPORT_ALIASES["filesystem"] = "lib.file_broker:Transport"
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
# Four queues, so that the clock never waits behind other work: `deadlines` (the clock: the
# deadline sweep, computer players' moves and their sweep), `celery` (results, tournaments),
# `mail` (sending, the outbox, reminders and digests) and `analysis` (heavy derived work:
# finished games' analysis, their pages drawn ahead). `make run` starts one worker for
# `deadlines` and `celery`, one for `mail`, one for `analysis`; a worker started without -Q
# takes all four. A computer player's move is on `deadlines`, not `celery`: a worker takes
# one message of its queues in turn, and on the embedded broker (polled every second, one
# message unacknowledged at a time) a burst of finished games' results and tournament steps
# queued on `celery` kept a move waiting about two seconds a message ahead of it (71 s behind 20 finished games).
CELERY_TASK_QUEUES = {"deadlines": {}, "mail": {}, "celery": {}, "analysis": {}}
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "games.tasks.sweep_deadlines": {"queue": "deadlines"},
    "games.tasks.play_bots": {"queue": "deadlines"},
    "games.tasks.sweep_bots": {"queue": "deadlines"},
    "notifications.tasks.*": {"queue": "mail"},
    "ratings.tasks.analyse_game": {"queue": "analysis"},
    "ratings.tasks.sweep_analysis": {"queue": "analysis"},
    "web.tasks.draw_finished_page": {"queue": "analysis"},
}
CONQUEST_DEADLINE_SWEEP_SECONDS = env_float("CONQUEST_DEADLINE_SWEEP_SECONDS", 15)
# Overdue games one sweep task takes; more are swept by a task queued at once after it, so
# that no run holds its worker for long.
CONQUEST_DEADLINE_SWEEP_BATCH = env_int("CONQUEST_DEADLINE_SWEEP_BATCH", 500)
# The periodic sweeps beat schedules (one beat sends them: a second one stands by).
CELERY_BEAT_SCHEDULE: dict = {
    # A sweep not started within its interval is dropped: the next one does its work.
    "deadlines": {"task": "games.tasks.sweep_deadlines",
                  "schedule": CONQUEST_DEADLINE_SWEEP_SECONDS,
                  "options": {"expires": CONQUEST_DEADLINE_SWEEP_SECONDS}},
    "outbox": {"task": "notifications.tasks.sweep_outbox",
               "schedule": env_float("CONQUEST_OUTBOX_SWEEP_SECONDS", 30)},
    "reminders": {"task": "notifications.tasks.sweep_reminders", "schedule": 60.0},
    "digests": {"task": "notifications.tasks.send_digests", "schedule": 600.0},
    "results": {"task": "ratings.tasks.record_results",
                "schedule": env_float("CONQUEST_RESULTS_SWEEP_SECONDS", 60)},
    "analysis": {"task": "ratings.tasks.sweep_analysis",
                 "schedule": env_float("CONQUEST_ANALYSIS_SWEEP_SECONDS", 60)},
    "tournaments": {"task": "tournaments.tasks.sweep_tournaments",
                    "schedule": env_float("CONQUEST_TOURNAMENT_SWEEP_SECONDS", 60)},
    "bots": {"task": "games.tasks.sweep_bots",
             "schedule": env_float("CONQUEST_BOT_SWEEP_SECONDS", 30)},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# A second beat started by mistake stands by instead of sending every task twice: beat
# sends only while it holds a lease in the database, renewed a few times a lease, and a
# standing-by beat takes over within this long of the one holding it stopping.
CELERY_BEAT_SCHEDULER = "ops.beat.LeasedScheduler"
CONQUEST_BEAT_LEASE_SECONDS = env_float("CONQUEST_BEAT_LEASE_SECONDS", 30)
# /readyz fails when no deadline sweep has completed for this long: a worker that takes no
# task (stuck, dead, no beat) keeps the site from being called ready.
CONQUEST_READY_SWEEP_SECONDS = env_float("CONQUEST_READY_SWEEP_SECONDS",
                                         4 * CONQUEST_DEADLINE_SWEEP_SECONDS)

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
CONQUEST_MAIL_LEASE_SECONDS = env_int("CONQUEST_MAIL_LEASE_SECONDS", 300)
CONQUEST_OUTBOX_GRACE_SECONDS = env_int("CONQUEST_OUTBOX_GRACE_SECONDS", 20)
# A player counts as on a game's page this long after its last live poll (every 4 s): their
# "your move" mail waits meanwhile, and goes out once if they leave without moving.
CONQUEST_PRESENCE_SECONDS = env_int("CONQUEST_PRESENCE_SECONDS", 30)
# A player counts as on the site this long after their browser's last request (any page,
# a game page's poll or stream): their "your move" mails wait meanwhile.
CONQUEST_ON_SITE_SECONDS = env_int("CONQUEST_ON_SITE_SECONDS", 300)
# In a game against computer players only (its turns come back within seconds), the turn
# mail waits until the player has been away from the site this long.
CONQUEST_COMPUTER_GAME_AWAY_SECONDS = env_int("CONQUEST_COMPUTER_GAME_AWAY_SECONDS", 1800)
# The end mail waits for the game's ratings to be recorded (a worker does it within seconds
# of the end) for at most this long, then goes out without the rating change.
CONQUEST_END_MAIL_WAIT_SECONDS = env_int("CONQUEST_END_MAIL_WAIT_SECONDS", 300)
# A finished game's win chance (ratings.analysis), worked out by the analysis worker (its
# own queue, never the clock's) at a bounded cost: at most CONQUEST_ANALYSIS_POINTS
# positions are played out, each until its 95 % margin is within CONQUEST_ANALYSIS_MARGIN
# points or it had CONQUEST_ANALYSIS_PLAYOUTS play-outs, and the whole game stops at
# CONQUEST_ANALYSIS_CPU_SECONDS of CPU (plus at most one round of 4 play-outs), in tasks of
# about CONQUEST_ANALYSIS_CHUNK_SECONDS each. CONQUEST_ANALYSIS=0 turns it off (pages and
# the API then say "not analysed").
CONQUEST_ANALYSIS = env_flag("CONQUEST_ANALYSIS", True)
CONQUEST_ANALYSIS_POINTS = env_int("CONQUEST_ANALYSIS_POINTS", 24)
CONQUEST_ANALYSIS_PLAYOUTS = env_int("CONQUEST_ANALYSIS_PLAYOUTS", 32)
CONQUEST_ANALYSIS_MARGIN = env_float("CONQUEST_ANALYSIS_MARGIN", 15)
CONQUEST_ANALYSIS_CPU_SECONDS = env_float("CONQUEST_ANALYSIS_CPU_SECONDS", 6)
CONQUEST_ANALYSIS_CHUNK_SECONDS = env_float("CONQUEST_ANALYSIS_CHUNK_SECONDS", 2)
# The analysis worker (the one whose --hostname begins with "analysis@", config.celery):
# how many tasks it runs at once, the nice level its processes run at (so that a host's
# clock and web processes come first), and the hard time limit of one of its tasks
# (prefork pool, i.e. with a broker server such as Redis).
CONQUEST_ANALYSIS_CONCURRENCY = env_int("CONQUEST_ANALYSIS_CONCURRENCY", 1)
CONQUEST_ANALYSIS_NICE = env_int("CONQUEST_ANALYSIS_NICE", 10)
CONQUEST_ANALYSIS_TASK_SECONDS = env_int("CONQUEST_ANALYSIS_TASK_SECONDS", 120)
# A process hands the mails its moves cause to the workers in one task per this long.
CONQUEST_DELIVERY_LINGER_SECONDS = env_float("CONQUEST_DELIVERY_LINGER_SECONDS", 0.5)
# Computer players move this many seconds (at most) after their decision falls due.
CONQUEST_BOT_DELAY_SECONDS = env_float("CONQUEST_BOT_DELAY_SECONDS", 2)
CONQUEST_MAIL_MAX_ATTEMPTS = env_int("CONQUEST_MAIL_MAX_ATTEMPTS", 10)
CONQUEST_REMINDER_HOURS_MAX = 48
CONQUEST_VACATION_DAYS_PER_YEAR = env_int("CONQUEST_VACATION_DAYS_PER_YEAR", 21)
# How long a mailed "open the game" link signs its player in (once, and never staff).
CONQUEST_OPEN_LINK_HOURS = env_int("CONQUEST_OPEN_LINK_HOURS", 72)
# How long the mailed link that confirms an address works.
CONQUEST_CONFIRM_LINK_HOURS = env_int("CONQUEST_CONFIRM_LINK_HOURS", 72)
# An API token not used for this many days is refused (and deleted).
CONQUEST_API_TOKEN_IDLE_DAYS = env_int("CONQUEST_API_TOKEN_IDLE_DAYS", 90)
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

# Web push (notifications.push): "your move", "game over" and the other game news mail
# sends, to the browsers a player opted in from their profile. The VAPID key pair signs
# every push: CONQUEST_VAPID_PRIVATE_KEY is the P-256 private key as base64url of its 32
# raw bytes (`python manage.py vapid_keys` prints a new one); the public key is derived
# from it. With DEBUG on and no key, one is made in var/vapid_private_key on first use.
# With DEBUG off, push is on when a key is given (CONQUEST_PUSH=0 turns it off), and a
# system check refuses a missing or invalid key while CONQUEST_PUSH=1.
CONQUEST_VAPID_PRIVATE_KEY = env("CONQUEST_VAPID_PRIVATE_KEY", "").strip()
CONQUEST_PUSH = env_flag("CONQUEST_PUSH", DEBUG or bool(CONQUEST_VAPID_PRIVATE_KEY))
# Who the push services may contact about this site's pushes (a mailto: or https: URL).
CONQUEST_VAPID_SUBJECT = env("CONQUEST_VAPID_SUBJECT", f"mailto:push@{CONQUEST_MAIL_DOMAIN}")
# How long a push service keeps a push for a browser that is offline, and how long one
# push waits for the push service's answer (seconds).
CONQUEST_PUSH_TTL_SECONDS = env_int("CONQUEST_PUSH_TTL_SECONDS", 3600)
CONQUEST_PUSH_TIMEOUT_SECONDS = env_float("CONQUEST_PUSH_TIMEOUT_SECONDS", 10)
# The push services a browser's subscription may name (host names, a leading dot for every
# host under a domain): the server POSTs to them, so nothing else (an address inside the
# network) may be named. The default: the browsers' own push services, over https (Google's
# is fcm.googleapis.com alone: any other host under googleapis.com is someone's API).
CONQUEST_PUSH_HOSTS = env_list(
    "CONQUEST_PUSH_HOSTS",
    "fcm.googleapis.com,.push.services.mozilla.com,.push.apple.com,.notify.windows.com")
# Browsers one account may subscribe (the oldest goes when another comes).
CONQUEST_PUSH_BROWSERS_PER_USER = env_int("CONQUEST_PUSH_BROWSERS_PER_USER", 10)
