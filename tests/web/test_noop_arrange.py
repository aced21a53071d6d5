"""A scanner (or a person) that sends the arrange form back as it was shown
changes nothing: no history entry, no new version, and the page still says
saved."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import ActionRecord
from tests.factories import tokens
from tests.web.integrity_helpers import game_at_roll, game_row
from tests.web.pages import forms_of

pytestmark = pytest.mark.django_db


def test_an_arrangement_sent_back_unchanged_writes_nothing():
    game = game_at_roll()
    token = tokens(game)[1]
    client = Client()
    page = client.get(f"/s/{token}/").content.decode()
    (form,) = [f for f in forms_of(page, f"/s/{token}/") if f.action.endswith("/arrange")]
    before, actions = game_row(game), ActionRecord.objects.filter(game=game).count()
    for _ in range(30):
        response = client.post(f"/s/{token}/arrange", form.values(), follow=True)
        assert response.status_code == 200
        assert "Your team is arranged." in response.content.decode()
    assert game_row(game) == before
    assert ActionRecord.objects.filter(game=game).count() == actions
