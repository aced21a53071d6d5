"""Sign-in at /mod/login/ is locked after repeated wrong passwords (django-axes),
for that name from that address, and opens again after the cool-off."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone

from .conftest import MODERATOR_PASSWORD

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.66"


def _sign_in(client: Client, password: str, username: str = "moderator"):
    return client.post("/mod/login/", {"username": username, "password": password, "next": "/mod/"})


def test_after_too_many_wrong_passwords_the_right_one_is_refused_until_the_cool_off_ends(moderator):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        client = Client(REMOTE_ADDR=ATTACKER)
        for attempt in range(settings.AXES_FAILURE_LIMIT):
            assert _sign_in(client, f"guess {attempt}").status_code in (200, 429)
        refused = _sign_in(client, MODERATOR_PASSWORD)
        assert refused.status_code == 429
        page = refused.content.decode()
        assert "Signing in is paused" in page and "15 minutes" in page
        assert "_auth_user_id" not in client.session
        assert client.get("/mod/").status_code == 302

        clock.shift(settings.AXES_COOLOFF_TIME + timedelta(seconds=1))
        signed_in = _sign_in(client, MODERATOR_PASSWORD)
        assert signed_in.status_code == 302 and signed_in["Location"] == "/mod/"
        assert client.get("/mod/").status_code == 200


def test_the_lockout_holds_the_guessing_address_not_the_moderator_elsewhere(moderator):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    for attempt in range(settings.AXES_FAILURE_LIMIT + 5):
        _sign_in(attacker, f"guess {attempt}")
    assert _sign_in(attacker, MODERATOR_PASSWORD).status_code == 429
    own = Client(REMOTE_ADDR="198.51.100.1")
    assert _sign_in(own, MODERATOR_PASSWORD).status_code == 302


def test_a_few_mistakes_then_the_right_password_signs_in(moderator):
    client = Client(REMOTE_ADDR="198.51.100.2")
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _sign_in(client, f"typo {attempt}").status_code == 200
    assert _sign_in(client, MODERATOR_PASSWORD).status_code == 302
