"""A browser test leaves no database session behind: reads made while
Playwright's event loop runs get a connection of their own (asgiref's
Local keeps it apart from the thread's), which the chromium fixture closes."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game


@pytest.fixture
def sessions_left_after(django_db_blocker):
    """Set up before the chromium fixture, so torn down after it: the other
    sessions on the test database once the browser is gone."""
    if connection.vendor != "postgresql":
        pytest.skip("sessions are counted on PostgreSQL (the suite's second stage); SQLite has none")
    left: list = []
    yield left
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, state, left(query, 80) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        left.extend(cursor.fetchall())
    assert left == [], f"sessions still open on the test database: {left}"


@pytest.mark.django_db
def test_a_read_made_while_the_browser_runs_leaves_no_session_open(sessions_left_after, chromium):
    page = chromium.new_page()
    page.set_content("<p>a page</p>")
    assert Game.objects.count() == 0
    page.close()
