"""Django settings for Versailles.

Everything that differs between a laptop and production comes from environment
variables (see README.md). With none set, the service runs embedded: SQLite
and Celery's filesystem broker under var/, no other services needed.
"""

import os
from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _
from kombu import Queue

from versailles_site.env import (
    database_config,
    email_config,
    env_bool,
    env_int,
    env_list,
    env_path,
    env_seconds_from_ms,
    env_str,
    proxy_ssl_header,
    redis_url,
    secret_key,
    secret_key_fallbacks,
    site_url,
)
from versailles_site.release import code_digest

BASE_DIR = Path(__file__).resolve().parent.parent

# Runtime state (SQLite file, filesystem broker, dev mailbox) lives here; it is
# gitignored. VAR_DIR moves it, e.g. to give a test's Celery worker a broker
# folder and mailbox of its own.
VAR_DIR = Path(env_path(os.environ, "VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# On by default because the embedded setup (make run) is for development;
# production sets DEBUG=false, which then demands a real SECRET_KEY.
DEBUG = env_bool(os.environ, "DEBUG", True)
SECRET_KEY = secret_key(os.environ, debug=DEBUG)
# Rotating the key: put the old one here; links and reply addresses made under
# it keep working (games.services.links), and so do sessions.
SECRET_KEY_FALLBACKS = secret_key_fallbacks(os.environ, debug=DEBUG)
ALLOWED_HOSTS = env_list(
    os.environ, "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"]
)

# Base for absolute links in email, where there is no request to build from.
SITE_URL = site_url(os.environ, "http://127.0.0.1:8000")
CSRF_TRUSTED_ORIGINS = [SITE_URL]
HTTPS = SITE_URL.startswith("https://")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
# Served over HTTPS (SITE_URL says so): plain HTTP is redirected, and browsers
# are told for a year to use nothing else. Behind a proxy that ends TLS,
# SECURE_PROXY_SSL_HEADER names the header it sets, or every request would be
# redirected again and again.
SECURE_PROXY_SSL_HEADER = proxy_ssl_header(os.environ)
SECURE_SSL_REDIRECT = env_bool(os.environ, "SECURE_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = env_int(os.environ, "SECURE_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(os.environ, "SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool(os.environ, "SECURE_HSTS_PRELOAD", HTTPS)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "axes",
    "games.apps.GamesConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (the admin's too) from the app itself, gunicorn included:
    # collected by collectstatic into STATIC_ROOT.
    # (WhiteNoise's, in a middleware that passes other requests on without a
    # thread under ASGI.)
    "versailles_site.static_files.StaticFiles",
    "versailles_site.headers.SecurityHeadersMiddleware",
    # Before anything reads a provider's webhook request (it may carry an email
    # built to stall a parser), and closing the webhooks without a secret.
    "games.web.webhooks.WebhookDoor",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common: it reads the session and CommonMiddleware
    # resolves URLs (APPEND_SLASH) in the active language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "versailles_site.urls"
WSGI_APPLICATION = "versailles_site.wsgi.application"

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
                "games.web.context.site",
            ],
        },
    },
]

# SQLITE_PATH lets a second process (a test's Celery worker) open the same file.
DATABASES = {
    "default": database_config(os.environ, sqlite_path=env_str(os.environ, "SQLITE_PATH", str(VAR_DIR / "db.sqlite3")))
}
# Opening a PostgreSQL connection per request cost about 40 % of the web
# throughput in the load test (issue 13); in production a connection lives a
# minute, checked before reuse. Off under DEBUG, where the test suite's live
# servers and workers must let go of the test database.
DATABASES["default"]["CONN_MAX_AGE"] = env_int(os.environ, "DATABASE_CONN_MAX_AGE", 0 if DEBUG else 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Stored times are UTC; each seat's own time zone is applied when rendering.
TIME_ZONE = "UTC"
USE_TZ = True

USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]

STATIC_URL = "static/"
STATIC_ROOT = Path(env_path(os.environ, "STATIC_ROOT", str(VAR_DIR / "static")))
# WhiteNoise warns on every start while the folder is missing.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Compressed copies, made by collectstatic; no manifest, so pages render
# (and tests run) without collectstatic having been run first.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Celery: Redis when REDIS_URL is set, otherwise kombu's filesystem transport
# so that worker and beat run as real processes with no broker to install.
REDIS_URL = redis_url(os.environ)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    CELERY_DIR = VAR_DIR / "celery"
    # Producers and consumers are the same codebase, so one folder serves as
    # both the inbox and the outbox.
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DIR / "queue"),
        "data_folder_out": str(CELERY_DIR / "queue"),
        "processed_folder": str(CELERY_DIR / "processed"),
        "control_folder": str(CELERY_DIR / "control"),
    }
    # kombu does not create these and fails on the first message without them.
    for folder in ("queue", "processed", "control"):
        (CELERY_DIR / folder).mkdir(parents=True, exist_ok=True)

# Two caches, which every web process must share: Redis when there is one,
# else files under VAR_DIR. "default" counts the rate limits
# (games.web.limits); "pages" keeps the game pages (games/web/seat_page.py,
# games/web/public.py), under a prefix that carries the release, so HTML
# made by older code is never served after a deploy. RELEASE names it (an
# image tag, a commit); without it, a digest of the code is the release.
RELEASE = env_str(os.environ, "RELEASE") or code_digest(BASE_DIR)
if REDIS_URL:
    CACHES = {
        alias: {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": prefix}
        for alias, prefix in (("default", "limits"), ("pages", f"pages-{RELEASE}"))
    }
else:
    CACHES = {
        alias: {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache" / alias),
            "KEY_PREFIX": prefix,
        }
        for alias, prefix in (("default", "limits"), ("pages", f"pages-{RELEASE}"))
    }

# JSON only: pickle would let anyone who can write to the broker run code.
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# Tasks report their effect through the database, never through results.
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
# The beat: the database holds every deadline; these sweeps act on what is due.
CELERY_BEAT_SCHEDULE = {
    "deadlines": {"task": "games.deadlines_sweep", "schedule": 30.0},
    "reminders": {"task": "games.reminders_sweep", "schedule": 60.0},
    "open-waits": {"task": "games.open_waits_sweep", "schedule": 60.0},
    "unsent-email": {"task": "games.notifications_sweep", "schedule": 60.0},
    "unsent-webhooks": {"task": "games.webhooks_sweep", "schedule": 60.0},
    "unread-replies": {"task": "games.inbound_sweep", "schedule": 30.0},
    "digests": {"task": "games.digests_send", "schedule": 3600.0},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Two queues: "mail" for sending (each send waits on the provider, and a race
# that ends in many games queues thousands at once) and "celery" for the
# sweeps and the decisions they apply, which hold every deadline and must
# never wait behind a burst of email. A worker started without -Q takes both
# (make run, the tests); production runs one worker per queue.
MAIL_QUEUE = "mail"
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Each queue bound by its own name: two queues on one key of the direct
# exchange would each receive every task.
CELERY_TASK_QUEUES = tuple(Queue(name, routing_key=name) for name in (CELERY_TASK_DEFAULT_QUEUE, MAIL_QUEUE))
CELERY_TASK_ROUTES = {
    "games.notification_send": {"queue": MAIL_QUEUE},
    "games.link_resend": {"queue": MAIL_QUEUE},
    # A webhook's receiver may take seconds to answer, as a mail provider may.
    "games.webhook_send": {"queue": MAIL_QUEUE},
}
# One task at a time per worker process, acknowledged after it ran (the
# state-changing tasks also say so themselves).
# Celery would close the database connection around every task; the
# connection follows CONN_MAX_AGE instead (versailles_site/celery.py).
CELERY_DB_REUSE_MAX = 2**31
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Keep retrying a broker that is not up yet (Celery 6 stops doing so unless
# told, and warns about it until then).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker works out what the computer players' first decisions need (about
# half a second of CPU) before its pool forks, so no player's first decision
# pays for it (games/tasks.py).
COMPUTER_WARM_UP_AT_WORKER_START = True

# Mail: with no provider configured, messages go to the local dev mailbox
# (var/mail/*.eml, listed at /dev/mailbox/ while DEBUG is on).
EMAIL_BACKEND, ANYMAIL = email_config(os.environ)
DEFAULT_FROM_EMAIL = env_str(os.environ, "DEFAULT_FROM_EMAIL", "Versailles <versailles@localhost>")
# Smtp (e.g. Mailpit in docker-compose.yml)
EMAIL_HOST = env_str(os.environ, "EMAIL_HOST", "localhost")
EMAIL_PORT = env_int(os.environ, "EMAIL_PORT", 25)
# Replies to decision emails go to reply+<seat token>@REPLY_DOMAIN, which the
# provider's inbound route must deliver to /anymail/<provider>/inbound/.
REPLY_DOMAIN = env_str(os.environ, "REPLY_DOMAIN", "reply.localhost")

# Chat webhooks (games.services.webhook_http) go to public addresses over
# https only. On, they may also go to private, loopback and link-local
# addresses, and over plain http: a receiver on the same machine or network
# (the tests' one on 127.0.0.1). Off in production unless that is meant.
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env_bool(os.environ, "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", False)

# Seat and unsubscribe links carry their secret in the path, reply addresses
# in the local part: keep them out of every log line. Django's own default
# handler for the "django" logger (which django.security.csrf logs through)
# has no filter, and a logger left out here keeps the handlers it had, so the
# root logger and "django" are both pointed at the filtered handler.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"hide_seat_tokens": {"()": "games.log_filters.HideSeatTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["hide_seat_tokens"]},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.request": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}

# Client addresses, for rate limits and login lockouts: REMOTE_ADDR, unless the
# app runs behind this many reverse proxies that each append the address they
# saw to X-Forwarded-For (then the one the outermost proxy appended; anything
# left of it was written by the client and is not trusted).
TRUSTED_PROXY_HOPS = env_int(os.environ, "TRUSTED_PROXY_HOPS", 0)

# The JSON API's rate limits (games/web/api.py), per minute. A bot polling
# once a second and deciding at once stays well inside the token's; the
# client's allows a few such bots behind one address.
API_REQUESTS_PER_MINUTE_PER_TOKEN = env_int(os.environ, "API_REQUESTS_PER_MINUTE_PER_TOKEN", 300)
API_REQUESTS_PER_MINUTE_PER_CLIENT = env_int(os.environ, "API_REQUESTS_PER_MINUTE_PER_CLIENT", 1200)
# GET /api/v1/seat?wait=N answers at the latest after this many seconds, and
# the event stream sends a comment this often while the game stands still
# (games/selectors/waits.py). A waiting client learns of a new version within
# one poll: each web process reads the versions of every game waited on in
# one statement this often.
API_WAIT_SECONDS = 30
API_WAIT_POLL_SECONDS = env_seconds_from_ms(os.environ, "API_WAIT_POLL_MS", 500)
# An event stream ends after this long (a client reconnects with
# Last-Event-ID), so a deploy or a balancer's idle limit never cuts one
# unannounced for long.
API_STREAM_SECONDS = 600

# Answers to replies by email (games/services/inbound.py), so that whoever
# knows a reply address cannot flood the player: at most one answer per seat
# in REPLY_ANSWER_EVERY_SECONDS, whatever the reply said (the next answer tells
# how many were not answered); a reply to an address whose decision came up
# more than REPLY_OLD_AFTER_DAYS ago is answered at most once per
# REPLY_OLD_ANSWER_EVERY_SECONDS. Decisions are applied either way.
REPLY_ANSWER_EVERY_SECONDS = env_int(os.environ, "REPLY_ANSWER_EVERY_SECONDS", 600)
REPLY_OLD_AFTER_DAYS = env_int(os.environ, "REPLY_OLD_AFTER_DAYS", 3)
REPLY_OLD_ANSWER_EVERY_SECONDS = env_int(os.environ, "REPLY_OLD_ANSWER_EVERY_SECONDS", 24 * 3600)

# How often an open game page asks whether the game moved on, in seconds
# (games/web/follow.py); never while its tab is hidden.
PAGE_FOLLOW_SECONDS = env_int(os.environ, "PAGE_FOLLOW_SECONDS", 5)

# Sign-in lockout (django-axes): failures are counted per username and client
# address together, so a stranger guessing a moderator's password is stopped
# without locking the moderator out from their own address.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "moderation/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "games.web.limits.client_ip"
# Axes would log every attempt with its username; the lockout needs no log.
AXES_VERBOSE = False

LOGIN_URL = "mod_login"
LOGIN_REDIRECT_URL = "mod_dashboard"
