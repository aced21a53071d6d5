"""Fixtures for the moderation tests: who is signed in, and a running game."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from games.services.moderation import MODERATORS_GROUP
from tests.factories import started_game

MODERATOR_PASSWORD = "a-long-moderator-password"


@pytest.fixture
def moderator(db) -> User:
    """A staff user in the moderators group."""
    user = User.objects.create_user(
        "moderator", email="moderator@example.org", password=MODERATOR_PASSWORD, is_staff=True
    )
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    return user


@pytest.fixture
def mod_client(client, moderator):
    """The test client, signed in as the moderator."""
    client.force_login(moderator)
    return client


@pytest.fixture
def staff_user(db) -> User:
    """Staff, but not in the moderators group."""
    Group.objects.get_or_create(name=MODERATORS_GROUP)
    return User.objects.create_user("staff", email="staff@example.org", password="staff-password-1", is_staff=True)


@pytest.fixture
def plain_user(db) -> User:
    return User.objects.create_user("plain", email="plain@example.org", password="plain-password-1")


@pytest.fixture
def superuser(db) -> User:
    return User.objects.create_superuser("root", email="root@example.org", password="root-password-1")


@pytest.fixture
def game(db):
    """A running four-player game waiting for the first bid."""
    return started_game(4)
