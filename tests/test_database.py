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
