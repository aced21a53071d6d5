import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from versailles_site.env import (
    DEV_SECRET_KEY,
    PREPARE_THRESHOLD,
    database_config,
    env_bool,
    env_int,
    env_list,
    env_path,
    env_seconds_from_ms,
    env_str,
    redis_url,
    secret_key,
    site_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent


def db(url: str) -> dict:
    return database_config({"DATABASE_URL": url}, sqlite_path="/tmp/unused.sqlite3")


@pytest.mark.parametrize("value", ["true", "TRUE", "1", "yes", " Yes "])
def test_true_words_turn_a_flag_on(value):
    assert env_bool({"DEBUG": value}, "DEBUG", False) is True


@pytest.mark.parametrize("value", ["false", "False", "0", "no"])
def test_false_words_turn_a_flag_off(value):
    assert env_bool({"DEBUG": value}, "DEBUG", True) is False


def test_unset_or_empty_flag_takes_the_default():
    assert env_bool({}, "DEBUG", True) is True
    assert env_bool({"DEBUG": ""}, "DEBUG", False) is False


def test_bad_debug_value_stops_startup_with_a_clear_message():
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env_bool({"DEBUG": "maybe"}, "DEBUG", True)
    assert str(excinfo.value) == "DEBUG must be one of true/false/1/0/yes/no, got 'maybe'"


def test_whole_numbers_are_parsed():
    assert env_int({"N": "42"}, "N", 1) == 42
    assert env_int({"N": "-3"}, "N", 1) == -3
    assert env_int({}, "N", 7) == 7


@pytest.mark.parametrize("value", ["1.5", "ten", "1_000", "0x10"])
def test_anything_but_a_whole_number_is_rejected(value):
    with pytest.raises(ImproperlyConfigured, match=f"N must be a whole number, got '{value}'"):
        env_int({"N": value}, "N", 1)


def test_milliseconds_are_read_as_seconds_and_must_be_positive():
    assert env_seconds_from_ms({}, "POLL_MS", 500) == 0.5
    assert env_seconds_from_ms({"POLL_MS": "50"}, "POLL_MS", 500) == 0.05
    for value in ("0", "-5", "0.5"):
        with pytest.raises(ImproperlyConfigured, match="POLL_MS must be"):
            env_seconds_from_ms({"POLL_MS": value}, "POLL_MS", 500)


def test_lists_are_split_on_commas_and_trimmed():
    assert env_list({"HOSTS": "a.example, b.example"}, "HOSTS", []) == ["a.example", "b.example"]
    assert env_list({}, "HOSTS", ["x"]) == ["x"]


def test_list_with_an_empty_item_is_rejected():
    with pytest.raises(ImproperlyConfigured, match="HOSTS must be a comma-separated list"):
        env_list({"HOSTS": "a.example,,b.example"}, "HOSTS", [])


def test_strings_fall_back_to_the_default_when_unset_or_empty():
    assert env_str({"NAME": " value "}, "NAME") == "value"
    assert env_str({"NAME": ""}, "NAME", "fallback") == "fallback"
    assert env_str({}, "NAME") is None


def test_paths_must_be_absolute_and_fall_back_to_the_default():
    assert env_path({}, "VAR_DIR", "/srv/var") == "/srv/var"
    assert env_path({"VAR_DIR": " /tmp/x "}, "VAR_DIR", "/srv/var") == "/tmp/x"
    with pytest.raises(ImproperlyConfigured, match="VAR_DIR must be an absolute path"):
        env_path({"VAR_DIR": "var"}, "VAR_DIR", "/srv/var")


def test_debug_gets_a_development_secret_key_when_none_is_set():
    assert secret_key({}, debug=True) == DEV_SECRET_KEY
    assert secret_key({"SECRET_KEY": "s3cret"}, debug=True) == "s3cret"


def test_missing_secret_key_without_debug_is_rejected():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set when DEBUG is false"):
        secret_key({}, debug=False)


def test_development_secret_key_without_debug_is_rejected():
    with pytest.raises(ImproperlyConfigured, match="built-in development key"):
        secret_key({"SECRET_KEY": DEV_SECRET_KEY}, debug=False)


def test_production_secret_key_is_used_as_given():
    assert secret_key({"SECRET_KEY": "long-random-value"}, debug=False) == "long-random-value"


def test_without_database_url_the_embedded_sqlite_file_is_used():
    config = database_config({}, sqlite_path="/srv/var/db.sqlite3")
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/srv/var/db.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_postgres_database_url_is_parsed():
    assert db("postgres://alice:pa%40ss@db.example:6543/versailles") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "versailles",
        "USER": "alice",
        "PASSWORD": "pa@ss",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {"server_side_binding": True, "prepare_threshold": PREPARE_THRESHOLD},
    }


def test_postgresql_scheme_and_defaults_for_password_and_port_are_accepted():
    config = db("postgresql://postgres@127.0.0.1/versailles")
    assert (config["USER"], config["PASSWORD"], config["HOST"], config["PORT"]) == (
        "postgres",
        "",
        "127.0.0.1",
        "",
    )


def test_ipv6_host_loses_its_brackets():
    assert db("postgres://u@[::1]:5432/v")["HOST"] == "::1"


def test_query_parameters_become_connection_options():
    assert db("postgres://u@h/v?sslmode=require")["OPTIONS"]["sslmode"] == "require"


def test_prepared_statements_can_be_turned_off_for_a_transaction_pooler():
    config = database_config(
        {"DATABASE_URL": "postgres://u@h/v?sslmode=require", "DATABASE_PREPARED_STATEMENTS": "false"},
        sqlite_path="/tmp/unused.sqlite3",
    )
    assert config["OPTIONS"] == {"sslmode": "require"}


@pytest.mark.parametrize("url", ["mysql://u@h/v", "sqlite:///var/db.sqlite3", "h:5432/v"])
def test_unknown_database_scheme_is_rejected(url):
    with pytest.raises(ImproperlyConfigured, match="must start with postgres:// or postgresql://"):
        db(url)


@pytest.mark.parametrize(
    "url, message",
    [
        ("postgres:/v", "the // is missing"),
        ("postgres://u@h:port/v", "invalid port"),
        ("postgres://u@h:70000/v", "invalid port"),
        ("postgres://u@h:5432", "must name one database"),
        ("postgres://u@h:5432/", "must name one database"),
        ("postgres://u@h/v/extra", "must name one database"),
        ("postgres://u@[::1/v", "not a valid URL"),
        ("postgres://u@h/v?sslmode", "name=value pairs"),
        ("postgres://u@h/v#x", "#fragment"),
    ],
)
def test_malformed_database_url_is_rejected(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        db(url)


def test_database_url_errors_do_not_reveal_the_password():
    with pytest.raises(ImproperlyConfigured) as excinfo:
        db("mysql://alice:hunter2@h/v")
    assert "hunter2" not in str(excinfo.value)


def test_redis_url_is_optional():
    assert redis_url({}) is None


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://:pw@cache.example:6380/1"])
def test_redis_and_rediss_urls_are_accepted(url):
    assert redis_url({"REDIS_URL": url}) == url


@pytest.mark.parametrize("url", ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis:/x"])
def test_other_redis_urls_are_rejected(url):
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must start with redis:// or rediss://"):
        redis_url({"REDIS_URL": url})


def test_site_url_defaults_and_loses_its_trailing_slash():
    assert site_url({}, "http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert site_url({"SITE_URL": "https://play.example/"}, "x") == "https://play.example"


@pytest.mark.parametrize("url", ["play.example", "ftp://play.example", "https://play.example/app"])
def test_site_url_must_be_an_http_origin(url):
    with pytest.raises(ImproperlyConfigured, match="SITE_URL must look like"):
        site_url({"SITE_URL": url}, "http://127.0.0.1:8000")


def test_bad_setting_stops_manage_py_with_the_message():
    env = {**os.environ, "DEBUG": "maybe"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "DEBUG must be one of true/false/1/0/yes/no, got 'maybe'" in result.stderr


def test_production_settings_load_with_a_secret_key():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "a-real-secret", "ALLOWED_HOSTS": "play.example"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
