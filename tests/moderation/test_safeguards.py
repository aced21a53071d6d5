"""Safeguards for moderators: a password is replaced only when asked, the
state filter finds every game in a state, and aborting asks first."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from games.models import Game, ModerationEntry
from tests.factories import started_game

from .helpers import act, snapshot, text_of

pytestmark = pytest.mark.django_db


def listed(client, **params) -> list[str]:
    return [row["game"].public_id for row in client.get("/mod/", params).context["rows"]]


def test_createmoderator_refuses_to_replace_an_existing_users_password_without_reset_password(plain_user):
    with pytest.raises(CommandError, match="--reset-password"):
        call_command("createmoderator", "plain", "--password", "taken-over-99", stdout=io.StringIO())
    plain_user.refresh_from_db()
    assert plain_user.check_password("plain-password-1")
    assert not plain_user.is_staff and not plain_user.groups.exists()


def test_createmoderator_promotes_an_existing_user_keeping_their_password():
    User.objects.create_user("plain2", password="plain-password-1")
    out = io.StringIO()
    call_command("createmoderator", "plain2", stdout=out)
    user = User.objects.get(username="plain2")
    assert user.check_password("plain-password-1") and user.is_staff
    assert "password unchanged" in out.getvalue()


def test_createmoderator_replaces_the_password_with_reset_password(plain_user):
    call_command("createmoderator", "plain", "--password", "brand-new-pw-1", "--reset-password", stdout=io.StringIO())
    plain_user.refresh_from_db()
    assert plain_user.check_password("brand-new-pw-1")


def test_the_state_filter_lists_running_and_finished_games_that_need_nothing(mod_client):
    running, over = started_game(3), started_game(3)
    Game.objects.filter(pk=over.pk).update(status=Game.Status.OVER)
    assert listed(mod_client) == []
    assert listed(mod_client, status="running") == [running.public_id]
    assert listed(mod_client, status="over") == [over.public_id]
    assert "No game matches." in text_of(mod_client.get("/mod/", {"status": "aborted"}))


def test_abort_without_the_confirmation_box_changes_nothing_and_says_why(mod_client, game):
    before = snapshot(game)
    response = act(mod_client, game, "abort", message="Sorry, cancelled.", reason="cheating", follow=True)
    assert response.status_code == 200
    assert "Yes, end this game for everyone" in text_of(response)
    assert "Nothing was changed." in text_of(response)
    assert snapshot(game) == before
    assert not ModerationEntry.objects.exists()


def test_the_abort_form_has_a_required_confirmation_box(mod_client, game):
    page = mod_client.get(f"/mod/g/{game.public_id}/").content.decode()
    assert 'name="confirm" value="yes" required' in page
