"""Strict parsing of settings from environment variables.

Every function takes the environment as a mapping (os.environ in settings.py,
a plain dict in tests), so parsing can be tested without touching the process
environment or reloading settings.

A typo in a variable should stop start-up with a message naming the variable,
not fall back to a default that quietly runs the service in the wrong mode.
An empty value counts as unset, so `FOO=` in an env file means "use the
default" rather than an error.
"""

import os
import re
from collections.abc import Mapping
from typing import Any, overload
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = ("true", "1", "yes")
FALSE_WORDS = ("false", "0", "no")

# Only ever used with DEBUG on; secret_key() refuses it otherwise.
DEV_SECRET_KEY = "dev-only-insecure-secret-key-do-not-use-in-production"

POSTGRES_SCHEMES = ("postgres", "postgresql")
REDIS_SCHEMES = ("redis", "rediss")


def _split(name: str, url: str) -> SplitResult:
    try:
        return urlsplit(url)
    except ValueError:
        # Raised for broken IPv6 brackets; the URL itself is not echoed.
        raise ImproperlyConfigured(f"{name} is not a valid URL") from None


def _raw(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


@overload
def env_str(environ: Mapping[str, str], name: str, default: str) -> str: ...


@overload
def env_str(environ: Mapping[str, str], name: str, default: None = None) -> str | None: ...


def env_str(environ: Mapping[str, str], name: str, default: str | None = None) -> str | None:
    value = _raw(environ, name)
    return default if value is None else value


def env_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    value = _raw(environ, name)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of true/false/1/0/yes/no, got {value!r}"
    )


def env_int(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _raw(environ, name)
    if value is None:
        return default
    # int() would also take "1_000" and "٣"; settings should not.
    if not re.fullmatch(r"[+-]?[0-9]+", value):
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}")
    return int(value)


def env_seconds_from_ms(environ: Mapping[str, str], name: str, default_ms: int) -> float:
    """A positive whole number of milliseconds, as seconds: a wait of 0
    would make a loop spin."""
    milliseconds = env_int(environ, name, default_ms)
    if milliseconds <= 0:
        raise ImproperlyConfigured(f"{name} must be a positive number of milliseconds, got {milliseconds}")
    return milliseconds / 1000


def env_list(environ: Mapping[str, str], name: str, default: list[str]) -> list[str]:
    value = _raw(environ, name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(
            f"{name} must be a comma-separated list without empty items, got {value!r}"
        )
    return items


def env_path(environ: Mapping[str, str], name: str, default: str) -> str:
    """An absolute filesystem path: a relative one would depend on the
    directory each process (web, worker, beat) happens to start in."""
    value = env_str(environ, name, default)
    if not os.path.isabs(value):
        raise ImproperlyConfigured(f"{name} must be an absolute path, got {value!r}")
    return value


def secret_key(environ: Mapping[str, str], *, debug: bool) -> str:
    value = _raw(environ, "SECRET_KEY")
    if debug:
        return value or DEV_SECRET_KEY
    if value is None:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false")
    if value == DEV_SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY must not be the built-in development key when DEBUG is false"
        )
    return value


def secret_key_fallbacks(environ: Mapping[str, str], *, debug: bool) -> list[str]:
    """Earlier SECRET_KEYs, still accepted for links and reply addresses made
    under them (and by Django for sessions), so rotating the key ends no game."""
    keys = env_list(environ, "SECRET_KEY_FALLBACKS", [])
    if not debug and DEV_SECRET_KEY in keys:
        raise ImproperlyConfigured(
            "SECRET_KEY_FALLBACKS must not hold the built-in development key when DEBUG is false"
        )
    return keys


def site_url(environ: Mapping[str, str], default: str) -> str:
    value = env_str(environ, "SITE_URL", default)
    parts = _split("SITE_URL", value)
    # Links in email are built as SITE_URL + path, so anything beyond an
    # origin would end up in the middle of every link.
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise ImproperlyConfigured(
            f"SITE_URL must look like https://example.org (scheme and host only), got {value!r}"
        )
    return value.rstrip("/")


def proxy_ssl_header(environ: Mapping[str, str]) -> tuple[str, str] | None:
    """SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto: https" as Django wants it,
    ("HTTP_X_FORWARDED_PROTO", "https"). Set it only behind a proxy that
    always sets that header itself: otherwise a client could claim HTTPS."""
    value = _raw(environ, "SECURE_PROXY_SSL_HEADER")
    if value is None:
        return None
    name, colon, expected = (part.strip() for part in value.partition(":"))
    if not colon or not re.fullmatch(r"[A-Za-z0-9-]+", name) or not expected:
        raise ImproperlyConfigured(
            f"SECURE_PROXY_SSL_HEADER must look like 'X-Forwarded-Proto: https', got {value!r}"
        )
    return "HTTP_" + name.upper().replace("-", "_"), expected


# psycopg's own default: a statement run this often by one connection is prepared.
PREPARE_THRESHOLD = 5


def database_config(environ: Mapping[str, str], *, sqlite_path: str) -> dict[str, Any]:
    """DATABASES["default"] from DATABASE_URL, or the embedded SQLite file."""
    url = _raw(environ, "DATABASE_URL")
    if url is None:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(sqlite_path),
            # Tests get a file too, not memory: a Celery worker in another
            # process must see the test database.
            # One per test process, so two test runs never share it.
            "TEST": {"NAME": f"{str(sqlite_path).removesuffix('.sqlite3')}-test-{os.getpid()}.sqlite3"},
            "OPTIONS": {
                # Web, worker and beat share one file: take the write lock at
                # BEGIN instead of failing mid-transaction on upgrade, wait
                # for it instead of raising "database is locked", and let
                # readers proceed while someone writes (WAL).
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }

    # Error messages below never echo the URL: it usually holds a password.
    parts = _split("DATABASE_URL", url)
    if parts.scheme not in POSTGRES_SCHEMES:
        raise ImproperlyConfigured(
            "DATABASE_URL must start with postgres:// or postgresql://, "
            f"got scheme {parts.scheme!r}"
        )
    if not url.startswith(f"{parts.scheme}://"):
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with {parts.scheme}:// (the // is missing)"
        )
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("DATABASE_URL has an invalid port") from None
    name = unquote(parts.path.removeprefix("/"))
    if not name or "/" in name:
        raise ImproperlyConfigured(
            "DATABASE_URL must name one database, as in postgres://user@host:5432/dbname"
        )
    if parts.fragment:
        raise ImproperlyConfigured("DATABASE_URL must not contain a #fragment")
    try:
        # Query parameters are libpq connection options, e.g. ?sslmode=require
        options: dict[str, Any] = dict(parse_qsl(parts.query, strict_parsing=True)) if parts.query else {}
    except ValueError:
        raise ImproperlyConfigured(
            "DATABASE_URL query must be name=value pairs, as in ?sslmode=require"
        ) from None

    if env_bool(environ, "DATABASE_PREPARED_STATEMENTS", True):
        # Django turns psycopg's prepared statements off unless asked. With
        # server-side binding psycopg prepares a statement once a connection
        # has run it prepare_threshold times, so PostgreSQL stops planning the
        # few statements a page or a decision runs over and over (a seat link's
        # version check: 1.43-1.55x the static page without, 1.20-1.37x with,
        # bench/web.py). A transaction-pooling PgBouncer cannot keep them:
        # DATABASE_PREPARED_STATEMENTS=false there.
        options = {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD, **options}
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        # An empty host means the local Unix socket, as with psql.
        "HOST": parts.hostname or "",
        "PORT": str(port) if port is not None else "",
        "OPTIONS": options,
    }


def redis_url(environ: Mapping[str, str]) -> str | None:
    url = _raw(environ, "REDIS_URL")
    if url is None:
        return None
    scheme = _split("REDIS_URL", url).scheme
    if scheme not in REDIS_SCHEMES or not url.startswith(f"{scheme}://"):
        # Do not echo the URL: it may hold a password.
        raise ImproperlyConfigured(
            f"REDIS_URL must start with redis:// or rediss://, got scheme {scheme!r}"
        )
    return url


# The dev mailbox, when no provider is named.
DEV_MAILBOX_BACKEND = "games.mail.devmail.MailboxBackend"


WEBHOOK_PASSWORD_MIN = 16


def _check_webhook_secret(secret: str | None, provider: str | None) -> None:
    """``provider`` is an anymail one, or None for the dev mailbox and SMTP.
    With a provider the webhooks take replies and bounce reports: without a
    secret anyone could post them (games.web.webhooks closes them then, but a
    provider configured without one is a mistake, so start-up says so)."""
    if secret is None:
        if provider is None:
            return
        raise ImproperlyConfigured(
            f"ANYMAIL_WEBHOOK_SECRET must be set when EMAIL_PROVIDER is {provider!r}: without it the "
            "provider's webhooks (replies, bounce reports) would accept anyone. Set it to "
            f"user:password (a random password of {WEBHOOK_PASSWORD_MIN} or more characters) and put "
            "the same in the webhook URLs you give the provider"
        )
    user, colon, password = secret.partition(":")
    if not colon or not user or len(password) < WEBHOOK_PASSWORD_MIN or any(c.isspace() for c in secret):
        raise ImproperlyConfigured(
            f"ANYMAIL_WEBHOOK_SECRET must look like user:password, with a random password of "
            f"{WEBHOOK_PASSWORD_MIN} or more characters and no spaces"
        )


def email_config(environ: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """EMAIL_BACKEND and the ANYMAIL settings from EMAIL_PROVIDER.

    EMAIL_PROVIDER names any ESP django-anymail supports (its backend module:
    mailgun, postmark, sendgrid, amazon_ses, brevo, ...), or "smtp" (Django's
    SMTP backend, e.g. Mailpit), or is unset for the local dev mailbox. Every
    ANYMAIL_<NAME> variable becomes ANYMAIL["<NAME>"] (API keys, WEBHOOK_SECRET).
    """
    anymail = {
        name[len("ANYMAIL_"):]: value.strip()
        for name, value in environ.items()
        if name.startswith("ANYMAIL_") and value.strip()
    }
    provider = _raw(environ, "EMAIL_PROVIDER")
    if provider is None or provider.lower() in ("smtp", "console"):
        _check_webhook_secret(anymail.get("WEBHOOK_SECRET"), None)
    if provider is None:
        return DEV_MAILBOX_BACKEND, anymail
    provider = provider.lower()
    if provider == "smtp":
        return "django.core.mail.backends.smtp.EmailBackend", anymail
    if provider == "console":
        return "django.core.mail.backends.console.EmailBackend", anymail
    if not re.fullmatch(r"[a-z_]+", provider):
        raise ImproperlyConfigured(f"EMAIL_PROVIDER must be a provider name, got {provider!r}")
    import importlib.util

    if importlib.util.find_spec(f"anymail.backends.{provider}") is None:
        raise ImproperlyConfigured(
            f"EMAIL_PROVIDER {provider!r} is not a provider django-anymail supports "
            "(use its backend module name, e.g. mailgun, postmark, sendgrid, amazon_ses), "
            "'smtp', or leave it unset for the dev mailbox"
        )
    _check_webhook_secret(anymail.get("WEBHOOK_SECRET"), provider)
    return f"anymail.backends.{provider}.EmailBackend", anymail
