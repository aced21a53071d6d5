"""Who may reach the moderators' pages: moderators signed in with a password,
nobody else, and never a seat link."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.http import HttpRequest
from django.urls import URLPattern

from games import urls as game_urls
from games.models import HelpRequest, ModerationEntry, Seat
from games.services import moderation
from tests.factories import computer_turns, seat_at, tokens

from .conftest import MODERATOR_PASSWORD
from .helpers import act, mover, snapshot, text_of

pytestmark = pytest.mark.django_db


def moderation_requests(game):
    """(method, path, data) for every moderation URL."""
    return [
        ("get", "/mod/", {}),
        ("get", "/mod/?q=" + game.public_id, {}),
        ("get", f"/mod/g/{game.public_id}/", {}),
        ("post", f"/mod/g/{game.public_id}/act", {"action": "pause", "reason": "because"}),
        ("post", f"/mod/g/{game.public_id}/act", {"action": "abort", "message": "bye", "reason": "because"}),
        ("post", f"/mod/g/{game.public_id}/act", {"action": "extend", "hours": "24", "reason": "because"}),
    ]


def test_anonymous_visitors_are_sent_to_the_moderator_sign_in_from_every_moderation_url(client, game):
    before = snapshot(game)
    for method, path, data in moderation_requests(game):
        response = getattr(client, method)(path, data)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/mod/login/?next="), path
    assert snapshot(game) == before


@pytest.mark.parametrize("who", ["staff_user", "plain_user"])
def test_signed_in_users_who_are_not_moderators_get_403_from_every_moderation_url(client, game, who, request):
    client.force_login(request.getfixturevalue(who))
    before = snapshot(game)
    for method, path, data in moderation_requests(game):
        response = getattr(client, method)(path, data)
        assert response.status_code == 403, path
        assert "This account is not a moderator." in text_of(response)
        assert game.public_id not in response.content.decode(), path
    assert snapshot(game) == before
    assert ModerationEntry.objects.count() == 0


def test_a_moderator_removed_from_the_group_or_made_inactive_loses_access(client, moderator, game):
    client.force_login(moderator)
    assert client.get("/mod/").status_code == 200
    moderator.groups.clear()
    assert client.get("/mod/").status_code == 403
    moderator.groups.add(Group.objects.get(name="moderators"))
    moderator.is_staff = False
    moderator.save()
    assert client.get("/mod/").status_code == 403


def test_no_moderation_url_takes_a_seat_token():
    for pattern in game_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = str(pattern.pattern)
        if route.startswith("mod/"):
            assert "token" not in pattern.pattern.converters, route
            assert "<str:token>" not in route, route


def test_a_seat_link_opens_no_moderation_page_and_cannot_act(client, game):
    token = tokens(game)[mover(game)]
    # The player opens their seat (and gets whatever cookies that gives)...
    assert client.get(f"/s/{token}/").status_code == 200
    before = snapshot(game)
    # ...but that signs nobody in as a moderator.
    for method, path, data in moderation_requests(game):
        response = getattr(client, method)(path, data)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/mod/login/"), path
    # A token in the path or the query under /mod/ does not help either.
    for path in (f"/mod/{token}/", f"/mod/s/{token}/", f"/mod/g/{token}/", f"/mod/?token={token}"):
        response = client.get(path)
        assert response.status_code in (302, 404), path
        if response.status_code == 302:
            assert response["Location"].startswith("/mod/login/"), path
    response = client.post(
        f"/mod/g/{game.public_id}/act?token={token}", {"action": "abort", "message": "x", "reason": "x", "token": token}
    )
    assert response.status_code == 302 and response["Location"].startswith("/mod/login/")
    assert snapshot(game) == before
    assert ModerationEntry.objects.count() == 0


ACTIONS = [
    ("extend", {"hours": 24}),
    ("pause", {}),
    ("resume", {}),
    ("default", {}),
    ("replace", {"seat": 1, "email": "newcomer@example.com"}),
    ("autopilot_on", {"seat": 1}),
    ("autopilot_off", {"seat": 1}),
    ("resend", {"seat": 1}),
    ("abort", {"message": "The game is cancelled.", "confirm": "yes"}),
    ("help_handled", {}),
]


@pytest.mark.parametrize("reason", ["", "   \t\n "])
@pytest.mark.parametrize("action, data", ACTIONS, ids=[a for a, _ in ACTIONS])
def test_a_moderator_cannot_act_without_a_reason(mod_client, moderator, game, action, data, reason):
    data = dict(data)
    if action == "resume":
        moderation.game_pause(moderator=moderator, game=game, reason="setting up")
    if action == "autopilot_off":
        Seat.objects.filter(game=game, position=1).update(autopilot=True, autopilot_reason="moderator")
        computer_turns(game)  # what switching it on lets the computer player decide, settled first
    if action == "help_handled":
        data["help"] = HelpRequest.objects.create(game=game, seat=seat_at(game, 1), message="help me").pk
    before = snapshot(game)
    response = act(mod_client, game, action, reason=reason, follow=True, **data)
    assert response.status_code == 200
    assert "Give a reason: the players will see it." in text_of(response)
    assert snapshot(game) == before


def test_createmoderator_makes_a_staff_user_in_the_group_who_signs_in_at_mod_login(client, game):
    out = io.StringIO()
    call_command(
        "createmoderator", "alice", "--email", "alice@example.org", "--password", "correct horse 12", stdout=out
    )
    assert "created moderator alice" in out.getvalue()
    user = User.objects.get(username="alice")
    assert user.is_staff and not user.is_superuser
    assert list(user.groups.values_list("name", flat=True)) == ["moderators"]
    assert moderation.is_moderator(user)

    # Not signed in yet: the dashboard sends to the sign-in form.
    response = client.get("/mod/")
    assert response.status_code == 302
    form_page = client.get(response["Location"])
    assert form_page.status_code == 200 and 'name="password"' in form_page.content.decode()

    wrong = client.post("/mod/login/", {"username": "alice", "password": "wrong password", "next": "/mod/"})
    assert wrong.status_code == 200
    assert client.get("/mod/").status_code == 302

    signed_in = client.post("/mod/login/", {"username": "alice", "password": "correct horse 12", "next": "/mod/"})
    assert signed_in.status_code == 302 and signed_in["Location"] == "/mod/"
    assert client.get("/mod/").status_code == 200
    assert client.get(f"/mod/g/{game.public_id}/").status_code == 200


def test_createmoderator_refuses_a_short_password_and_promotes_an_existing_user(client, plain_user):
    with pytest.raises(CommandError, match="at least 8"):
        call_command("createmoderator", "bob", "--password", "short", stdout=io.StringIO())
    assert not User.objects.filter(username="bob").exists()
    call_command("createmoderator", "plain", "--password", "new-password-9", "--reset-password", stdout=io.StringIO())
    plain_user.refresh_from_db()
    assert moderation.is_moderator(plain_user)
    # The sign-in lockout (django-axes) needs the request to know who is trying.
    assert client.login(request=HttpRequest(), username="plain", password="new-password-9")
    assert client.get("/mod/").status_code == 200


def test_a_non_moderator_cannot_use_the_moderation_services_directly(staff_user, game):
    before = snapshot(game)
    with pytest.raises(moderation.ServiceError):
        moderation.game_pause(moderator=staff_user, game=game, reason="no")
    assert snapshot(game) == before


def test_the_moderator_sign_in_form_works_for_the_fixture_moderator(client, moderator):
    response = client.post("/mod/login/", {"username": "moderator", "password": MODERATOR_PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/mod/"
