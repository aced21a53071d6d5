import os

import pytest
from django.contrib.auth.models import User
from django.db import connection


@pytest.mark.django_db
def test_suite_runs_against_the_configured_database():
    User.objects.create_user("alice", "alice@example.org", "not-a-real-password")

    assert User.objects.filter(username="alice").exists()
    # DATABASE_URL only accepts PostgreSQL, so its presence names the vendor.
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").strip() else "sqlite"
    assert connection.vendor == expected
