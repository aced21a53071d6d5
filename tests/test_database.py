import os

import pytest
from django.contrib.auth.models import User
from django.db import connection

from versailles_site.env import PREPARE_THRESHOLD


@pytest.mark.django_db
def test_suite_runs_against_the_configured_database():
    User.objects.create_user("alice", "alice@example.org", "not-a-real-password")

    assert User.objects.filter(username="alice").exists()
    # DATABASE_URL only accepts PostgreSQL, so its presence names the vendor.
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").strip() else "sqlite"
    assert connection.vendor == expected


@pytest.mark.django_db
def test_a_statement_run_over_and_over_is_prepared_by_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's (the suite's second stage)")
    # pg_prepared_statements lists this connection's own, so only this test's count.
    for _ in range(PREPARE_THRESHOLD + 1):
        assert not User.objects.filter(username="nobody-at-all").exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('"auth_user"' in statement and "nobody" not in statement for statement in prepared), prepared


@pytest.mark.django_db(transaction=True)
def test_a_flush_between_tests_leaves_every_table_empty():
    from django.apps import apps
    from django.core.management import call_command

    from tests.factories import play_steps, started_game

    # Rows that point at each other (seats, log, outbox at their game), as a test leaves them.
    play_steps(started_game(players=4), 6)
    User.objects.create_user("alice", "alice@example.org", "not-a-real-password")
    filled = [model for model in apps.get_models() if model.objects.exists()]
    assert len(filled) >= 4, filled

    # Without post_migrate, which would put the content types and permissions back.
    call_command("flush", verbosity=0, interactive=False, inhibit_post_migrate=True)

    assert [model.__name__ for model in apps.get_models() if model.objects.exists()] == []


def test_the_test_run_empties_postgresql_with_delete_and_sqlite_as_django_does():
    from django.core.management.color import no_style

    statements = connection.ops.sql_flush(no_style(), ["games_game", "games_seat"])
    if connection.vendor == "postgresql":
        # tests/postgresql_delete_flush: if Django's flush stopped reaching it, the suite would silently truncate again.
        assert statements == ['DELETE FROM "games_game";', 'DELETE FROM "games_seat";']
    else:
        assert all(statement.startswith("DELETE FROM") for statement in statements), statements


@pytest.mark.django_db
def test_every_session_on_the_postgresql_test_database_commits_without_waiting_for_the_disk():
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL setting (the suite's second stage); SQLite's WAL does not flush a commit")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setconfig FROM pg_db_role_setting"
            " WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        settings_of_the_database = [item for (config,) in cursor.fetchall() for item in config]
    assert "synchronous_commit=off" in settings_of_the_database
